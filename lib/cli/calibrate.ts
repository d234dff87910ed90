/**
 * `agentv calibrate RESULTS… [--labels FILE]`: measures the judge behind results files against
 * human labels (per evaluator and for the case verdict: confusion matrix, accuracy, sensitivity,
 * specificity, Cohen's κ, Krippendorff's α with several reviewers, score agreement, every figure
 * with a seeded bootstrap interval and its n; the disagreements), re-asks the judge on the stored
 * answers to measure its self-consistency (`--repeat K`) and its sensitivity to the order of
 * rubric items (`--orders K`), saves the calibration for `run` and `compare` (`--save`), and gates
 * CI (`--fail-below KAPPA`, `--min-labels N`: exit 1).
 *
 * @module
 */
import { calibrateJudge, type CalibrationReport } from "../calibration/calibrate.ts";
import { calibrationFileOf, writeCalibration } from "../calibration/calibration_file.ts";
import { summarizeConsistency } from "../calibration/consistency.ts";
import { gateFailures } from "../calibration/gate.ts";
import { calibrationJson, type CalibrationOutput } from "../calibration/output.ts";
import { DEFAULT_SEED } from "../compare/statistics.ts";
import { displayPath } from "../fs/display_path.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { renderCalibrationText } from "../render/calibration_text.ts";
import { AGENTV_VERSION } from "../results/run_record.ts";
import { judgePromptHashes } from "../scoring/judge_prompt_hashes.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { CACHE_OPTIONS, type CacheArgs, parseCacheArgs } from "./cache_args.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { commandInfo } from "./commands.ts";
import {
  type CalibrateInputs,
  loadRunSets,
  readCalibrateInputs,
  readLabelsArg,
} from "./calibrate_inputs.ts";

/** The output formats of `agentv calibrate`. */
const FORMATS = ["text", "markdown", "json", "html"] as const;

/** The command line, checked. */
interface CalibrateArgs {
  results: string[];
  labels?: string;
  evaluators?: string[];
  failBelow?: number;
  minLabels?: number;
  repeat: number;
  orders: number;
  save: boolean;
  format: typeof FORMATS[number];
  seed: number;
  resamples: number;
  judgeTarget?: string;
  targets?: string;
  workers: number;
  timeoutMs: number;
  allowRun: boolean;
  cache: CacheArgs;
}

/** A number option checked by `check`; `undefined` when absent. */
function numberArg(
  values: ParsedArgs["values"],
  name: string,
  check: (n: number) => boolean,
  expected: string,
  example: string,
): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const n = Number(text);
  if (text === "" || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(
      `--${name} must be ${expected}, got '${raw}'`,
      `e.g. --${name} ${example}`,
    );
  }
  return n;
}

