/**
 * `agentv run <file|folder|glob>...` (alias `eval`): runs eval cases against their targets,
 * scores them, appends one JSON row per case to the results file and prints a summary. The exit
 * code is the CI gate: 0 passed, 1 failed (errors, `fail` verdicts, a missed `--threshold`, or
 * invalid cases skipped), 2 usage/config/dataset error before anything ran, 130 interrupted.
 *
 * This module only parses the arguments and finds the files: it starts the sandbox workers, then
 * imports the runner (`run_execute.ts`) while they start, so a run pays for its imports once.
 *
 * @module
 */
import { resolve } from "node:path";
import { discoverEvalFiles } from "../dataset/discover.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { parseReportSpecs, REPORT_OPTION, type ReportSpec } from "./report_specs.ts";
import { type LoadedEvalFile, Sandbox, sandboxRoot } from "../dataset/sandbox.ts";
import { loadYamlParser } from "../dataset/yaml_source.ts";
import { parseShardArg, type ShardArg } from "./shard_arg.ts";
import { CACHE_OPTIONS, type CacheArgs, parseCacheArgs } from "./cache_args.ts";
import {
  parsePriorRunArg,
  PRIOR_RUN_OPTIONS,
  type PriorRunArg,
  priorRunPaths,
} from "./run_prior.ts";
import type { TrialsGate } from "../results/trials.ts";
import type { SandboxMode } from "../schema/sandbox.ts";
import { suggest } from "../text/suggest.ts";

/** An eval file of the run, being loaded in the sandbox of its dataset root. */
export interface RunInput {
  /** Absolute path of the eval file. */
  file: string;
  /** The load, started as soon as the sandbox was (rejects with `EvalLoadError`). */
  loaded: Promise<LoadedEvalFile>;
}

/** Validated options of one `agentv run`. */
export interface RunArgs {
  paths: string[];
  target?: string;
  targets?: string;
  judgeTarget?: string;
  workers: number;
  timeoutMs: number;
  filter?: string;
  out?: string;
  dryRun: boolean;
  allowRun: boolean;
  keepWorkspaces: boolean;
  threshold?: number;
  root?: string;
  verbose: boolean;
  quiet: boolean;
  json: boolean;
  reports: ReportSpec[];
  /** `--shard i/n`: run only shard i (0-based) of n. */
  shard?: ShardArg;
  /** `--cache`, `--replay`, `--cache-dir` (the response cache). */
  cache: CacheArgs;
  /** `--budget-usd X`: spend cap of target and judge calls, in USD. */
  budgetUsd?: number;
  /** `--resume`, `--rerun-failed` or `--retry-errors` and its results file. */
  prior?: PriorRunArg;
  /** `--trials K`: every case runs K times (replacing `execution.trials`). */
  trials?: number;
  /** `--trials-gate`: how a case's trials make its verdict (default `mean`). */
  trialsGate?: TrialsGate;
  /** `--sandbox KIND`: the sandbox of every command started for a case. */
  sandbox?: SandboxMode;
}

function str(values: ParsedArgs["values"], name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

function number(
  values: ParsedArgs["values"],
  name: string,
  check: (n: number) => boolean,
  expected: string,
): number | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(
      `--${name} must be ${expected}, got '${raw}'`,
      `e.g. --${name} ${name === "workers" ? "8" : name === "timeout" ? "60" : "0.8"}`,
    );
  }
  return n;
}

