// Generated from lib/schema/run_spec.ts by tools/generate.ts: do not edit.
/**
 * The types of the run options declared in `run_spec.ts` (which checks them against its
 * schemas; `tests/project/generated_files_process_test.ts` fails while this file is stale).
 *
 * @module
 */
import type { TrialsGate } from "./trials.ts";

/**
 * The options of a run: `runEval`'s argument and the `agentv run` flags that steer the run.
 * Each may be left out: the one precedence rule (`settleRunSpec`) gives it its value.
 */
export interface RunSpec {
  /** Use this target for every case; a,b,c runs every case against each of them (`--target NAME[,NAME...]`). */
  target?: string | string[];
  /** Targets file (default: nearest .agentv/targets.yaml) (`--targets FILE`). */
  targetsFile?: string;
  /** Judge target for llm_judge/rubric evaluators (default: the target's judge_target) (`--judge-target NAME`). */
  judgeTarget?: string;
  /** Cases run at once (default 4) (`--workers N`). */
  workers?: number;
  /** Timeout of each target call attempt and evaluator (default 120) (`--timeout SECONDS`). */
  timeoutMs?: number;
  /** Run only cases whose id matches (`--filter GLOB`). */
  filter?: string;
  /** Results file (default: the project's .agentv/results/<run>-<timestamp>.jsonl) (`--out FILE`). */
  out?: string;
  /** Check the wiring, not the answers: every target and judge is a mock, no command or code judge runs; exit 0 unless a case could not be wired (`--dry-run`). */
  dryRun?: boolean;
  /** Allow what the dataset asks for this once: its commands, and env values sent to its hosts (`--allow-run`). */
  allowRun?: boolean;
  /** Sandbox of every agent, cli target and script code judge: none, bubblewrap or docker (`--sandbox KIND`). */
  sandboxMode?: "none" | "bubblewrap" | "docker";
  /** Keep each case's workspace in .agentv/workspaces/<run_id>/<case> (default: deleted) (`--keep-workspaces`). */
  keepWorkspaces?: boolean;
  /** Pass when there is no error and the mean score >= X (instead of no fail) (`--threshold X`). */
  threshold?: number;
  /** Dataset root (default: discovered) (`--root DIR`). */
  root?: string;
  /** Stop starting target and judge calls before their cost could pass X US dollars (exit 1) (`--budget-usd X`). */
  budgetUsd?: number;
  /** Run only shard I of N (I from 0, e.g. $JOB_COMPLETION_INDEX/4); join them with agentv merge (`--shard I/N`). */
  shard?: { index: number; count: number };
  /** Run at most N cases (after --filter and --shard, in plan order; with targets, trials) (`--max-cases N`). */
  maxCases?: number;
  /** Run every case K times (default: its execution.trials, else 1) (`--trials K`). */
  trials?: number;
  /** How trials make a case's verdict: mean (default), any, all or rate:X (pass rate >= X) (`--trials-gate GATE`). */
  trialsGate?: TrialsGate;
  /** Show targets, retries and loading (`-v, --verbose`). */
  verbose?: boolean;
  /** Response cache: off (default; or cache: in your config, which a dataset's config can only restrict), read, write or readwrite (.agentv/cache/) (`--cache MODE`). */
  cache?: "off" | "read" | "write" | "readwrite";
  /** Answer every target and judge call from the cache, offline; a miss is an error row saying why (`--replay`). */
  replay?: boolean;
  /** Cache folder (default: the config's cache_dir, else <root>/.agentv/cache) (`--cache-dir DIR`). */
  cacheDir?: string;
}

/** Every option of `agentv run`: {@link RunSpec} and those only the command reads. */
export interface RunCommandValues extends RunSpec {
  /** Print only the summary's counts (no progress, no list of failed cases) (`-q, --quiet`). */
  quiet?: boolean;
  /** Print the summary as JSON on stdout (`--json`). */
  json?: boolean;
  /** Also write a junit, markdown, html or json report (default FILE beside the results: <results>.junit.xml, .md, .html, .report.json) (`--report FORMAT[:FILE]`). */
  report?: { format: "junit" | "markdown" | "html" | "json"; file?: string }[];
  /** Continue an interrupted or crashed run in its results file: run only the cases not finished (`--resume RESULTS`). */
  resume?: string;
  /** Run again the failed and error cases of that run, into a new results file (`--rerun-failed RESULTS`). */
  rerunFailed?: string;
  /** Run again the error cases of that run, into a new results file (`--retry-errors RESULTS`). */
  retryErrors?: string;
}

/** The run record's `options`: the recorded options (no secrets, no environment). */
export interface RunOptionsRecord {
  /** `--target`. */
  target: string | string[] | null;
  /** `--targets`. */
  targets_file: string | null;
  /** `--judge-target`. */
  judge_target: string | null;
  /** `--workers`. */
  workers: number;
  /** `--timeout`. */
  timeout_ms: number;
  /** `--filter`. */
  filter: string | null;
  /** `--dry-run`. */
  dry_run: boolean;
  /** `--sandbox`; absent in older records. */
  sandbox?: "none" | "bubblewrap" | "docker" | null;
  /** `--threshold`. */
  threshold: number | null;
  /** `--root`. */
  root: string | null;
  /** `--budget-usd`; absent in older records. */
  budget_usd?: number | null;
  /** `--shard`; absent in older records. */
  shard?: { index: number; count: number } | null;
  /** `--max-cases`; absent in older records. */
  max_cases?: number | null;
  /** `--trials`; absent in older records. */
  trials?: number | null;
  /** `--trials-gate`; absent in older records. */
  trials_gate?: string;
  /** `--cache`; absent in older records. */
  cache?: "read" | "write" | "readwrite";
  /** `--replay`; absent in older records. */
  replay?: boolean;
}
