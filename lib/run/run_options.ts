/**
 * The options of `runEval` (`run_eval.ts`) and what it returns: the files to run, how cases are
 * selected (filter, shard, trials, a resumed run), targets and judges, concurrency and timeouts,
 * the cache and the budget, and where results go.
 *
 * @module
 */
import type { TrialsGate } from "../results/trials.ts";
import type { RunSummary } from "../results/summary.ts";
import type { RunEvent } from "../results/events.ts";
import type { CacheMode, RunConfigSettings } from "../schema/config.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import type { Shard } from "./plan.ts";
import type { PriorRun } from "./resume.ts";
import type { RunPermission } from "./run_permission.ts";
import type { DatasetCommand, SourceHash } from "../dataset/dataset_commands.ts";
import type { SandboxMode } from "../schema/sandbox.ts";

/** An eval file already loaded (the shape of `loadEvalFile` / `sandboxedLoad`). */
export interface LoadedEvalSet {
  /** Absolute path of the eval file. */
  file: string;
  /** Dataset root. */
  root: string;
  /** Folder of the eval file. */
  evalDir: string;
  /** Valid cases. */
  cases: EvalCase[];
  /** Loader diagnostics (error ones name cases that were skipped). */
  diagnostics?: Diagnostic[];
  /** Run settings of the `.agentv/config.yaml` that applies to the file (`cache`, `budget_usd`). */
  config?: RunConfigSettings;
  /**
   * The eval file (and its sidecar) with the SHA-256 of the text the loader parsed: what
   * `agentv trust` compares. Absent (a set built by hand): it cannot be trusted by hash.
   */
  sources?: SourceHash[];
  /** Where the loader found each process the file's evaluators start. */
  commands?: DatasetCommand[];
}

