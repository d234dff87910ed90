/**
 * Explicit types of normalised evaluator configurations. They mirror the zod schemas of
 * `evaluator.ts` and the modules it re-exports (checked at compile time beside each schema),
 * because published types may not be inferred.
 *
 * @module
 */

import type { ExpectedFileChange } from "./file_changes.ts";
import type { SandboxSettings } from "./sandbox.ts";
export type { ExpectedFileChange, FileChangeKind } from "./file_changes.ts";

/**
 * Every evaluator type agentv knows (a plain list, so the loader's zod-free fast path can name them
 * too; `evaluator.ts` re-exports it and builds the union over it).
 */
export const EVALUATOR_TYPES = [
  "llm_judge",
  "rubric",
  "code_judge",
  "composite",
  "tool_trajectory",
  "field_accuracy",
  "latency",
  "cost",
  "token_usage",
  "equals",
  "contains",
  "regex",
  "is_json",
  "json_schema",
  "file_changes",
] as const;

/** Every evaluator type agentv knows. */
export type EvaluatorType =
  | "llm_judge"
  | "rubric"
  | "code_judge"
  | "composite"
  | "tool_trajectory"
  | "field_accuracy"
  | "latency"
  | "cost"
  | "token_usage"
  | "equals"
  | "contains"
  | "regex"
  | "is_json"
  | "json_schema"
  | "file_changes";

/** Keys every normalised evaluator config has. */
export interface EvaluatorBase {
  /** Name (defaults to the type). */
  name: string;
  /** Weight in the case score: finite, >= 0, default 1. */
  weight: number;
}

/** A normalised rubric item. */
export interface Rubric {
  /** Identifier (`rubric-<n>` when not given). */
  id: string;
  /** What the answer must do. */
  description: string;
  /** Weight among the rubrics (default 1). */
  weight: number;
  /** A failed required rubric fails the verdict (default true). */
  required: boolean;
}

/** `llm_judge`: free-form judge, or rubric mode when `rubrics` is set. */
export interface LlmJudgeConfig extends EvaluatorBase {
  /** Always `llm_judge`. */
  type: "llm_judge";
  /** A prompt file (found like file references) or inline template text. */
  prompt?: string;
  /** Overrides the judge target's model. */
  model?: string;
  /** Rubrics (rubric mode). */
  rubrics?: Rubric[];
}

/** `rubric`: the judge checks each rubric. */
export interface RubricConfig extends EvaluatorBase {
  /** Always `rubric`. */
  type: "rubric";
  /** The rubrics. */
  rubrics: Rubric[];
  /** Overrides the judge target's model. */
  model?: string;
}

/** `code_judge`: a script scoring the answer; extra keys are passed to it as `config`. */
export interface CodeJudgeConfig extends EvaluatorBase, SandboxSettings {
  /** Always `code_judge`. */
  type: "code_judge";
  /**
   * Argv array (no shell) or a shell command string; a single `.ts`/`.js`/`.mjs` path is run as
   * a module judge.
   */
  script?: string | string[];
  /** A TS/JS module whose default export scores the answer (run in a permission-limited worker). */
  module?: string;
  /** Working folder of a script, relative to the eval file's folder. */
  cwd?: string;
  /** Environment variable names passed to the script besides PATH, HOME, LANG and TMPDIR. */
  env?: string[];
  /** Lets the script call the judge target through a local proxy. */
  target?: boolean | { max_calls?: number };
  /** Kill the script after this many seconds. */
  timeout_seconds?: number;
  /**
   * Memory limit of a module judge in MB (default 512): past it the judge is stopped and its
   * result is an error.
   */
  max_memory_mb?: number;
  /** Pass-through settings for the script. */
  [key: string]: unknown;
}

/** An expected tool call of a `tool_trajectory` evaluator. */
export interface ExpectedTool {
  /** Tool name. */
  tool: string;
  /** Arguments to match partially (`any` matches anything). */
  args?: unknown;
  /** Same as `args` (the spelling used in expected messages). */
  input?: unknown;
  /** Output to match partially. */
  output?: unknown;
  /**
   * Upper bound on the call's `duration_ms`; a call without a duration does not match (the miss
   * says the trace has no durations).
   */
  max_duration_ms?: number;
  /**
   * The step must have succeeded (`ok`) or failed (`error`): a call fails when it has
   * `status: "error"` or a truthy `error`, and succeeds otherwise.
   */
  status?: "ok" | "error";
  /** Other keys are kept. */
  [key: string]: unknown;
}

/** `tool_trajectory`: checks the tool calls of the trace. */
export interface ToolTrajectoryConfig extends EvaluatorBase {
  /** Always `tool_trajectory`. */
  type: "tool_trajectory";
  /** How calls are matched. */
  mode: "any_order" | "in_order" | "exact";
  /** Minimum call counts by tool (`any_order`). */
  minimums?: Record<string, number>;
  /** Expected calls (`in_order`, `exact`). */
  expected?: ExpectedTool[];
}

