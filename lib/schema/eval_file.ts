/**
 * The eval file format: the YAML file (`evalcases: [...]`), one JSONL line (a case), and the
 * JSONL sidecar. The input side of these schemas is the published JSON Schema; the output side of
 * {@link RawEvalCaseSchema} resolves aliases and shorthands (file references are resolved later by
 * the loader).
 *
 * @module
 */
import { z } from "zod";
import {
  EVALUATOR_TYPES,
  EvaluatorConfigSchema,
  RubricListSchema,
  SimpleEvaluatorConfigSchema,
} from "./evaluator.ts";
import { hasRole, type Message, RawMessageSchema, StructuredListSchema } from "./message.ts";
import { IntegritySettingSchema, PostChecksSchema, ProtectedSchema } from "./integrity.ts";
import { WorkspaceRepoSchema } from "./workspace_repo.ts";

/** Why a list whose every evaluator has weight 0 is rejected. */
const ALL_WEIGHTS_ZERO =
  "every evaluator has weight 0, so the case would have no score; give at least one evaluator a weight above 0 (weight 0 runs an evaluator without counting it)";

/** False for a non-empty evaluator list whose every weight is 0. */
function someWeight(list: readonly { weight?: number }[]): boolean {
  return list.length === 0 || list.some((e) => e.weight !== 0);
}

/** The largest `execution.trials` (and `--trials`) accepted: each trial is a full run of the case. */
export const MAX_TRIALS = 1000;

/** The most targets one case runs against (`execution.targets`, `--target a,b,c`). */
export const MAX_TARGETS = 64;

/** `execution.targets` (and a list given to `--target`): distinct names, 1 to {@link MAX_TARGETS}. */
export const TargetListSchema: z.ZodType<string[], string[]> = z.array(
  z.string({
    error: (i) => `targets must list target names (strings), found ${typeOf(i.input)}`,
  }).min(1, { error: "a name in targets must not be empty" }),
  {
    error: (i) =>
      `targets must be a list of target names, e.g. [gpt-4o, claude], found ${typeOf(i.input)}`,
  },
).min(1, { error: "targets must name at least one target" })
  .max(MAX_TARGETS, {
    error: (i) =>
      `targets names ${(i.input as unknown[]).length} targets; at most ${MAX_TARGETS} are allowed`,
  })
  .refine((list) => new Set(list).size === list.length, {
    error: (i) => {
      const list = i.input as string[];
      const twice = list.find((name, at) => list.indexOf(name) !== at);
      return `targets names '${twice}' twice; list each target once`;
    },
  });

/**
 * `execution:` block: `target` or `targets` (a list: every case runs against each, 1 to
 * {@link MAX_TARGETS} distinct names; a case's own `target` or `targets` replaces the file's),
 * `evaluators` (a default list), `workspace_template` (a folder copied into each case's fresh
 * workspace, relative to the eval file), `workspace_repo` (the workspace checked out from a
 * repository at a pinned commit, then set up), `trials` (how many times each case runs, 1 to
 * {@link MAX_TRIALS}; a case's value wins over the file's), and the integrity guard: `integrity`
 * (`on` | `off` | `{test_commands}`), `protected` (globs of files the agent must not touch) and
 * `post_checks` (a folder copied into the workspace after the agent exits); any other key is an
 * error (the loader says which key was meant).
 */
export const ExecutionSchema = executionSchema(EvaluatorConfigSchema);

/** The keys an `execution:` block may hold. */
export const EXECUTION_KEYS: readonly string[] = [
  "target",
  "targets",
  "evaluators",
  "workspace_template",
  "workspace_repo",
  "trials",
  "integrity",
  "protected",
  "post_checks",
];

