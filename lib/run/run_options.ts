/**
 * The argument of `runEval` (`run_eval.ts`) and what it returns: the run options
 * ({@link RunSpec}, declared in `lib/schema/run_spec.ts`, the `agentv run` flags) plus what only
 * a running process has: the environment, the working directory, the files or loaded sets, the
 * earlier run, the clock, `fetch`, the signal and the event listener.
 *
 * @module
 */
import type { RunSummary } from "../results/summary.ts";
import type { RunEvent } from "../results/events.ts";
import type { RunConfigSettings } from "../schema/config.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunSpec } from "../schema/run_spec.ts";
import type { CaseRun } from "./plan.ts";
import type { PriorRun } from "./resume.ts";
import type { RunPermission } from "./run_permission.ts";
import type { DatasetCommand, SourceHash } from "../dataset/dataset_commands.ts";

export type { RunSpec };

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

/**
 * The argument of {@link runEval}: the run options ({@link RunSpec}: `target`, `targetsFile`,
 * `judgeTarget`, `workers`, `timeoutMs`, `filter`, `shard`, `trials`, `trialsGate`, `budgetUsd`,
 * `cache`, `replay`, `cacheDir`, `out`, `threshold`, `dryRun`, `keepWorkspaces`, `root`, ...,
 * each named as the run record names it; see the table of `agentv run` options in docs/commands/run.md), each
 * settled by the one precedence rule (given, else the user's config narrowed by the datasets'
 * configs, else the default), plus what only a running process has.
 */
export interface RunEvalOptions extends Omit<RunSpec, "allowRun"> {
  /**
   * Eval files and folders to load (absolute, or relative to `cwd`); a folder is searched
   * recursively for eval files as `agentv run` searches it (sidecars, result files, dot folders
   * and `node_modules` are left out).
   */
  files?: string[];
  /** Eval files already loaded (run after `files`). */
  sets?: LoadedEvalSet[];
  /**
   * Load `files` in the sandbox `agentv run` uses (default `true`): a worker per dataset root that
   * may read the root and nothing else (no writes, network, processes or environment), which
   * needs `--unstable-worker-options` (or `"unstable": ["worker-options"]` in `deno.json`) and
   * the permissions it is given. `false` loads them in this process, with the loader's own checks
   * only.
   */
  sandbox?: boolean;
  /** Loader for `files`, instead of the sandbox (the caller's own: `sandbox` does not apply). */
  load?: EvalFileLoader;
  /** (case, target, trial) runs already done (a resumed run): left out of the run. */
  done?: (run: CaseRun) => boolean;
  /**
   * The run this one resumes into `out` (`--resume`) or reruns pairs of (`--rerun-failed`,
   * `--retry-errors`), from `readPriorRun` (`lib/run/resume.ts`): its record gives every
   * option not given here (a given one that would change the results is refused), its eval
   * files are checked before anything runs, and its pairs replace `done`.
   */
  prior?: PriorRun;
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
  /**
   * Keep every row in memory and return it (default true). The CLI turns this off: rows are in
   * the results file and the summary is built as they finish, so memory stays flat.
   */
  keepRows?: boolean;
  /** Folder holding the run's temporary workspaces (default the OS temp folder). */
  workspaceTempDir?: string;
}

/** What {@link runEval} returns. */
export interface RunEvalResult {
  /** Every row, in the order written (completion order); empty with `keepRows: false`. */
  rows: ResultRow[];
  /** The summary. */
  summary: RunSummary;
}
