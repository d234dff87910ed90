/**
 * The files a run reads, so no output can name one of them (`--out`, `--report FORMAT:FILE`,
 * `report --out`, `merge -o`): the results file is truncated before the first case and a report
 * replaces its file, and writing either over an eval file, a sidecar, a targets file or a
 * guideline would destroy the user's data.
 *
 * @module
 */
import { basename, dirname, extname, join, resolve } from "node:path";
import type { LoadedEvalSet } from "../run/run_eval.ts";
import { CONFIG_FILE } from "../dataset/config.ts";
import { TARGETS_FILE_NAMES } from "../dataset/targets_file.ts";
import { runRecordPath } from "../results/run_record.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { REPORT_SUFFIX, reportPath, type ReportSpec } from "./report_specs.ts";

/** A file the run reads, and what it is to the run. */
export interface RunInput {
  /** Absolute path. */
  path: string;
  /** What the file is, e.g. `eval file`, `targets file`. */
  what: string;
}

/**
 * Every file the run may read: eval files, JSONL sidecars, the targets and config files and `.env`
 * files between each eval file and its dataset root, `--targets`, each case's guideline and
 * attached files, and the files its evaluators name (judge prompts, code judges). Missing files are
 * listed too (writing one would create an input).
 */
export async function runInputs(
  sets: readonly LoadedEvalSet[],
  options: { targets?: string },
): Promise<RunInput[]> {
  const inputs = new Map<string, string>();
  const add = (path: string, what: string) => {
    const absolute = resolve(path);
    if (!inputs.has(absolute)) inputs.set(absolute, what);
  };
  for (const set of sets) {
    add(set.file, "eval file");
    if (extname(set.file).toLowerCase() === ".jsonl") {
      const stem = join(dirname(set.file), basename(set.file, extname(set.file)));
      add(`${stem}.yaml`, "sidecar");
      add(`${stem}.yml`, "sidecar");
    }
    for (let dir = resolve(set.evalDir);;) {
      for (const name of TARGETS_FILE_NAMES) add(join(dir, ".agentv", name), "targets file");
      add(join(dir, CONFIG_FILE), "config file");
      add(join(dir, ".env"), ".env file");
      const parent = dirname(dir);
      if (dir === resolve(set.root) || parent === dir) break;
      dir = parent;
    }
    for (const evalCase of set.cases) {
      for (const p of evalCase.guideline_paths) add(resolve(set.evalDir, p), "guideline file");
      for (const p of evalCase.file_paths) add(resolve(set.evalDir, p), "attached file");
      // judge prompts and code judges, relative to the eval file's folder or the root
      for (const p of evaluatorFiles(evalCase.evaluators)) {
        add(resolve(set.evalDir, p), "evaluator file");
        add(resolve(set.root, p.replace(/^\/+/, "")), "evaluator file");
      }
    }
  }
  if (options.targets !== undefined) {
    const info = await Deno.stat(options.targets).catch(() => undefined);
    if (info?.isDirectory) {
      for (const dir of [options.targets, join(options.targets, ".agentv")]) {
        for (const name of TARGETS_FILE_NAMES) add(join(dir, name), "targets file");
      }
    } else add(options.targets, "targets file");
  }
  return [...inputs].map(([path, what]) => ({ path, what }));
}

/** Keys whose strings name files in an evaluator config. */
const FILE_KEYS = new Set(["prompt", "module", "script"]);

/** Strings an evaluator config may name files with (`prompt`, `module`, `script`), members too. */
function evaluatorFiles(value: unknown, found: string[] = [], depth = 0): string[] {
  if (depth > 20 || value === null || typeof value !== "object") return found;
  if (Array.isArray(value)) {
    for (const item of value) evaluatorFiles(item, found, depth + 1);
    return found;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (FILE_KEYS.has(key)) {
      for (const text of Array.isArray(item) ? item : [item]) {
        // a shell string names its files as words: `python3 judges/check.py`
        if (typeof text === "string" && text !== "" && !text.includes("\n")) {
          found.push(...(key === "script" ? text.split(/\s+/).filter((w) => w !== "") : [text]));
        }
      }
    } else evaluatorFiles(item, found, depth + 1);
  }
  return found;
}