/** Builds the `execution:` schema over an evaluator schema (full or {@link SimpleEvaluatorConfigSchema}). */
function executionSchema(evaluator: typeof EvaluatorConfigSchema) {
  return z.strictObject({
    target: z.string({
      error: (i) => `target must be a string naming a target, found ${typeOf(i.input)}`,
    }).min(1).optional(),
    targets: TargetListSchema.optional(),
    evaluators: z.array(evaluator).refine(someWeight, { error: ALL_WEIGHTS_ZERO }).optional(),
    workspace_template: z.string({
      error: (i) =>
        `workspace_template must be a string naming a folder (relative to the eval file), found ${
          typeOf(i.input)
        }`,
    }).min(1, { error: "workspace_template must not be empty" }).optional(),
    workspace_repo: WorkspaceRepoSchema.optional(),
    trials: z.number({
      error: (i) =>
        `trials must be a whole number from 1 to ${MAX_TRIALS}, found ${
          typeOf(i.input)
        }; write a number such as 5`,
    }).int({
      error: (i) =>
        `trials must be a whole number from 1 to ${MAX_TRIALS}, found ${i.input}; round it`,
    })
      .min(1, { error: (i) => `trials must be at least 1, found ${i.input}; write 1 or more` })
      .max(MAX_TRIALS, {
        error: (i) => `trials must be at most ${MAX_TRIALS}, found ${i.input}; lower it`,
      })
      .optional(),
    integrity: IntegritySettingSchema.optional(),
    protected: ProtectedSchema.optional(),
    post_checks: PostChecksSchema.optional(),
  }).refine((e) => e.workspace_repo === undefined || e.workspace_template === undefined, {
    path: ["workspace_repo"],
    message:
      "workspace_repo and workspace_template both name the workspace; keep one (a repository at a commit, or a folder copied)",
  }).refine((e) => e.target === undefined || e.targets === undefined, {
    path: ["targets"],
    error: "execution has both target and targets; keep one (targets: [a, b] runs every case " +
      "against each, target: a against one)",
  });
}

/** The default evaluator kind (`evaluator:`). */
export const EvaluatorKindSchema = z.enum(EVALUATOR_TYPES, {
  error: (issue) =>
    typeof issue.input === "string"
      ? `evaluator '${issue.input}' is not a known evaluator type; expected one of ${
        EVALUATOR_TYPES.join(", ")
      }`
      : `evaluator must name one evaluator type (e.g. 'llm_judge'), found ${
        typeOf(issue.input)
      }; to configure evaluators write them as a list under \`evaluators:\` (plural), or give \`evaluator:\` one of ${
        EVALUATOR_TYPES.join(", ")
      }`,
});

/** Keys accepted on a case that agentv itself does not use (documentation, metadata). */
const docKeys = {
  description: z.string().optional(),
  note: z.string().optional(),
  notes: z.string().optional(),
  question: z.string().optional(),
  reference_answer: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  tags: z.array(z.string()).optional(),
};

/** Shape of a case's `expected_output`: text, a structured object, or messages. */
export const ExpectedOutputSchema = expectedOutputSchema(RawMessageSchema);

function expectedOutputSchema(message: typeof RawMessageSchema) {
  // `null` (YAML's empty key) is no expected output. A list of data items (no `role`) is
  // structured content; it comes first so a data list with a stray `role` is blamed at that item.
  return z.union([
    z.string(),
    StructuredListSchema,
    z.array(message),
    z.record(z.string(), z.unknown()),
  ], {
    error: (i) =>
      `expected_output must be a string, an object or a list of data items (structured answer), or an array of messages, found ${
        typeOf(i.input)
      }`,
  }).nullable();
}

/** The sub-schemas a case schema is built from (plain, or compiled behind `z.lazy`). */
interface CaseParts {
  evaluator: typeof EvaluatorConfigSchema;
  message: typeof RawMessageSchema;
  rubrics: typeof RubricListSchema;
}

/** One eval case as written in YAML (an `evalcases` item) or as one JSONL line. */
export const RawEvalCaseSchema = rawEvalCaseSchema({
  evaluator: EvaluatorConfigSchema,
  message: RawMessageSchema,
  rubrics: RubricListSchema,
});

/**
 * A compiled (`z.compile`) fast parser for cases without `composite` evaluators. It accepts a
 * subset of {@link RawEvalCaseSchema} and returns the same output. Compiling costs about 40 ms,
 * so it is not built at import: see {@link useCompiledCaseParser}.
 */
