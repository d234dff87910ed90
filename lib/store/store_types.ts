/**
 * The shapes the history store answers with: the run list's filter, a run with its groups and
 * record, a case's runs, a series, an indexed file and the values of the viewer's filters.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";
import type { RunRecord } from "../schema/run_record.ts";
import type { RunEntry, RunGroup } from "./stored_run.ts";

/** What the run list is narrowed to (every field optional). */
export interface RunFilter {
  /** Runs with rows of this dataset. */
  dataset?: string;
  /** Runs with rows of this target. */
  target?: string;
  /** Runs with this status (`finished`, `interrupted`, `failed`, `running`, `unknown`). */
  status?: string;
  /** Runs started at or after this ISO date or time. */
  from?: string;
  /** Runs started before the end of this ISO date (or before this time). */
  to?: string;
  /** At most this many runs, newest first (default 5,000). */
  limit?: number;
}

/** A run with its groups and record. */
export interface RunDetail {
  /** The run's list entry. */
  entry: RunEntry;
  /** One group per dataset and target. */
  groups: RunGroup[];
  /** Its run record, when it has one. */
  record: RunRecord | null;
}

/** One run of a case (all its trials there). */
export interface CaseRunHistory {
  /** The run. */
  run_id: string;
  /** When the run started. */
  started_at: string;
  /** The case's rows in that run (one per trial). */
  rows: ResultRow[];
}

/** A series: one dataset on one target, and how many runs it has. */
export interface SeriesKey {
  /** The dataset. */
  dataset: string;
  /** The target. */
  target: string;
  /** Runs in the series. */
  runs: number;
  /** When its latest run started. */
  latest: string;
}

/** An indexed results file (see `index_results.ts`). */
export interface FileEntry {
  /** Absolute path. */
  path: string;
  /** Size in bytes when read. */
  size: number;
  /** Modification time in ms when read (null when the system reports none). */
  mtime_ms: number | null;
  /** SHA-256 of its first 64 KiB. */
  head_sha256: string;
  /** Size of its run record when read (null without one). */
  record_size: number | null;
  /** Modification time of its run record when read. */
  record_mtime_ms: number | null;
  /** The run it holds (null when it held no result rows). */
  run_id: string | null;
}

/** Values that select lists, for the viewer's filters. */
export interface StoreFacets {
  /** Every dataset. */
  datasets: string[];
  /** Every target. */
  targets: string[];
  /** Every run status. */
  statuses: string[];
}