/** Reads and checks the command line. */
async function parseRunArgs(args: ParsedArgs): Promise<RunArgs> {
  const v = args.values;
  const workers = number(
    v,
    "workers",
    (n) => Number.isInteger(n) && n >= 1 && n <= 1000,
    "an integer from 1 to 1000",
  ) ?? 4;
  // Below 1 ms a timeout rounds to 0, which means "no limit" further down: reject it here.
  const timeout = number(v, "timeout", (n) => n >= 0.001, "a number of seconds >= 0.001 (1 ms)") ??
    120;
  const threshold = number(v, "threshold", (n) => n >= 0 && n <= 1, "a score between 0 and 1");
  if (v.quiet === true && v.verbose === true) {
    throw new UsageError("--quiet and --verbose cannot be used together");
  }
  const parsed: RunArgs = {
    // No path: the eval files under the current folder (as `agentv init` lays them out).
    paths: args.positionals.length > 0 ? args.positionals : ["."],
    workers,
    timeoutMs: Math.round(timeout * 1000),
    dryRun: v["dry-run"] === true,
    allowRun: v["allow-run"] === true,
    keepWorkspaces: v["keep-workspaces"] === true,
    verbose: v.verbose === true,
    quiet: v.quiet === true,
    json: v.json === true,
    reports: parseReportSpecs(v.report),
    cache: parseCacheArgs(v),
  };
  const optional: [keyof RunArgs, string][] = [
    ["target", "target"],
    ["targets", "targets"],
    ["judgeTarget", "judge-target"],
    ["filter", "filter"],
    ["out", "out"],
    ["root", "root"],
  ];
  for (const [key, flag] of optional) {
    const value = str(v, flag);
    if (value !== undefined) {
      if (value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
      (parsed as unknown as Record<string, unknown>)[key] = value;
    }
  }
  // The glob matcher (and its regex engine) is loaded only when --filter is given.
  const filterProblem = parsed.filter === undefined
    ? undefined
    : await import("../text/glob.ts").then(async ({ globProblem, loadGlobs }) => {
      await loadGlobs([parsed.filter!]);
      return globProblem(parsed.filter!);
    });
  if (filterProblem !== undefined) throw new UsageError(`--filter: ${filterProblem}`);
  if (threshold !== undefined) parsed.threshold = threshold;
  const shard = str(v, "shard");
  if (shard !== undefined) parsed.shard = parseShardArg(shard);
  const budgetUsd = number(v, "budget-usd", (n) => n >= 0, "an amount of US dollars >= 0");
  if (budgetUsd !== undefined) parsed.budgetUsd = budgetUsd;
  // The trials parsers are loaded only when a trials flag is given.
  const [trials, gate] = [str(v, "trials"), str(v, "trials-gate")];
  if (trials !== undefined || gate !== undefined) {
    const { parseTrialsArg, parseTrialsGateArg } = await import("./trials_args.ts");
    if (trials !== undefined) parsed.trials = parseTrialsArg(trials);
    if (gate !== undefined) parsed.trialsGate = parseTrialsGateArg(gate);
  }
  const prior = parsePriorRunArg(v);
  if (prior !== undefined) parsed.prior = prior;
  const sandbox = str(v, "sandbox");
  if (sandbox !== undefined) parsed.sandbox = parseSandboxArg(sandbox);
  return parsed;
}

/** `--sandbox none|bubblewrap|docker`. */
function parseSandboxArg(value: string): SandboxMode {
  const kinds: readonly SandboxMode[] = ["none", "bubblewrap", "docker"];
  const found = kinds.find((k) => k === value.trim().toLowerCase());
  if (found !== undefined) return found;
  const guess = suggest(value.trim().toLowerCase(), kinds) ??
    (value.trim().toLowerCase() === "bwrap" ? "bubblewrap" : undefined);
  throw new UsageError(
    `--sandbox must be none, bubblewrap or docker, got '${value}'${
      guess !== undefined ? `; did you mean '${guess}'?` : ""
    }`,
    "e.g. --sandbox bubblewrap (agent targets use it by default when bwrap is installed)",
  );
}

/**
 * Runs `agentv run` with parsed arguments; resolves to the exit code.
 *
 * @example
 * ```ts ignore
 * import { runCommand } from "./run.ts";
 * const code = await runCommand.run({ values: { "dry-run": true }, positionals: ["evals/"] }, io);
 * ```
 */
async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const opts = await parseRunArgs(args);
  // No path with --resume / --rerun-failed / --retry-errors: the earlier run's eval files.
  if (opts.prior !== undefined && args.positionals.length === 0) {
    opts.paths = await priorRunPaths(opts.prior, io);
  }
  const discovered = await discoverEvalFiles(opts.paths, { cwd: io.cwd });
  if (discovered.problems.length > 0) {
    throw new UsageError(
      discovered.problems.join("\n"),
      "name eval files (.yaml, .yml, .jsonl), folders holding them, or globs",
    );
  }
  if (discovered.files.length === 0) {
    throw new UsageError(
      `No eval files found in ${opts.paths.map((p) => `'${p}'`).join(", ")}`,
      "eval files end in .yaml, .yml or .jsonl",
    );
  }
  const root = opts.root === undefined ? undefined : resolve(io.cwd, opts.root);
  const files = discovered.files.map((f) => resolve(io.cwd, f));
  // One sandbox worker per dataset root, started now: the workers import the loader on their
  // own threads while this thread imports the runner (`run_execute.ts`), and then load the files.
  const roots = new Map<string, { sandbox: Sandbox; loads: Promise<LoadedEvalFile>[] }>();
  try {
    const inputs: RunInput[] = [];
    for (const file of files) {
      const fileRoot = await sandboxRoot(file, { root });
      let group = roots.get(fileRoot);
      if (!group) roots.set(fileRoot, group = { sandbox: new Sandbox(fileRoot), loads: [] });
      const loaded = group.sandbox.load(file, { verbose: opts.verbose, signal: io.signal });
      inputs.push({ file, loaded });
      group.loads.push(loaded);
    }
    // Awaited (and their errors reported) by `executeRun`; a worker is closed once its files are
    // loaded, so its memory is not held during the run.
    for (const { sandbox, loads } of roots.values()) {
      Promise.allSettled(loads).then(() => sandbox.close());
    }
    // The targets file is parsed on this thread once the files are loaded: the YAML parser (a
    // CommonJS package, tens of ms to import) loads now, while the workers load the files.
    loadYamlParser().catch(() => {});
    const { executeRun } = await import("./run_execute.ts");
    return await executeRun(opts, inputs, io);
  } finally {
    for (const { sandbox } of roots.values()) sandbox.close();
  }
}