export function compileFastCaseSchema(): FastCaseParser {
  return z.compile(rawEvalCaseSchema({
    // The evaluator union is compiled on its own and reached through `z.lazy`, so the generated
    // case parser calls a function the JIT optimises instead of inlining all 13 variants into
    // one huge function (about 3× slower).
    evaluator: compiledPart(SimpleEvaluatorConfigSchema),
    message: RawMessageSchema,
    rubrics: RubricListSchema,
  }));
}

/** What the compiled fast case parser offers. */
export interface FastCaseParser {
  /** Parses one raw case (the same output as {@link RawEvalCaseSchema} when it succeeds). */
  safeParse(value: unknown): z.ZodSafeParseResult<z.output<typeof RawEvalCaseSchema>>;
}

/** A compiled copy of `schema` behind `z.lazy` (same input and output types). */
function compiledPart<T extends z.ZodType>(schema: T): T {
  const compiled = z.compile(schema);
  return z.lazy(() => compiled) as unknown as T;
}

let fastCaseSchema: FastCaseParser | undefined;

/**
 * Builds the compiled case parser (once per process) for {@link parseRawEvalCase} to use from now
 * on. The loader calls it before a large file: compiling costs about 40 ms, which the compiled
 * parser saves over some ten thousand cases, and it allocates far less (a 100,000-case file
 * streams in about half the memory); a small file is validated faster without it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * useCompiledCaseParser();
 * assert.equal(parseRawEvalCase({ id: "a", expected_outcome: "Goal", input: "Hi" }).success, true);
 * ```
 */
export function useCompiledCaseParser(): void {
  fastCaseSchema ??= compileFastCaseSchema();
}

/**
 * Validates one raw case: with {@link RawEvalCaseSchema}, or, once {@link useCompiledCaseParser}
 * was called, with the compiled fast path first and the full schema (whose issues are the ones
 * reported) when the fast path rejects a value; results are the same either way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const r = parseRawEvalCase({ id: "a", expected_outcome: "Goal", input: "Hi" });
 * assert.ok(r.success);
 * assert.deepEqual(r.data.input, [{ role: "user", content: "Hi" }]);
 * ```
 */
export function parseRawEvalCase(
  value: unknown,
): z.ZodSafeParseResult<z.output<typeof RawEvalCaseSchema>> {
  if (fastCaseSchema === undefined) return RawEvalCaseSchema.safeParse(value);
  const fast = fastCaseSchema.safeParse(value);
  return fast.success ? fast : RawEvalCaseSchema.safeParse(value);
}