/** Loads one eval file (default `loadEvalFile`; the CLI passes its sandboxed loader). */
export type EvalFileLoader = (
  path: string,
  options: { root?: string; verbose?: boolean },
) => Promise<LoadedEvalSet>;

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  /**
   * Eval files and folders to load (absolute, or relative to `cwd`); a folder is searched
   * recursively for eval files as `agentv run` searches it (sidecars, result files, dot folders
   * and `node_modules` are left out).
   */
  files?: string[];
  /** Eval files already loaded (run after `files`). */
  sets?: LoadedEvalSet[];
  /** Dataset root override for loading and target discovery (default: found per file). */
  root?: string;
  /** Loader for `files` (default `loadEvalFile`). */
  load?: EvalFileLoader;
  /** Target name used for every case instead of its `execution.target`. */
  targetOverride?: string;
  /** Targets file used for every eval file instead of the discovered `.agentv/targets.yaml`. */
  targetsFile?: string;
  /** Judge target for every case instead of the evaluated target's `judge_target`. */
  judgeTarget?: string;
  /** Cases run at once across all files (default 4). */
  workers?: number;
  /** Timeout of each target call attempt and of each evaluator, in ms (default 120000). */
  timeoutMs?: number;
  /** Glob on case ids (`*`, `**`, `?`, `{a,b}`, `[...]`); other cases are not run. */
  filter?: string;
  /** Run only this shard of the selected cases (`--shard i/n`; see `lib/run/plan.ts`). */
  shard?: Shard;
  /** Trials of every case, replacing each case's `execution.trials` (`--trials K`). */
  trials?: number;
  /** How a case's trials make its verdict in the summary (`--trials-gate`; default `mean`). */
  trialsGate?: TrialsGate;
  /**
   * Spend cap in USD of target and judge calls (`--budget-usd`; default the smallest
   * `budget_usd` of the files' `.agentv/config.yaml`, else none); see `lib/run/budget.ts`.
   */
  budgetUsd?: number;
  /**
   * Response cache mode (`--cache`). Default: the `cache:` of the user's config
   * (`$XDG_CONFIG_HOME/agentv/config.yaml`, else `$HOME/.config/agentv/config.yaml`, found
   * through `env`), else `off`, narrowed by the `cache:` of the files' `.agentv/config.yaml` (a
   * dataset can only restrict the cache). Entries are signed with `AGENTV_CACHE_KEY` from `env`,
   * else the user's key file beside that config. See `lib/run/run_cache.ts`.
   */
  cache?: CacheMode;
  /** Answer every call from the cache; a miss is an error row saying why (`--replay`). */
  replay?: boolean;
  /** Cache folder (`--cache-dir`; default the config's `cache_dir`, else `<root>/.agentv/cache`). */
  cacheDir?: string;
  /** Pairs already done (a resumed run): left out of the run. */
  done?: (pair: { dataset: string; eval_id: string; trial: number }) => boolean;
  /**
   * The run this one resumes into `out` (`--resume`) or reruns pairs of (`--rerun-failed`,
   * `--retry-errors`), from `readPriorRun` (`lib/run/resume.ts`): checked before anything
   * runs; its pairs replace `done`.
   */
  prior?: PriorRun;
  /**
   * Results file (JSONL, truncated first; appended to when `prior` resumes it), with its run
   * record `<out>.run.json` beside it; no file is written when absent.
   */
  out?: string;
  /** The CI gate's `--threshold`: not applied here, recorded in the run record's options. */
  threshold?: number;
  /**
   * Replace every target and the judge by mocks (no network, no process); code judges are
   * skipped (`status: "skipped"` results that do not count). Rows get `dry_run: true`.
   */
  dryRun?: boolean;
  /**
   * Whether what a dataset root asks consent for may happen: the commands it defines (script
   * code judges and code aggregators, and `cli` targets, command healthchecks and agent targets
   * from a targets file inside the root) and the `${{ VAR }}` values its targets send to a host
   * other than their provider's default (module judges and a targets file outside the root need
   * nothing). Default `false`: a run that needs one throws {@link UntrustedDatasetError} listing
   * them, before anything runs. `true` allows them all; a function decides per root (the CLI
   * looks the root up in its trust store). Either way the run starts and sends only what was
   * listed.
   */
  allowRun?: boolean | RunPermission;
  /** Environment for `${{ VAR }}` (the process env; `.env` files are read below it). */
  env: Record<string, string>;
  /** Base for relative paths. */
  cwd: string;
  /** Interrupts the run (Ctrl-C). */
  signal?: AbortSignal;
  /** Receives progress events. */
  onEvent?: (event: RunEvent) => void;
  /** `fetch` used by HTTP targets (default the global one). */
  fetch?: typeof fetch;
  /** Clock in ms used for every duration and timestamp (default `Date.now`). */
  now?: () => number;
  /** Loader verbosity (e.g. a missing JSONL sidecar warning). */
  verbose?: boolean;
  /**
   * Keep every row in memory and return it (default true). The CLI turns this off: rows are in
   * the results file and the summary is built as they finish, so memory stays flat.
   */
  keepRows?: boolean;
  /**
   * Keep each case's workspace under `<root>/.agentv/workspaces/<run_id>/<case>` instead of
   * deleting it after the case (`--keep-workspaces`; default false).
   */
  keepWorkspaces?: boolean;
  /** Folder holding the run's temporary workspaces (default the OS temp folder). */
  workspaceTempDir?: string;
  /**
   * The sandbox of every command the run starts for a case (`--sandbox`): replaces the `sandbox`
   * setting of agent and `cli` targets, script code judges and code aggregators. Default: each
   * one's own setting (agent targets `bubblewrap` when `bwrap` is installed, the rest `none`).
   */
  sandbox?: SandboxMode;
}

/** What {@link runEval} returns. */
export interface RunEvalResult {
  /** Every row, in the order written (completion order); empty with `keepRows: false`. */
  rows: ResultRow[];
  /** The summary. */
  summary: RunSummary;
}