/** How {@link refuseOutputOverInput} names the output in its refusal. */
export interface OutputRefusalOptions {
  /** The option that names the output (default `--out`). */
  flag?: string;
  /** The output as the user gave it (default `out`). */
  shown?: string;
  /** What writing the output does (default `the results file is overwritten`). */
  writes?: string;
  /** A good value, for the hint (default `.agentv/results/run.jsonl`). */
  example?: string;
}

/**
 * Throws a {@link UsageError} when `out` is one of `inputs` (same path, or the same file through
 * a link). `agentv run --out` and `--report FORMAT:FILE`, `agentv report --out` and
 * `agentv merge -o` all refuse this way, before they write anything.
 *
 * @example
 * ```ts ignore
 * await refuseOutputOverInput("/p/evals/ds.yaml", [{ path: "/p/evals/ds.yaml", what: "eval file" }]);
 * // UsageError: --out '/p/evals/ds.yaml' is the eval file of this run; ...
 * ```
 */
export async function refuseOutputOverInput(
  out: string,
  inputs: readonly RunInput[],
  options: OutputRefusalOptions = {},
): Promise<void> {
  const target = resolve(out);
  const outInfo = await Deno.stat(target).catch(() => undefined);
  // An existing output may be an input under another name (a link): the inputs are stat'ed at
  // once, not one after another (this runs before the first case).
  const infos = outInfo?.isFile
    ? await Promise.all(inputs.map((input) => Deno.stat(input.path).catch(() => undefined)))
    : [];
  for (const [index, input] of inputs.entries()) {
    let same = input.path === target;
    if (!same && outInfo?.isFile) {
      const info = infos[index];
      same = info !== undefined && info.ino !== null && info.ino === outInfo.ino &&
        info.dev === outInfo.dev;
    }
    if (same) {
      const which = input.path === target
        ? `the ${input.what}`
        : `the same file as the ${input.what} '${input.path}'`;
      const flag = options.flag ?? "--out";
      throw new UsageError(
        `${flag} '${options.shown ?? out}' is ${which} of this run; ${
          options.writes ?? "the results file is overwritten"
        }, so it must not be a file the run reads`,
        `pass a new path, e.g. ${flag} ${options.example ?? ".agentv/results/run.jsonl"}`,
      );
    }
  }
}

/**
 * A results file and its run record, as inputs (`what` prefixes their names, e.g. `parent run's `).
 *
 * @example
 * ```ts
 * import { resultsInputs } from "./run_inputs.ts";
 * resultsInputs("/r/a.jsonl").map((i) => i.what); // ["results file", "run record"]
 * ```
 */
export function resultsInputs(resultsPath: string, what = ""): RunInput[] {
  return [
    { path: resolve(resultsPath), what: `${what}results file` },
    { path: resolve(runRecordPath(resultsPath)), what: `${what}run record` },
  ];
}

/**
 * Refuses (a {@link UsageError}, before the run) a `--report FORMAT[:FILE]` whose file is one of
 * `inputs`, the run's results file or its run record, as {@link refuseOutputOverInput} refuses
 * `--out`.
 *
 * @example
 * ```ts ignore
 * await refuseReportsOverInputs([{ format: "html", file: ".agentv/targets.yaml" }], {
 *   resultsPath: "/p/out.jsonl",
 *   inputs: await runInputs(sets, {}),
 *   cwd: "/p",
 * });
 * // UsageError: --report 'html:.agentv/targets.yaml' is the targets file of this run; ...
 * ```
 */
export async function refuseReportsOverInputs(
  specs: readonly ReportSpec[],
  run: { resultsPath: string; inputs: readonly RunInput[]; cwd: string },
): Promise<void> {
  if (specs.length === 0) return;
  const inputs = [...resultsInputs(run.resultsPath), ...run.inputs];
  for (const spec of specs) {
    await refuseOutputOverInput(reportPath(spec, run.resultsPath, run.cwd), inputs, {
      flag: "--report",
      shown: spec.file === undefined ? spec.format : `${spec.format}:${spec.file}`,
      writes: "a report replaces the file it is written to",
      example: `${spec.format}:report${REPORT_SUFFIX[spec.format]}`,
    });
  }
}
