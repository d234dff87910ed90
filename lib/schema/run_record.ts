/**
 * The run record `<results>.run.json` written beside each results file, and the end-of-run
 * summary it holds. The record is written when the run starts (`status: "running"`, no end time)
 * and rewritten when it ends (`finished`, `interrupted` or `failed`), so a crashed run reads as
 * `running` with `ended_at: null`.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import { type RunSummary, RunSummarySchema } from "./run_summary.ts";
import { type RunOptionsRecord, RunOptionsRecordSchema } from "./run_spec_record.ts";

/** Version of the run record format (`schema_version`). */
export const RUN_RECORD_VERSION = 1;

/** The recorded options of a run and those that change its results (declared in `run_spec.ts`). */
export {
  RESULT_OPTIONS,
  type RunOptionsRecord,
  RunOptionsRecordSchema,
} from "./run_spec_record.ts";

/** The end-of-run summary and its parts (defined in `run_summary.ts`). */
export {
  type BudgetSummary,
  BudgetSummarySchema,
  type CacheSummary,
  type EvaluatorMean,
  type HistogramBin,
  type IntegrityFlag,
  type IntegritySummary,
  type RunSummary,
  RunSummarySchema,
  type ScoreStats,
  type SummaryError,
  type SummaryFailure,
  type TargetSummary,
} from "./run_summary.ts";

/** A target the run used (as defined in its targets file; secrets are never recorded). */
export interface RunTargetRecord {
  /** Target name. */
  name: string;
  /** Provider kind (`mock` in a dry run). */
  provider: string;
  /** Model or deployment as written in the targets file (a `${{ VAR }}` stays a reference). */
  model: string | null;
  /** Endpoint or base URL as written in the targets file, credentials redacted. */
  endpoint: string | null;
  /** The target that judges this one's answers, or `null`. */
  judge_target: string | null;
  /** The targets file it came from, or `null`. */
  targets_file: string | null;
  /**
   * Its definition as the targets file gives it, `extends:` resolved (a sweep's targets differ
   * here), secrets replaced by `***`; absent in records written before it existed.
   */
  settings?: Record<string, unknown> | null;
}

/** A target the run used. */
export const RunTargetRecordSchema = z.object({
  name: z.string(),
  provider: z.string(),
  model: z.string().nullable(),
  endpoint: z.string().nullable(),
  judge_target: z.string().nullable(),
  targets_file: z.string().nullable(),
  settings: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** An eval file of the run and the SHA-256 of its content when the run started. */
export interface DatasetFileRecord {
  /** Absolute path of the eval file. */
  path: string;
  /** Lower-case hex SHA-256 of the file's bytes; `null` when it could not be read (cases given in memory). */
  sha256: string | null;
}

/** An eval file of the run and its content hash. */
export const DatasetFileRecordSchema = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
});

/** How a run ended (or `running`: still going, or crashed). */
export type RunStatus = "running" | "finished" | "interrupted" | "failed";

/** One `--resume` of a run: when it started and ended, and what it found in the results file. */
export interface ResumedSession {
  /** ISO time the resume started. */
  started_at: string;
  /** ISO time it ended; `null` while running (or after a crash). */
  ended_at: string | null;
  /** Rows of the file kept as finished when it started. */
  kept_rows: number;
  /** Unfinished rows removed from the file to run again (`interrupted` errors, `skipped`). */
  dropped_rows: number;
  /** Whether a torn last line (a run killed mid-write) was cut off. */
  torn_line: boolean;
}

/** One `--resume` of a run. */
export const ResumedSessionSchema = z.object({
  started_at: z.string(),
  ended_at: z.string().nullable(),
  kept_rows: z.number(),
  dropped_rows: z.number(),
  torn_line: z.boolean(),
});

/** `<results>.run.json`: what ran, with what, and how it ended. */
export interface RunRecord {
  /** Format version ({@link RUN_RECORD_VERSION}). */
  schema_version: 1;
  /** Id of the run; every row of the results file has the same `run_id`. */
  run_id: string;
  /** Version of agentv that ran. */
  agentv_version: string;
  /** `running` until the run ends; a crashed run stays `running`. */
  status: RunStatus;
  /** ISO time the run started. */
  started_at: string;
  /** ISO time the run ended; `null` while running (or after a crash). */
  ended_at: string | null;
  /** The results file (absolute path). */
  results_path: string;
  /** The options that affect results. */
  options: RunOptionsRecord;
  /** The targets used, in the order first resolved. */
  targets: RunTargetRecord[];
  /** The eval files, with content hashes. */
  datasets: DatasetFileRecord[];
  /** The summary, once the run ended (partial when interrupted or failed). */
  summary: RunSummary | null;
  /** Why the run failed (`status: "failed"`), else `null`. */
  error: string | null;
  /** Each `--resume` of this run, in order; absent or `null` when it was never resumed. */
  resumed?: ResumedSession[] | null;
  /** The run this one reran cases of (`--rerun-failed`, `--retry-errors`), else absent or `null`. */
  parent_run_id?: string | null;
  /** The results file of that parent run (absolute path), else absent or `null`. */
  parent_results_path?: string | null;
  /** Which rows of the parent were rerun: `failed` (fail verdicts and errors) or `errors`. */
  rerun?: "failed" | "errors" | null;
  /** A run made by `agentv merge`: the shard runs it joins, in shard order; else absent or `null`. */
  merged_from?: MergedShardRecord[] | null;
}