function parseFormat(values: ParsedArgs["values"]): CalibrateArgs["format"] {
  const format = values.format === undefined ? undefined : String(values.format);
  if (values.json === true) {
    if (format !== undefined && format !== "json") {
      throw new UsageError(`--json and --format ${format} ask for two outputs`, "give one of them");
    }
    return "json";
  }
  if (format === undefined) return "text";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got '${format}'`);
  }
  return format as CalibrateArgs["format"];
}

function parseArgs(args: ParsedArgs): CalibrateArgs {
  const v = args.values;
  if (args.positionals.length === 0) {
    throw new UsageError(
      "agentv calibrate takes one or more results files",
      "e.g. agentv calibrate .agentv/results/run.jsonl --labels .agentv/labels.jsonl",
    );
  }
  const int = (name: string, min: number, max: number, example: string) =>
    numberArg(
      v,
      name,
      (n) => Number.isInteger(n) && n >= min && n <= max,
      `a whole number from ${min} to ${max}`,
      example,
    );
  const parsed: CalibrateArgs = {
    results: args.positionals,
    repeat: int("repeat", 2, 100, "5") ?? 0,
    orders: int("orders", 2, 100, "3") ?? 0,
    save: v.save === true,
    format: parseFormat(v),
    seed: int("seed", 0, 0xffffffff, "7") ?? DEFAULT_SEED,
    resamples: int("resamples", 100, 100_000, "2000") ?? 2000,
    workers: int("workers", 1, 1000, "8") ?? 4,
    timeoutMs: Math.round(
      (numberArg(v, "timeout", (n) => n >= 0.001, "a number of seconds >= 0.001", "60") ?? 120) *
        1000,
    ),
    allowRun: v["allow-run"] === true,
    cache: parseCacheArgs(v),
  };
  const failBelow = numberArg(v, "fail-below", (n) => n >= -1 && n <= 1, "a κ from -1 to 1", "0.6");
  if (failBelow !== undefined) parsed.failBelow = failBelow;
  const minLabels = int("min-labels", 1, 1_000_000, "30");
  if (minLabels !== undefined) parsed.minLabels = minLabels;
  for (
    const [key, flag] of [["labels", "labels"], ["judgeTarget", "judge-target"], [
      "targets",
      "targets",
    ]] as const
  ) {
    const value = v[flag];
    if (typeof value !== "string") continue;
    if (value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
    parsed[key] = value;
  }
  const evaluators = v.evaluator;
  if (Array.isArray(evaluators) && evaluators.length > 0) {
    parsed.evaluators = evaluators.map(String);
  }
  return parsed;
}

/** Re-asks the judges (`--repeat`, `--orders`) and summarises their consistency. */
async function measureConsistency(
  opts: CalibrateArgs,
  inputs: CalibrateInputs,
  io: CommandIO,
): Promise<Pick<CalibrationOutput, "repeat" | "orders" | "skipped">> {
  const sets = await loadRunSets(inputs.results, io, "Cannot re-ask the judge");
  const { rejudge } = await import("../run/rejudge.ts");
  const { trustStorePermission } = await import("./trust.ts");
  const judged = await rejudge({
    rows: inputs.rows,
    sets,
    repeat: opts.repeat,
    orders: opts.orders,
    ...(opts.evaluators ? { evaluators: opts.evaluators } : {}),
    ...(opts.judgeTarget !== undefined ? { judgeTarget: opts.judgeTarget } : {}),
    ...(opts.targets !== undefined ? { targetsFile: opts.targets } : {}),
    ...opts.cache,
    env: io.envAll(),
    cwd: io.cwd,
    signal: io.signal,
    timeoutMs: opts.timeoutMs,
    workers: opts.workers,
    seed: opts.seed,
    allowRun: opts.allowRun || await trustStorePermission(io),
  });
  const bootstrap = { seed: opts.seed, resamples: opts.resamples, confidence: 0.95 };
  return {
    repeat: opts.repeat > 0
      ? summarizeConsistency(judged.repeat, { kind: "repeat", k: opts.repeat, bootstrap })
      : null,
    orders: opts.orders > 0
      ? summarizeConsistency(judged.orders, { kind: "order", k: opts.orders, bootstrap })
      : null,
    skipped: judged.skipped,
  };
}

/** Writes `.agentv/calibration/<judge>.json` of the report; returns the path written. */
async function saveCalibration(
  report: CalibrationReport,
  inputs: CalibrateInputs,
  io: CommandIO,
): Promise<string> {
  const judges = [...new Set(report.units.flatMap((u) => u.judge_targets))];
  if (judges.length !== 1) {
    throw new UsageError(
      judges.length === 0
        ? "Cannot save a calibration: the labelled verdicts record no judge target"
        : `Cannot save one calibration: the labelled verdicts come from ${judges.length} judge ` +
          `targets (${judges.map((j) => `'${j}'`).join(", ")})`,
      "calibrate the results of one judge at a time, or pick its evaluators with --evaluator",
    );
  }
  const models = [...new Set(report.units.flatMap((u) => u.models))];
  const paint = createPaint(io.color);
  const warn = (text: string) => io.stderr(`${paint.yellow(paint.bold("warning"))}: ${text}\n`);
  if (models.length > 1) {
    warn(
      `judge '${judges[0]}' was asked with ${models.length} models (${models.join(", ")}): ` +
        "the calibration records none, so a change of model will not be noticed",
    );
  }
  let prompt = null;
  try {
    const sets = await loadRunSets(inputs.results, io, "The judge prompts are not recorded");
    prompt = await judgePromptHashes(
      sets.flatMap((s) =>
        s.cases.map((evalCase) => ({ evalCase, evalDir: s.evalDir, root: s.root }))
      ),
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    warn(`${e.message}: a changed prompt or rubric will not be noticed`);
  }
  return await writeCalibration(
    inputs.root,
    calibrationFileOf(report, {
      judgeTarget: judges[0],
      model: models.length === 1 ? models[0] : null,
      prompt,
      runs: [...new Set(inputs.rows.flatMap((r) => (r.run_id === null ? [] : [r.run_id])))],
      now: io.now(),
      version: AGENTV_VERSION,
    }),
  );
}

async function render(output: CalibrationOutput, format: CalibrateArgs["format"], io: CommandIO) {
  if (format === "json") io.stdout(JSON.stringify(calibrationJson(output), null, 2) + "\n");
  else if (format === "markdown") {
    io.stdout(
      (await import("../render/calibration_markdown.ts")).renderCalibrationMarkdown(output),
    );
  } else if (format === "html") {
    io.stdout((await import("../render/calibration_html.ts")).renderCalibrationHtml(output));
  } else io.stdout(renderCalibrationText(output, { style: createPaint(io.color) }));
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const opts = parseArgs(args);
  const inputs = await readCalibrateInputs(opts.results, io);
  const labels = await readLabelsArg(opts.labels, inputs.root, io);
  const problems = [...inputs.problems, ...(labels.found ? labels.problems : [])];
  if (problems.length > 0) {
    io.stderr(renderDiagnosticsFor(problems, io) + "\n");
    return 2;
  }
  const rejudging = opts.repeat > 0 || opts.orders > 0;
  if (!labels.found && !rejudging) {
    throw new UsageError(
      `No labels file at '${displayPath(labels.file, io.cwd)}'`,
      "label answers in agentv view, import them with agentv label import, write one JSON label " +
        "per line, or pass --labels FILE (--repeat K alone measures self-consistency)",
    );
  }
  const report = labels.found
    ? calibrateJudge(inputs.rows, labels.labels, {
      bootstrap: { seed: opts.seed, resamples: opts.resamples },
      ...(opts.evaluators ? { evaluators: opts.evaluators } : {}),
    })
    : null;
  if (report !== null && report.units.length === 0 && !rejudging) {
    const first = report.labels.unmatched[0];
    throw new UsageError(
      `None of the ${report.labels.latest} label(s) in '${displayPath(labels.file, io.cwd)}' ` +
        `matches a judged verdict of the results given${first ? ` (first: ${first.reason})` : ""}`,
      "give the results files of the labelled runs (labels name their run_id)",
    );
  }
  let consistency: Pick<CalibrationOutput, "repeat" | "orders" | "skipped"> = {
    repeat: null,
    orders: null,
    skipped: [],
  };
  if (rejudging) {
    try {
      consistency = await measureConsistency(opts, inputs, io);
    } catch (e) {
      // What a judge would start or send, why the trust store does not cover it, both fixes.
      const { UntrustedDatasetError } = await import("../run/run_permission.ts");
      if (!(e instanceof UntrustedDatasetError)) throw e;
      return await (await import("./trust.ts")).reportUntrusted(e, io);
    }
  }
  if (opts.save && report === null) {
    throw new UsageError("--save needs labels: there is nothing to calibrate against");
  }
  const saved = opts.save && report !== null ? await saveCalibration(report, inputs, io) : null;
  const gated = opts.failBelow !== undefined || opts.minLabels !== undefined;
  const output: CalibrationOutput = {
    results: opts.results,
    labels_file: labels.found ? displayPath(labels.file, io.cwd) : null,
    report,
    ...consistency,
    saved: saved === null ? null : displayPath(saved, io.cwd),
    gate: !gated ? null : {
      fail_below: opts.failBelow ?? null,
      min_labels: opts.minLabels ?? null,
      failures: report === null ? ["no labels were read"] : gateFailures(report, {
        ...(opts.failBelow !== undefined ? { failBelow: opts.failBelow } : {}),
        ...(opts.minLabels !== undefined ? { minLabels: opts.minLabels } : {}),
      }),
    },
  };
  await render(output, opts.format, io);
  if (output.gate !== null && output.gate.failures.length > 0) {
    for (const f of output.gate.failures) io.stderr(`agentv calibrate: ${f}\n`);
    return 1;
  }
  return 0;
}

/** The `calibrate` command. */
export const calibrateCommand: Command = {
  ...commandInfo("calibrate"),
  usage: "agentv calibrate <results>... [--labels FILE] [--fail-below KAPPA] [--min-labels N] " +
    "[--repeat K] [--orders K] [--save] [--format text|markdown|json|html]",
  options: {
    labels: {
      type: "string",
      valueName: "FILE",
      description: "Labels file, one JSON label per line (default <root>/.agentv/labels.jsonl)",
    },
    evaluator: {
      type: "string",
      multiple: true,
      valueName: "NAME",
      description: "Only this evaluator (repeatable; the case verdict is then left out)",
    },
    "fail-below": {
      type: "string",
      valueName: "KAPPA",
      description: "Exit 1 when Cohen's κ of an evaluator (or the case verdict) is below KAPPA",
    },
    "min-labels": {
      type: "string",
      valueName: "N",
      description: "Exit 1 when an evaluator's figures rest on fewer than N labelled answers",
    },
    repeat: {
      type: "string",
      valueName: "K",
      description:
        "Ask the judge K times again on the stored answers: flip rate, score sd, unstable answers (no target call)",
    },
    orders: {
      type: "string",
      valueName: "K",
      description:
        "Ask rubric judges again with the rubric items in K orders: verdicts that change",
    },
    save: {
      type: "boolean",
      description:
        "Save the calibration to <root>/.agentv/calibration/<judge>.json for run and compare",
    },
    json: { type: "boolean", description: "Print JSON (same as --format json)" },
    format: {
      type: "string",
      valueName: "FORMAT",
      description: "Output: text (default), markdown, json or html (one self-contained page)",
    },
    seed: {
      type: "string",
      valueName: "N",
      description: `Seed of the bootstrap and of the rubric orders (default ${DEFAULT_SEED})`,
    },
    resamples: {
      type: "string",
      valueName: "N",
      description: "Bootstrap resamples of every interval (default 2000)",
    },
    "judge-target": {
      type: "string",
      valueName: "NAME",
      description:
        "With --repeat/--orders: ask this judge target (default: the one each result recorded)",
    },
    targets: {
      type: "string",
      valueName: "FILE",
      description: "With --repeat/--orders: targets file (default: discovered as agentv run does)",
    },
    workers: { type: "string", valueName: "N", description: "Judge calls at once (default 4)" },
    timeout: {
      type: "string",
      valueName: "SECONDS",
      description: "Timeout of each judge call attempt (default 120)",
    },
    "allow-run": {
      type: "boolean",
      description: "Allow what a judge target starts or sends (as agentv run --allow-run)",
    },
    ...CACHE_OPTIONS,
  },
  run,
};
