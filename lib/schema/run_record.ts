/**
 * The run record `<results>.run.json` written beside each results file, and the end-of-run
 * summary it holds. The record is written when the run starts (`status: "running"`, no end time)
 * and rewritten when it ends (`finished`, `interrupted` or `failed`), so a crashed run reads as
 * `running` with `ended_at: null`.
 *
 * @module
 */
import { z } from "zod";
import { type Diagnostic, DiagnosticSchema } from "./eval_case.ts";
import type { Assert, Same } from "./_type_check.ts";

/** Version of the run record format (`schema_version`). */
export const RUN_RECORD_VERSION = 1;

/** One error row, as listed in the summary. */
export interface SummaryError {
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Target name. */
  target: string;
  /** Why the case failed to run or be scored. */
  error: string;
  /** Target call attempts made. */
  attempts: number;
}

/** One scored row with a `fail` verdict, as listed in the summary. */
export interface SummaryFailure {
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Target name. */
  target: string;
  /** Case score. */
  score: number;
  /** The row's first miss (else its evaluators' first miss or error), when there is one. */
  first_miss?: string;
}

/** One histogram bin. */
export interface HistogramBin {
  /** Label such as `0.0-0.2`. */
  range: string;
  /** Inclusive lower bound. */
  start: number;
  /** Upper bound (exclusive except for the last bin). */
  end: number;
  /** Scored rows in the bin. */
  count: number;
}

/** Mean score of one evaluator (by name and type) across the rows it ran on. */
export interface EvaluatorMean {
  /** Evaluator name. */
  name: string;
  /** Evaluator type. */
  type: string;
  /** Mean score over the results with status `ok`; `null` when none scored. */
  mean: number | null;
  /** Results with status `ok`. */
  count: number;
  /** Results with status `error`. */
  errors: number;
}

/** Score statistics; every field is `null` when nothing was scored. */
export interface ScoreStats {
  /** Arithmetic mean. */
  mean: number | null;
  /** Median (mean of the two middle values for an even count). */
  median: number | null;
  /** Lowest score. */
  min: number | null;
  /** Highest score. */
  max: number | null;
  /** Sample standard deviation (n - 1); `null` below two scores. */
  stdev: number | null;
}

/** The end-of-run summary (also the `--json` output of `agentv run`). */
export interface RunSummary {
  /** Rows written (cases that ran, including errors and interrupted ones). */
  total: number;
  /** Rows with status `ok` (scored). */
  scored: number;
  /** Rows with status `error`, each with its reason. */
  errors: SummaryError[];
  /** Scored rows with a `fail` verdict, in completion order, each with its first miss. */
  failed: SummaryFailure[];
  /** Cases the loader rejected (skipped, never run): their diagnostics. */
  invalid: Diagnostic[];
  /** Cases selected but never started because the run was interrupted. */
  not_started: number;
  /** Whether the run was interrupted (Ctrl-C). */
  interrupted: boolean;
  /** Whether targets were replaced by mocks (`--dry-run`). */
  dry_run: boolean;
  /** Score statistics over scored rows. */
  scores: ScoreStats;
  /** Verdict counts over scored rows. */
  verdicts: { pass: number; borderline: number; fail: number };
  /** Five bins from 0.0 to 1.0 over scored rows. */
  histogram: HistogramBin[];
  /** Up to five slowest rows by `duration_ms`, slowest first. */
  slowest: { eval_id: string; dataset: string; duration_ms: number }[];
  /** Mean score per evaluator (name + type), in first-seen order. */
  evaluators: EvaluatorMean[];
  /** Sum of the evaluated targets' token usage over rows that reported it. */
  token_usage?: { input: number; output: number };
  /** Sum of the evaluated targets' cost in USD (`trace_summary.cost_usd`) where reported. */
  cost_usd?: number;
  /** Sum of the judges' token usage over every evaluator result that reported it. */
  judge_token_usage?: { input: number; output: number };
  /** Sum of the judges' cost in USD over every evaluator result that reported it. */
  judge_cost_usd?: number;
  /** Path of the results file, when one was written. */
  results_path?: string;
  /** Wall time of the run in ms. */
  duration_ms: number;
}

const TokenTotalsSchema = z.object({ input: z.number(), output: z.number() });