/** A shard run joined by `agentv merge` (see {@link RunRecord.merged_from}). */
export interface MergedShardRecord {
  /** The shard run's id (its rows keep it as their `run_id`). */
  run_id: string;
  /** The shard's results file as given to `agentv merge` (absolute). */
  results_path: string;
  /** The shard (`--shard i/n`), or `null` for a run that was not sharded. */
  shard: { index: number; count: number } | null;
  /** How the shard run ended. */
  status: "running" | "finished" | "interrupted" | "failed";
  /** Rows read from the shard's results file. */
  rows: number;
}

/** A shard run joined by `agentv merge`. */
export const MergedShardRecordSchema = z.object({
  run_id: z.string(),
  results_path: z.string(),
  shard: z.object({ index: z.number(), count: z.number() }).nullable(),
  status: z.enum(["running", "finished", "interrupted", "failed"]),
  rows: z.number(),
});

/** `<results>.run.json`. */
export const RunRecordSchema = z.object({
  schema_version: z.literal(RUN_RECORD_VERSION),
  run_id: z.string().min(1),
  agentv_version: z.string(),
  status: z.enum(["running", "finished", "interrupted", "failed"]),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  results_path: z.string(),
  options: RunOptionsRecordSchema,
  targets: z.array(RunTargetRecordSchema),
  datasets: z.array(DatasetFileRecordSchema),
  summary: RunSummarySchema.nullable(),
  error: z.string().nullable(),
  resumed: z.array(ResumedSessionSchema).nullable().optional(),
  parent_run_id: z.string().nullable().optional(),
  parent_results_path: z.string().nullable().optional(),
  rerun: z.enum(["failed", "errors"]).nullable().optional(),
  merged_from: z.array(MergedShardRecordSchema).nullable().optional(),
});

/** The `$id` of the published run record schema. */
export const RUN_RECORD_SCHEMA_ID = "https://agentv.dev/schema/run.schema.json";

/**
 * The JSON Schema (draft 2020-12) of `<results>.run.json` (the committed
 * `schema/run.schema.json` is kept equal to it by a test).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runRecordJsonSchema } from "./run_record.ts";
 * const schema = runRecordJsonSchema() as { title: string };
 * assert.equal(schema.title, "agentv run record");
 * ```
 */
export function runRecordJsonSchema(): object {
  const { $schema, ...rest } = z.toJSONSchema(RunRecordSchema, { io: "output" }) as Record<
    string,
    unknown
  >;
  return {
    $schema,
    $id: RUN_RECORD_SCHEMA_ID,
    title: "agentv run record",
    description:
      "`<results>.run.json`: the run id, agentv version, times, options, targets, dataset hashes, status and summary of one run.",
    ...rest,
  };
}

/**
 * Checks a parsed `<results>.run.json`: the record, or what is wrong with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRunRecord } from "./run_record.ts";
 * assert.equal(parseRunRecord({ schema_version: 1 }).ok, false);
 * ```
 */
export function parseRunRecord(
  value: unknown,
): { ok: true; record: RunRecord } | { ok: false; error: string } {
  const checked = RunRecordSchema.safeParse(value);
  if (checked.success) return { ok: true, record: checked.data };
  const issue = checked.error.issues[0];
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return { ok: false, error: `${where}${issue.message}` };
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<RunTargetRecord, z.output<typeof RunTargetRecordSchema>>>,
  Assert<Same<DatasetFileRecord, z.output<typeof DatasetFileRecordSchema>>>,
  Assert<Same<ResumedSession, z.output<typeof ResumedSessionSchema>>>,
  Assert<Same<RunRecord, z.output<typeof RunRecordSchema>>>,
  Assert<Same<MergedShardRecord, z.output<typeof MergedShardRecordSchema>>>,
];
