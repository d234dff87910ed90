/**
 * The end-of-run summary (the `--json` output of `agentv run`, and `summary` in the run record
 * `<results>.run.json`): counts, scores, verdicts, the slowest cases, per-evaluator means, usage
 * and cost, and the sections of trials, budget, cache and judge calibration when a run used them.
 *
 * @module
 */
import { z } from "zod";
import { type Diagnostic, DiagnosticSchema } from "./eval_case.ts";
import type { Assert, Same } from "./_type_check.ts";
import { type TrialsSummary, TrialsSummarySchema } from "./trials.ts";
import { type CalibratedPassRate, CalibratedPassRateSchema } from "./calibration.ts";

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
  /**
   * Rows with status `skipped`: every evaluator was skipped (code judges in a dry run), or the
   * budget refused the case (0 in records written before agentv counted them).
   */
  skipped: number;
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
  /** Per-case statistics over trials, when some case ran more than once (`--trials`). */
  trials?: TrialsSummary;
  /**
   * Per target, in the order first seen, when the rows name more than one (`--target a,b,c`,
   * `execution.targets`); `agentv compare` ranks them with intervals and paired tests.
   */
  targets?: TargetSummary[];
  /** The spend cap of the run and what it stopped (`--budget-usd`, `budget_usd`). */
  budget?: BudgetSummary;
  /** Response cache counters, when the cache was on (`--cache`, `--replay`). */
  cache?: CacheSummary;
  /**
   * The pass rate corrected for the judge's measured error, when a calibration of the run's judge
   * is saved (`agentv calibrate --save`), with the warnings of a judge that changed since.
   */
  calibration?: CalibratedPassRate;
  /** What the integrity guard found, when it checked some case (agent targets). */
  integrity?: IntegritySummary;
  /** Wall time of the run in ms. */
  duration_ms: number;
}

/** One target's rows in a run of several (see {@link RunSummary.targets}). */
export interface TargetSummary {
  /** Target name. */
  target: string;
  /** Its rows. */
  total: number;
  /** Its rows with status `ok`. */
  scored: number;
  /** Its rows with status `error`. */
  errors: number;
  /** Mean score over its scored rows; `null` when none scored. */
  mean: number | null;
  /** Verdict counts over its scored rows. */
  verdicts: { pass: number; borderline: number; fail: number };
  /** Sum of its cost in USD where reported. */
  cost_usd?: number;
}

const TargetSummarySchema = z.object({
  target: z.string(),
  total: z.number(),
  scored: z.number(),
  errors: z.number(),
  mean: z.number().nullable(),
  verdicts: z.object({ pass: z.number(), borderline: z.number(), fail: z.number() }),
  cost_usd: z.number().optional(),
});

/** A case the integrity guard flagged, in a run's summary. */
export interface IntegrityFlag {
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Target name. */
  target: string;
  /** The kinds of its findings, in order (one per finding). */
  kinds: string[];
  /** The first finding's path or step (`calc.test.mjs`, `step 3`), when it has one. */
  where?: string;
}

/** The integrity guard over a run: the rows it checked, and the cases it flagged. */
export interface IntegritySummary {
  /** Rows the guard checked (`clean` or `flagged`). */
  checked: number;
  /** Rows it skipped (`integrity: off`). */
  skipped: number;
  /** The flagged cases, in completion order. */
  flagged: IntegrityFlag[];
}

/**
 * What a run's spend cap (`--budget-usd`) did: the cap, what was spent, whether it stopped the
 * run, and the calls it could not bound (see `lib/run/budget.ts`).
 */
export interface BudgetSummary {
  /** The cap, in USD. */
  cap_usd: number;
  /**
   * USD spent by target and judge calls: reported or priced costs, and the worst case of a priced
   * call that reported no usage.
   */
  spent_usd: number;
  /** Whether the cap stopped the run (a call's worst case did not fit in what was left). */
  exhausted: boolean;
  /** Why it stopped (e.g. `budget of $0.50 reached: $0.48 spent`), or `null`. */
  reason: string | null;
  /** Cases with `status: skipped`: not started, or whose target call the budget refused. */
  skipped: number;
  /** Target and judge calls the budget refused. */
  refused_calls: number;
  /** Calls to targets without `pricing`: their cost was unknown before the call. */
  unpriced_calls: number;
  /** Those targets' names. */
  unpriced_targets: string[];
  /**
   * Calls to priced targets with no output limit (no `max_tokens`) or that make calls of their
   * own (agents, `cli`): only their input was bounded, so they may overshoot the cap.
   */
  unbounded_calls: number;
  /** Those targets' names. */
  unbounded_targets: string[];
}

/** What a run's spend cap did. */
export const BudgetSummarySchema = z.object({
  cap_usd: z.number(),
  spent_usd: z.number(),
  exhausted: z.boolean(),
  reason: z.string().nullable(),
  skipped: z.number(),
  refused_calls: z.number(),
  unpriced_calls: z.number(),
  unpriced_targets: z.array(z.string()),
  unbounded_calls: z.number(),
  unbounded_targets: z.array(z.string()),
});

/**
 * What the response cache did in a run: calls answered from it (`hits`), calls it could not
 * answer (`misses`, each request counted once), responses recorded (`writes`), and, among the
 * misses, entries that exist but were not served (`rejected`: edited, forged, signed with
 * another key, malformed; present only when there were some).
 */
export interface CacheSummary {
  /** Calls answered from the cache. */
  hits: number;
  /** Calls the cache could not answer (a retried request counts once). */
  misses: number;
  /** Responses recorded. */
  writes: number;
  /** Misses whose entry exists but was not served (absent when none). */
  rejected?: number;
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
  skipped: z.number().default(0),
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
  trials: TrialsSummarySchema.optional(),
  targets: z.array(TargetSummarySchema).optional(),
  budget: BudgetSummarySchema.optional(),
  cache: z.object({
    hits: z.number(),
    misses: z.number(),
    writes: z.number(),
    rejected: z.number().optional(),
  }).optional(),
  calibration: CalibratedPassRateSchema.optional(),
  integrity: z.object({
    checked: z.number(),
    skipped: z.number(),
    flagged: z.array(z.object({
      eval_id: z.string(),
      dataset: z.string(),
      target: z.string(),
      kinds: z.array(z.string()),
      where: z.string().optional(),
    })),
  }).optional(),
  duration_ms: z.number(),
});

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<RunSummary, z.output<typeof RunSummarySchema>>>,
  Assert<Same<BudgetSummary, z.output<typeof BudgetSummarySchema>>>,
  Assert<Same<TargetSummary, z.output<typeof TargetSummarySchema>>>,
];