/** A field checked by `field_accuracy`. */
export interface FieldSpec {
  /** Dot path with `[n]` indices. */
  path: string;
  /** How values are compared. */
  match: "exact" | "numeric_tolerance" | "date";
  /** A missing required field is a miss (default true). */
  required: boolean;
  /** Weight among the fields (default 1). */
  weight: number;
  /** Allowed difference (`numeric_tolerance`). */
  tolerance?: number;
  /** Tolerance relative to the expected value. */
  relative?: boolean;
  /** Date formats such as `DD-MMM-YYYY`. */
  formats?: string[];
}

/** `field_accuracy`: compares fields of a JSON answer with the expected object. */
export interface FieldAccuracyConfig extends EvaluatorBase {
  /** Always `field_accuracy`. */
  type: "field_accuracy";
  /** Fields to compare. */
  fields: FieldSpec[];
  /** How field scores combine. */
  aggregation: "weighted_average" | "all_or_nothing";
}

/** `latency`: passes when the call took at most `threshold` ms. */
export interface LatencyConfig extends EvaluatorBase {
  /** Always `latency`. */
  type: "latency";
  /** Milliseconds. */
  threshold: number;
}

/** `cost`: passes when the call cost at most `budget` USD. */
export interface CostConfig extends EvaluatorBase {
  /** Always `cost`. */
  type: "cost";
  /** USD. */
  budget: number;
}

/** `token_usage`: passes when token counts stay within the limits. */
export interface TokenUsageConfig extends EvaluatorBase {
  /** Always `token_usage`. */
  type: "token_usage";
  /** Limit on input + output (+ cached) tokens. */
  max_total?: number;
  /** Limit on input tokens. */
  max_input?: number;
  /** Limit on output tokens. */
  max_output?: number;
}

/** `equals`: the answer equals `value`. */
export interface EqualsConfig extends EvaluatorBase {
  /** Always `equals`. */
  type: "equals";
  /** Expected answer (a non-string is compared with the answer parsed as JSON). */
  value: NonNullable<unknown> | null;
  /** Compare case-sensitively (default true). */
  case_sensitive: boolean;
}

/** `contains`: the answer contains `value`, or `any`/`all` of `values`. */
export interface ContainsConfig extends EvaluatorBase {
  /** Always `contains`. */
  type: "contains";
  /** One substring. */
  value?: string;
  /** Several substrings. */
  values?: string[];
  /** Whether any or all must be present (default all). */
  mode: "any" | "all";
  /** Compare case-sensitively (default true). */
  case_sensitive: boolean;
}

/** `regex`: the answer matches `pattern`. */
export interface RegexConfig extends EvaluatorBase {
  /** Always `regex`. */
  type: "regex";
  /** JavaScript regular expression source. */
  pattern: string;
  /** Regular expression flags. */
  flags?: string;
}

/** `is_json`: the answer parses as JSON. */
export interface IsJsonConfig extends EvaluatorBase {
  /** Always `is_json`. */
  type: "is_json";
}

/** `json_schema`: the answer validates against `schema`. */
export interface JsonSchemaConfig extends EvaluatorBase {
  /** Always `json_schema`. */
  type: "json_schema";
  /** An inline JSON Schema. */
  schema: Record<string, unknown>;
}

/** How a composite combines its members. */
export type Aggregator =
  | {
    /** Weighted mean of member scores. */
    type: "weighted_average";
    /** Member weights by name (default: each member's own weight). */
    weights?: Record<string, number>;
  }
  | {
    /** A script combines the member results. */
    type: "code_judge";
    /** Shell command (original spelling). */
    path?: string;
    /** Shell command string or argv array. */
    script?: string | string[];
    /** Working folder. */
    cwd?: string;
  } & SandboxSettings
  | {
    /** A judge combines the member results. */
    type: "llm_judge";
    /** Prompt file or inline template (`{{ evaluator_results_json }}`). */
    prompt?: string;
    /** Overrides the judge target's model. */
    model?: string;
  };

/** `composite`: runs member evaluators and aggregates their results. */
export interface CompositeConfig extends EvaluatorBase {
  /** Always `composite`. */
  type: "composite";
  /** Member evaluators. */
  evaluators: EvaluatorConfig[];
  /** How members are combined (default weighted_average). */
  aggregator: Aggregator;
}

/**
 * A normalised evaluator configuration: every variant has `name`, `type` and `weight`, plus its
 * own options.
 */
export type EvaluatorConfig =
  | LlmJudgeConfig
  | RubricConfig
  | CodeJudgeConfig
  | CompositeConfig
  | ToolTrajectoryConfig
  | FieldAccuracyConfig
  | LatencyConfig
  | CostConfig
  | TokenUsageConfig
  | EqualsConfig
  | ContainsConfig
  | RegexConfig
  | IsJsonConfig
  | JsonSchemaConfig
  | FileChangesConfig;

/** `file_changes`: checks the files the target changed in its workspace. */
export interface FileChangesConfig extends EvaluatorBase {
  /** Always `file_changes`. */
  type: "file_changes";
  /** The files that must have changed (each item is one check). */
  expected: ExpectedFileChange[];
  /**
   * Whether files changed beyond `expected` are fine (default true); `false` makes each of them
   * one more miss (and one more check).
   */
  allow_other_changes: boolean;
}