/** Builds the case schema from its parts (plain, or with the compiled evaluator union). */
function rawEvalCaseSchema(parts: CaseParts) {
  const { evaluator, message, rubrics } = parts;
  return z.strictObject({
    id: z.string({ error: (i) => `id must be a string, found ${typeOf(i.input)}` }).min(1, {
      error: "id must not be empty",
    }),
    expected_outcome: z.string({
      error: (i) => `expected_outcome must be a string, found ${typeOf(i.input)}`,
    }).optional(),
    outcome: z.string({ error: (i) => `outcome must be a string, found ${typeOf(i.input)}` })
      .optional(),
    input: z.union([z.string(), z.array(message)], {
      error: (i) =>
        `input must be a string (one user message) or an array of messages, found ${
          typeOf(i.input)
        }`,
    }).optional(),
    input_messages: z.array(message, {
      error: (i) => `input_messages must be an array of messages, found ${typeOf(i.input)}`,
    }).optional(),
    expected_output: expectedOutputSchema(message).optional(),
    expected_messages: z.array(message, {
      error: (i) => `expected_messages must be an array of messages, found ${typeOf(i.input)}`,
    }).nullable().optional(),
    conversation_id: z.string({
      error: (i) => `conversation_id must be a string, found ${typeOf(i.input)}`,
    }).optional(),
    execution: executionSchema(evaluator).optional(),
    evaluators: z.array(evaluator, {
      error: (i) => `evaluators must be an array of evaluators, found ${typeOf(i.input)}`,
    }).optional(),
    evaluator: EvaluatorKindSchema.optional(),
    rubrics: rubrics.optional(),
    ...docKeys,
  })
    // Plain predicates (not superRefine), so the compiled fast parser allocates nothing here.
    .refine((c) => (c.expected_outcome ?? c.outcome)?.trim(), {
      message:
        "missing expected_outcome; add `expected_outcome:` describing what a good answer does",
    })
    // Inline rubrics add a weighted rubric evaluator, so the case still has a score.
    .refine((c) => c.rubrics !== undefined || someWeight(c.evaluators ?? []), {
      path: ["evaluators"],
      message: ALL_WEIGHTS_ZERO,
    })
    .refine((c) => c.input !== undefined || c.input_messages !== undefined, {
      message: "missing input; add `input:` (a string or a list of messages)",
    })
    .refine((c) => !(Array.isArray(c.input) && c.input.length === 0), {
      path: ["input"],
      message: "input has no messages; add at least one message",
    })
    .refine(
      (c) =>
        !(c.input === undefined && c.input_messages !== undefined && c.input_messages.length === 0),
      { path: ["input_messages"], message: "input has no messages; add at least one message" },
    )
    .transform((c) => {
      const rawInput = c.input ?? c.input_messages ?? [];
      const input: Message[] = typeof rawInput === "string"
        ? [{ role: "user", content: rawInput }]
        : rawInput as Message[];
      const rawExpected = c.expected_output ?? c.expected_messages;
      let expected_output: Message[] = [];
      if (typeof rawExpected === "string") {
        expected_output = [{ role: "assistant", content: rawExpected }];
      } else if (Array.isArray(rawExpected) && !isStructuredList(rawExpected)) {
        expected_output = rawExpected as Message[];
      } else if (rawExpected !== undefined && rawExpected !== null) {
        expected_output = [{ role: "assistant", content: rawExpected }];
      }
      return {
        id: c.id,
        conversation_id: c.conversation_id,
        expected_outcome: (c.expected_outcome ?? c.outcome)!,
        input,
        expected_output,
        execution: c.execution,
        evaluators: c.evaluators,
        evaluator: c.evaluator,
        rubrics: c.rubrics,
      };
    });
}

/** A case after alias and shorthand resolution, before file-level defaults are applied. */
export type ParsedEvalCase = z.output<typeof RawEvalCaseSchema>;

/** File-level settings shared by a YAML eval file's top level and a JSONL sidecar. */
const fileSettings = {
  $schema: z.string().optional(),
  description: z.string().optional(),
  dataset: z.string().optional(),
  target: z.string().min(1).optional(),
  execution: ExecutionSchema.optional(),
  evaluator: EvaluatorKindSchema.optional(),
};

/** The top-level mapping of a YAML eval file. */
export const EvalFileSchema = z.strictObject({
  ...fileSettings,
  evalcases: z.array(z.unknown(), {
    error: (issue) =>
      issue.input === undefined
        ? "missing evalcases; add `evalcases:` with a list of cases"
        : "evalcases must be a list of cases",
  }),
});

/** The top-level mapping of a YAML eval file (cases are validated one by one). */
export type EvalFile = z.output<typeof EvalFileSchema>;

/**
 * The JSONL sidecar (`<name>.yaml` beside `<name>.jsonl`). Unknown keys (a typo such as
 * `execuiton`) are reported as warnings and ignored, as on a YAML eval file.
 */
export const SidecarSchema = z.strictObject(fileSettings);

/** The JSONL sidecar metadata. */
export type Sidecar = z.output<typeof SidecarSchema>;

/**
 * The published JSON Schema of the YAML eval file: the file mapping with `evalcases` items typed
 * as cases.
 */
export const EvalFileDocumentSchema = EvalFileSchema.extend({
  evalcases: z.array(RawEvalCaseSchema),
});

/**
 * Whether an `expected_output` list is structured content (a non-empty list whose first item is
 * not a message) rather than a list of messages.
 */
export function isStructuredList(value: readonly unknown[]): boolean {
  return value.length > 0 && !hasRole(value[0]);
}

/** Names a value's JSON type for messages ("a string", "an object", "an array", "null"). */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    case "undefined":
      return "nothing";
    default:
      return typeof value;
  }
}
