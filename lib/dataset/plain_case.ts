/**
 * Plain cases: the quick check `validate` runs on each JSONL record before the full case pipeline
 * (`case_pipeline.ts`). It answers one question, conservatively: is this record a case that the
 * pipeline would accept with no diagnostic at all (no error, no warning) and without reading any
 * file? Such a case needs nothing more from `validate` than its target. Anything the check does
 * not know for certain (an unknown key, a file reference, a judge prompt, a `code_judge`,
 * `composite`, `json_schema` or `file_changes` evaluator, an alias shadowed by its primary key, a
 * value of the wrong type) goes through the pipeline as before, which reports it with its line and
 * column. So the check can only make `validate` faster, never change what it says; the zod
 * schemas stay the one declaration of the format, and `tests/loader/plain_case_test.ts` checks
 * the two agree on mutated cases of every kind this check accepts.
 *
 * It needs no zod: a JSONL file whose cases are all plain is validated without loading the
 * schemas.
 *
 * @module
 */
import { EVALUATOR_TYPES } from "../schema/evaluator_types.ts";
import { caseJudgeNeeds, type JudgedEvaluator, type JudgeNeeds } from "../schema/judge_needs.ts";
import { linearRegexProblem } from "../text/linear_regex.ts";

type Obj = Record<string, unknown>;

/**
 * Whether `record` (one parsed JSONL line) is a case the full pipeline accepts without any
 * diagnostic and without file references or prompt files; `false` means "not known", never
 * "invalid".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPlainCase } from "./plain_case.ts";
 * assert.equal(isPlainCase({ id: "a", expected_outcome: "Greets", input: "Hi" }), true);
 * // an unknown key is a warning: the case pipeline reports it
 * assert.equal(isPlainCase({ id: "a", expected_outcome: "Greets", input: "Hi", typo: 1 }), false);
 * ```
 */
export function isPlainCase(record: Obj): boolean {
  // Each of these is given once at most: with both, the pipeline decides which one is ignored.
  let input = false;
  let outcome = false;
  let expected = false;
  for (const key in record) {
    const value = record[key];
    switch (key) {
      case "expected_outcome":
      case "outcome":
        if (outcome || typeof value !== "string" || value.trim() === "") return false;
        outcome = true;
        break;
      case "input":
      case "input_messages": {
        const text = key === "input" && typeof value === "string";
        if (input || (!text && !messageList(value, false))) return false;
        input = true;
        break;
      }
      case "expected_output":
      case "expected_messages":
        if (expected) return false;
        if (key === "expected_output" ? !expectedOutput(value) : !expectedMessages(value)) {
          return false;
        }
        expected = true;
        break;
      default: {
        const check = CASE_KEYS.get(key); // an unknown key is a warning
        if (check === undefined || !check(value)) return false;
      }
    }
  }
  if (typeof record.id !== "string" || !outcome || !input) return false;
  // Inline rubrics add a weighted evaluator; otherwise some evaluator must count.
  return record.rubrics !== undefined || someWeight(record.evaluators);
}

/** The judge needs of a case that has no evaluators of its own, per file defaults. */
const defaultNeeds = new WeakMap<object, JudgeNeeds>();

/**
 * What a plain case (see {@link isPlainCase}) asks of its judge, as the case pipeline would find
 * it on the normalised case: its own evaluators (`execution.evaluators` before `evaluators`),
 * else the file's, with a rubric evaluator for inline `rubrics`, else its default kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainCaseJudgeNeeds } from "./plain_case.ts";
 * import { JUDGE_RUBRIC } from "../schema/judge_needs.ts";
 * assert.equal(
 *   plainCaseJudgeNeeds({ id: "a", rubrics: ["Is polite"] }, { evaluator: "llm_judge" }),
 *   JUDGE_RUBRIC,
 * );
 * ```
 */
export function plainCaseJudgeNeeds(
  record: Obj,
  defaults: { evaluator: string; evaluators?: readonly JudgedEvaluator[] },
): JudgeNeeds {
  const execution = record.execution as Obj | undefined;
  const own = (execution?.evaluators ?? record.evaluators) as JudgedEvaluator[] | undefined;
  if (own === undefined && record.rubrics === undefined && record.evaluator === undefined) {
    // Most cases of a large file: the file's evaluators decide, the same for each.
    let needs = defaultNeeds.get(defaults);
    if (needs === undefined) {
      needs = caseJudgeNeeds({
        evaluator: defaults.evaluator,
        evaluators: defaults.evaluators ?? [],
      });
      defaultNeeds.set(defaults, needs);
    }
    return needs;
  }
  const list: readonly JudgedEvaluator[] = own ?? defaults.evaluators ?? [];
  const evaluators = record.rubrics !== undefined ? [{ type: "rubric" }, ...list] : list;
  const evaluator = typeof record.evaluator === "string" ? record.evaluator : defaults.evaluator;
  return caseJudgeNeeds({ evaluator, evaluators });
}