/** The end-of-run summary. */
export const RunSummarySchema = z.object({
  total: z.number(),
  scored: z.number(),
  errors: z.array(z.object({
    eval_id: z.string(),
    dataset: z.string(),
    target: z.string(),
    error: z.string(),
    attempts: z.number(),
  })),
  failed: z.array(z.object({
    eval_id: z.string(),
    dataset: z.string(),
    target: z.string(),
    score: z.number(),
    first_miss: z.string().optional(),
  })),
  invalid: z.array(DiagnosticSchema),
  not_started: z.number(),
  interrupted: z.boolean(),
  dry_run: z.boolean(),
  scores: z.object({
    mean: z.number().nullable(),
    median: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    stdev: z.number().nullable(),
  }),
  verdicts: z.object({ pass: z.number(), borderline: z.number(), fail: z.number() }),
  histogram: z.array(z.object({
    range: z.string(),
    start: z.number(),
    end: z.number(),
    count: z.number(),
  })),
  slowest: z.array(z.object({
    eval_id: z.string(),
    dataset: z.string(),
    duration_ms: z.number(),
  })),
  evaluators: z.array(z.object({
    name: z.string(),
    type: z.string(),
    mean: z.number().nullable(),
    count: z.number(),
    errors: z.number(),
  })),
  token_usage: TokenTotalsSchema.optional(),
  cost_usd: z.number().optional(),
  judge_token_usage: TokenTotalsSchema.optional(),
  judge_cost_usd: z.number().optional(),
  results_path: z.string().optional(),
  duration_ms: z.number(),
});

/** The options of a run that affect its results (no secrets, no environment). */
export interface RunOptionsRecord {
  /** `--target`: the target used for every case, or `null`. */
  target: string | null;
  /** `--targets`: the targets file used for every eval file, or `null` (discovered). */
  targets_file: string | null;
  /** `--judge-target`, or `null` (each target's `judge_target`). */
  judge_target: string | null;
  /** `--filter` glob on case ids, or `null`. */
  filter: string | null;
  /** `--workers`. */
  workers: number;
  /** `--timeout`, in ms. */
  timeout_ms: number;
  /** `--dry-run`. */
  dry_run: boolean;
  /** `--threshold`, or `null`. */
  threshold: number | null;
  /** `--root`, or `null` (found per eval file). */
  root: string | null;
}

/** The options of a run that affect its results. */
export const RunOptionsRecordSchema = z.object({
  target: z.string().nullable(),
  targets_file: z.string().nullable(),
  judge_target: z.string().nullable(),
  filter: z.string().nullable(),
  workers: z.number(),
  timeout_ms: z.number(),
  dry_run: z.boolean(),
  threshold: z.number().nullable(),
  root: z.string().nullable(),
});

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
}

/** A target the run used. */
export const RunTargetRecordSchema = z.object({
  name: z.string(),
  provider: z.string(),
  model: z.string().nullable(),
  endpoint: z.string().nullable(),
  judge_target: z.string().nullable(),
  targets_file: z.string().nullable(),
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
}

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
});

/** The `$id` of the published run record schema. */
export const RUN_RECORD_SCHEMA_ID = "https://agentv.dev/schema/run.schema.json";

/**
 * The JSON Schema (draft 2020-12) of `<results>.run.json` (the committed
 * `schema/run.schema.json` is kept equal to it by a test).
 *
 * @example
 * ```ts
 * import { runRecordJsonSchema } from "./run_record.ts";
 * const schema = runRecordJsonSchema() as { title: string };
 * console.log(schema.title); // "agentv run record"
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
 * import { parseRunRecord } from "./run_record.ts";
 * parseRunRecord({ schema_version: 1 }).ok; // false
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
  Assert<Same<RunSummary, z.output<typeof RunSummarySchema>>>,
  Assert<Same<RunOptionsRecord, z.output<typeof RunOptionsRecordSchema>>>,
  Assert<Same<RunTargetRecord, z.output<typeof RunTargetRecordSchema>>>,
  Assert<Same<DatasetFileRecord, z.output<typeof DatasetFileRecordSchema>>>,
  Assert<Same<RunRecord, z.output<typeof RunRecordSchema>>>,
];
