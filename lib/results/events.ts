/**
 * Progress events emitted by `runEval` through its `onEvent` option. The console renderer consumes them; library users may too.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";
import type { RunOptionsRecord } from "../schema/run_record.ts";
import type { RunSummary } from "./summary.ts";

/** The run is about to start its first case. */
export interface RunStartedEvent {
  /** Discriminator. */
  type: "run_started";
  /** Cases that will run. */
  total: number;
  /** Eval files in the run. */
  files: string[];
  /** Size of the worker pool. */
  workers: number;
  /** Results file, when one is written. */
  results_path?: string;
  /** Whether targets are mocks. */
  dry_run: boolean;
  /** Id of the run (every row's `run_id`). */
  run_id?: string;
  /** ISO time the run started. */
  started_at?: string;
  /** The options that affect results (recorded in `<results>.run.json`). */
  options?: RunOptionsRecord;
}

/** A target was resolved for the first time (shown with `--verbose`). */
export interface TargetResolvedEvent {
  /** Discriminator. */
  type: "target_resolved";
  /** Target name. */
  target: string;
  /** Provider kind (`mock` in a dry run). */
  provider: string;
  /** Targets file it came from, if any. */
  targets_file?: string;
  /** Per-target concurrency cap, if any. */
  workers?: number;
  /** The judge target, when one is used. */
  judge_target?: string;
  /** Model or deployment as written in the targets file, when set. */
  model?: string;
  /** Endpoint or base URL as written in the targets file, when set. */
  endpoint?: string;
  /**
   * What the target said when it was made, e.g. that its agent runs without a sandbox because
   * `bwrap` is missing (always shown).
   */
  warnings?: string[];
  /** Its definition, `extends:` resolved, secrets redacted (see `RunTargetRecord.settings`). */
  settings?: Record<string, unknown>;
}

/** A case started (its target call is about to be made). */
export interface CaseStartedEvent {
  /** Discriminator. */
  type: "case_started";
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Target name. */
  target: string;
  /** 0-based position of the case in the run. */
  index: number;
  /** Cases in the run. */
  total: number;
}

/** A target call failed and will be retried. */
export interface RetryEvent {
  /** Discriminator. */
  type: "retry";
  /** Case id. */
  eval_id: string;
  /** Target name. */
  target: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  /** Delay before the next attempt, in ms. */
  delay_ms: number;
  /** Why it failed (secrets redacted). */
  reason: string;
}

/**
 * A cache entry exists for a call but was not served: edited by hand, forged, signed with
 * another key, malformed (shown with `--verbose`; counted in the summary's `cache.rejected`).
 */
export interface CacheRejectedEvent {
  /** Discriminator. */
  type: "cache_rejected";
  /** `target` (the evaluated target's call) or `judge`. */
  role: "target" | "judge";
  /** Name of the target called. */
  target: string;
  /** Dataset of the case. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Trial of the case. */
  trial: number;
  /** The entry file. */
  path: string;
  /** Why it was not served. */
  reason: string;
}

/** A case finished and its row was written. */
export interface CaseFinishedEvent {
  /** Discriminator. */
  type: "case_finished";
  /** The row as written to the results file. */
  row: ResultRow;
  /** Rows finished so far. */
  done: number;
  /** Cases in the run. */
  total: number;
}

/** The run was interrupted (first Ctrl-C): scheduling stopped, in-flight calls are aborted. */
export interface InterruptedEvent {
  /** Discriminator. */
  type: "interrupted";
  /** Cases that were running. */
  in_flight: number;
  /** Cases that will not start. */
  not_started: number;
}

/** The run finished (normally or after an interruption); the results file is closed. */
export interface RunFinishedEvent {
  /** Discriminator. */
  type: "run_finished";
  /** The summary. */
  summary: RunSummary;
}

/** Any progress event. */
export type RunEvent =
  | RunStartedEvent
  | TargetResolvedEvent
  | CaseStartedEvent
  | RetryEvent
  | CacheRejectedEvent
  | CaseFinishedEvent
  | InterruptedEvent
  | RunFinishedEvent;