/** The checks of the case keys that stand alone (aliased keys are checked in `isPlainCase`). */
const CASE_KEYS = new Map<string, (value: unknown) => boolean>([
  ["id", nonEmptyString],
  ["execution", execution],
  ["evaluators", evaluatorList],
  ["evaluator", (v) => (EVALUATOR_TYPES as readonly unknown[]).includes(v)],
  ["rubrics", rubricList],
  ["conversation_id", isString],
  ["description", isString],
  ["note", isString],
  ["notes", isString],
  ["question", isString],
  ["reference_answer", isString],
  ["metadata", isObject],
  ["tags", (v) => stringList(v, 0)],
]);

function isString(value: unknown): boolean {
  return typeof value === "string";
}

/** `expected_messages`: null, or a list of messages (possibly empty). */
function expectedMessages(value: unknown): boolean {
  return value === null || messageList(value, true);
}

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** A finite number >= 0 (a JSON number too large for a double reads as Infinity). */
function nonNegative(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function optionalBoolean(value: unknown): boolean {
  return value === undefined || typeof value === "boolean";
}

function stringList(value: unknown, min: number): boolean {
  if (!Array.isArray(value) || value.length < min) return false;
  for (const item of value) if (typeof item !== "string") return false;
  return true;
}

/** A list of messages; an empty list is fine only where the schema allows it (`expected`). */
function messageList(value: unknown, emptyOk: boolean): boolean {
  if (!Array.isArray(value) || (value.length === 0 && !emptyOk)) return false;
  for (const message of value) if (!isMessage(message)) return false;
  return true;
}

function isMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  let content = false;
  let calls = false;
  for (const key in value) {
    const v = value[key];
    switch (key) {
      case "role":
        if (v !== "system" && v !== "user" && v !== "assistant" && v !== "tool") return false;
        break;
      case "content":
        if (!(typeof v === "string" || isObject(v) || textSegments(v))) return false;
        content = true;
        break;
      case "tool_calls":
        if (!toolCalls(v)) return false;
        calls = (v as unknown[]).length > 0;
        break;
      case "name":
        if (typeof v !== "string") return false;
        break;
      default:
        return false;
    }
  }
  return value.role !== undefined && (content || calls);
}

/** Segments that are all `{type: text, value: "..."}`: no file to read, nothing to report. */
function textSegments(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const segment of value) {
    if (!isObject(segment) || segment.type !== "text" || typeof segment.value !== "string") {
      return false;
    }
    for (const key in segment) if (key !== "type" && key !== "value") return false;
  }
  return true;
}

function toolCalls(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const call of value) {
    if (!isObject(call) || !nonEmptyString(call.tool)) return false;
    if (call.id !== undefined && typeof call.id !== "string") return false;
    if (call.timestamp !== undefined && typeof call.timestamp !== "string") return false;
    if (call.duration_ms !== undefined && !finiteNumber(call.duration_ms)) return false;
  }
  return true;
}

function finiteNumber(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * `expected_output`: text, null, an object, a list of messages (possibly empty), or a list of
 * data items none of which has a role and none of which reads as a file or text segment.
 */
function expectedOutput(value: unknown): boolean {
  if (value === null || typeof value === "string" || isObject(value)) return true;
  if (!Array.isArray(value)) return false;
  if (value.length === 0 || hasRole(value[0])) return messageList(value, true);
  for (const item of value) {
    if (hasRole(item)) return false;
    if (isObject(item) && (item.type === "file" || item.type === "text")) return false;
  }
  return true;
}

function hasRole(value: unknown): boolean {
  return isObject(value) && "role" in value;
}

/** A case's `execution`: only known keys, each of the right type. */
function execution(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) {
    const v = value[key];
    switch (key) {
      case "target":
      case "workspace_template":
        if (!nonEmptyString(v)) return false;
        break;
      case "evaluators":
        if (!evaluatorList(v) || !someWeight(v)) return false;
        break;
      case "trials":
        if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 1000) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function evaluatorList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const e of value) if (!isPlainEvaluator(e)) return false;
  return true;
}

/** False for a non-empty list whose every weight is 0 (an absent weight is 1). */
function someWeight(list: unknown): boolean {
  if (!Array.isArray(list) || list.length === 0) return true;
  for (const e of list) if ((e as Obj).weight !== 0) return true;
  return false;
}

/** The keys each evaluator type takes besides `type`, `name` and `weight`. */
const EVALUATOR_KEYS: Readonly<Record<string, readonly string[]>> = {
  llm_judge: ["model", "rubrics"],
  rubric: ["rubrics", "model"],
  contains: ["value", "values", "mode", "case_sensitive"],
  equals: ["value", "case_sensitive"],
  regex: ["pattern", "flags"],
  is_json: [],
  latency: ["threshold"],
  cost: ["budget"],
  token_usage: ["max_total", "max_input", "max_output"],
  tool_trajectory: ["mode", "minimums", "expected"],
  field_accuracy: ["fields", "aggregation"],
};