/** The `run` command (alias `eval`). */
export const runCommand: Command = {
  ...commandInfo("run"),
  usage: "agentv run [file|folder|glob]... [options] (default: the current folder)",
  options: {
    target: { type: "string", valueName: "NAME", description: "Use this target for every case" },
    targets: {
      type: "string",
      valueName: "FILE",
      description: "Targets file (default: nearest .agentv/targets.yaml)",
    },
    "judge-target": {
      type: "string",
      valueName: "NAME",
      description:
        "Judge target for llm_judge/rubric evaluators (default: the target's judge_target)",
    },
    workers: { type: "string", valueName: "N", description: "Cases run at once (default 4)" },
    timeout: {
      type: "string",
      valueName: "SECONDS",
      description: "Timeout of each target call attempt and evaluator (default 120)",
    },
    filter: { type: "string", valueName: "GLOB", description: "Run only cases whose id matches" },
    out: {
      type: "string",
      valueName: "FILE",
      description: "Results file (default .agentv/results/<dataset>-<timestamp>.jsonl)",
    },
    "dry-run": {
      type: "boolean",
      description: "Replace every target and judge by a mock; run no command or code judge",
    },
    "allow-run": {
      type: "boolean",
      description:
        "Allow what the dataset asks for this once: its commands, and env values sent to its hosts",
    },
    sandbox: {
      type: "string",
      valueName: "KIND",
      description:
        "Sandbox of every agent, cli target and script code judge: none, bubblewrap or docker",
    },
    "keep-workspaces": {
      type: "boolean",
      description:
        "Keep each case's workspace in .agentv/workspaces/<run_id>/<case> (default: deleted)",
    },
    threshold: {
      type: "string",
      valueName: "X",
      description: "Pass when there is no error and the mean score >= X (instead of no fail)",
    },
    root: { type: "string", valueName: "DIR", description: "Dataset root (default: discovered)" },
    "budget-usd": {
      type: "string",
      valueName: "X",
      description:
        "Stop starting target and judge calls before their cost could pass X US dollars (exit 1)",
    },
    shard: {
      type: "string",
      valueName: "I/N",
      description:
        "Run only shard I of N (I from 0, e.g. $JOB_COMPLETION_INDEX/4); join them with agentv merge",
    },
    trials: {
      type: "string",
      valueName: "K",
      description: "Run every case K times (default: its execution.trials, else 1)",
    },
    "trials-gate": {
      type: "string",
      valueName: "GATE",
      description:
        "How trials make a case's verdict: mean (default), any, all or rate:X (pass rate >= X)",
    },
    verbose: { type: "boolean", short: "v", description: "Show targets, retries and loading" },
    quiet: {
      type: "boolean",
      short: "q",
      description: "Print only the summary's counts (no progress, no list of failed cases)",
    },
    json: { type: "boolean", description: "Print the summary as JSON on stdout" },
    report: REPORT_OPTION,
    ...PRIOR_RUN_OPTIONS,
    ...CACHE_OPTIONS,
  },
  run,
};