function isPlainEvaluator(value: unknown): boolean {
  if (!isObject(value)) return false;
  const type = value.type;
  if (typeof type !== "string" || !Object.hasOwn(EVALUATOR_KEYS, type)) return false;
  const keys = EVALUATOR_KEYS[type];
  for (const key in value) {
    if (key !== "type" && key !== "name" && key !== "weight" && !keys.includes(key)) return false;
  }
  if (value.name !== undefined && !nonEmptyString(value.name)) return false;
  if (value.weight !== undefined && !nonNegative(value.weight)) return false;
  return evaluatorSettings(type, value);
}

/** The type-specific settings of an evaluator whose keys are known to be its own. */
function evaluatorSettings(type: string, e: Obj): boolean {
  switch (type) {
    case "llm_judge":
      return optionalName(e.model) && (e.rubrics === undefined || rubricList(e.rubrics));
    case "rubric":
      return optionalName(e.model) && rubricList(e.rubrics);
    case "contains":
      return (e.value !== undefined || e.values !== undefined) &&
        (e.value === undefined || typeof e.value === "string") &&
        (e.values === undefined || stringList(e.values, 1)) &&
        (e.mode === undefined || e.mode === "any" || e.mode === "all") &&
        optionalBoolean(e.case_sensitive);
    case "equals":
      return e.value !== undefined && optionalBoolean(e.case_sensitive);
    case "regex":
      return nonEmptyString(e.pattern) &&
        (e.flags === undefined || (typeof e.flags === "string" && /^[dgimsuy]*$/.test(e.flags))) &&
        linearRegexProblem(e.pattern, (e.flags as string | undefined) ?? "") === undefined;
    case "is_json":
      return true;
    case "latency":
      return nonNegative(e.threshold);
    case "cost":
      return nonNegative(e.budget);
    case "token_usage":
      return tokenLimits(e);
    case "tool_trajectory":
      return toolTrajectory(e);
    case "field_accuracy":
      return fieldAccuracy(e);
  }
  return false;
}

function optionalName(value: unknown): boolean {
  return value === undefined || nonEmptyString(value);
}

function tokenLimits(e: Obj): boolean {
  let some = false;
  for (const key of ["max_total", "max_input", "max_output"]) {
    if (e[key] === undefined) continue;
    if (!nonNegative(e[key])) return false;
    some = true;
  }
  return some;
}

function toolTrajectory(e: Obj): boolean {
  const mode = e.mode;
  if (mode !== "any_order" && mode !== "in_order" && mode !== "exact") return false;
  if (e.minimums !== undefined) {
    if (!isObject(e.minimums)) return false;
    for (const key in e.minimums) if (!nonNegative(e.minimums[key])) return false;
  }
  if (e.expected !== undefined) {
    if (!Array.isArray(e.expected)) return false;
    for (const step of e.expected) if (!expectedTool(step)) return false;
  }
  return mode === "any_order" ? e.minimums !== undefined : e.expected !== undefined;
}

function expectedTool(value: unknown): boolean {
  return isObject(value) && nonEmptyString(value.tool) &&
    (value.max_duration_ms === undefined || nonNegative(value.max_duration_ms)) &&
    (value.status === undefined || value.status === "ok" || value.status === "error");
}

function fieldAccuracy(e: Obj): boolean {
  if (!Array.isArray(e.fields) || e.fields.length === 0) return false;
  if (
    e.aggregation !== undefined && e.aggregation !== "weighted_average" &&
    e.aggregation !== "all_or_nothing"
  ) return false;
  for (const field of e.fields) if (!fieldSpec(field)) return false;
  return true;
}

const FIELD_KEYS = ["path", "match", "required", "weight", "tolerance", "relative", "formats"];

function fieldSpec(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (!FIELD_KEYS.includes(key)) return false;
  return nonEmptyString(value.path) &&
    (value.match === "exact" || value.match === "numeric_tolerance" || value.match === "date") &&
    optionalBoolean(value.required) && optionalBoolean(value.relative) &&
    (value.weight === undefined || nonNegative(value.weight)) &&
    (value.tolerance === undefined || nonNegative(value.tolerance)) &&
    (value.formats === undefined || stringList(value.formats, 0));
}

/** A rubric list: at least one rubric, each a non-empty string or a known-keys object. */
function rubricList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (const item of value) {
    if (typeof item === "string") {
      if (item.length === 0) return false;
      continue;
    }
    if (!isObject(item)) return false;
    for (const key in item) {
      if (key !== "id" && key !== "description" && key !== "weight" && key !== "required") {
        return false;
      }
    }
    if (!nonEmptyString(item.description) || !optionalName(item.id)) return false;
    if (item.weight !== undefined && !nonNegative(item.weight)) return false;
    if (!optionalBoolean(item.required)) return false;
  }
  return true;
}
