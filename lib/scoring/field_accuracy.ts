/**
 * The `field_accuracy` evaluator: compares fields of a JSON answer with the expected object,
 * field by field (`exact`, `numeric_tolerance`, `date`), aggregated as a weighted average or
 * all-or-nothing.
 *
 * @module
 */
import type { FieldAccuracyConfig } from "../schema/evaluator.ts";
import type { Message } from "../schema/message.ts";
import { formatCalendarDate, parseDate } from "./dates.ts";
import { contentText } from "./judge_prompt.ts";
import { extractJsonCandidates } from "./answer.ts";
import { zeroOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";
import { clampScore, scoreToVerdict } from "./verdict.ts";

type FieldSpec = FieldAccuracyConfig["fields"][number];

/** The check of one field. */
export interface FieldCheck {
  /** Field path, e.g. `invoice.lines[0].amount`. */
  path: string;
  /** `hit`, `miss`, or `skipped` (no expected value: not counted). */
  outcome: "hit" | "miss" | "skipped";
  /** 1 for a hit, 0 for a miss. */
  score: number;
  /** Weight in the average (0 for skipped fields and optional fields that are absent). */
  weight: number;
  /** The hit or miss text. */
  message: string;
}

const MISSING = Symbol("missing");

/**
 * Reads a dot/index path (`a.b[0].c`) from a value; traversal through a non-object is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readPath } from "./field_accuracy.ts";
 * assert.equal(readPath({ a: { b: [{ c: 5 }] } }, "a.b[0].c"), 5);
 * ```
 */
export function readPath(value: unknown, path: string): unknown {
  const keys: string[] = [];
  for (const part of path.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (m === null) {
      keys.push(part);
      continue;
    }
    if (m[1] !== "") keys.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) keys.push(idx[1]);
  }
  let current: unknown = value;
  for (const key of keys) {
    if (current === null || typeof current !== "object") return MISSING;
    if (!Object.hasOwn(current, key)) return MISSING;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? MISSING : current;
}

/**
 * Checks one field of the candidate against the expected object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkField } from "./field_accuracy.ts";
 * const check = checkField(
 *   { path: "total", match: "numeric_tolerance", tolerance: 0.5, required: true, weight: 1 },
 *   { total: 10.2 },
 *   { total: 10 },
 * );
 * assert.equal(check.outcome, "hit");
 * ```
 */
export function checkField(spec: FieldSpec, candidate: unknown, expected: unknown): FieldCheck {
  const path = spec.path;
  const want = readPath(expected, path);
  const got = readPath(candidate, path);
  const base = { path, weight: spec.weight };
  if (want === MISSING) {
    return {
      ...base,
      outcome: "skipped",
      score: 0,
      weight: 0,
      message: `${path}: no expected value (skipped, not counted)`,
    };
  }
  if (got === MISSING) {
    return spec.required
      ? { ...base, outcome: "miss", score: 0, message: `${path} (required, missing)` }
      : {
        ...base,
        outcome: "hit",
        score: 1,
        weight: 0,
        message: `${path}: optional field missing`,
      };
  }
  const hit = (message = path): FieldCheck => ({ ...base, outcome: "hit", score: 1, message });
  const miss = (why: string): FieldCheck => ({
    ...base,
    outcome: "miss",
    score: 0,
    message: `${path} (${why})`,
  });
  switch (spec.match) {
    case "exact": {
      if (deepEqual(got, want)) return hit();
      const [tg, tw] = [typeName(got), typeName(want)];
      return tg !== tw
        ? miss(`type mismatch: got ${tg}, expected ${tw}`)
        : miss(`value mismatch: got ${show(got)}, expected ${show(want)}`);
    }
    case "numeric_tolerance": {
      const [a, e] = [toNumber(got), toNumber(want)];
      if (a === undefined || e === undefined) return miss("non-numeric value");
      if (!Number.isFinite(a) || !Number.isFinite(e)) return miss("invalid numeric value");
      const tolerance = spec.tolerance ?? 0;
      const diff = Math.abs(a - e);
      const measured = spec.relative && e !== 0 ? diff / Math.abs(e) : diff;
      return measured <= tolerance + 1e-12
        ? hit(`${path} (within tolerance: diff=${diff.toFixed(2)})`)
        : miss(
          `outside tolerance: diff=${diff.toFixed(2)}, tolerance=${tolerance}${
            spec.relative ? " relative" : ""
          }`,
        );
    }
    case "date": {
      const a = parseDate(got, spec.formats);
      const e = parseDate(want, spec.formats);
      if (a === undefined) return miss(`unparseable candidate date: ${show(got)}`);
      if (e === undefined) return miss(`unparseable expected date: ${show(want)}`);
      const [fa, fe] = [formatCalendarDate(a), formatCalendarDate(e)];
      return fa === fe ? hit() : miss(`date mismatch: got ${fa}, expected ${fe}`);
    }
  }
}

/**
 * Compares the answer's JSON fields with the last expected assistant message's object.
 * weighted_average = Σ score·weight / Σ weight over counted fields; all_or_nothing = 1 only
 * without misses. Fields with no expected value are skipped and listed in `details.skipped`.
 * An answer that is not JSON, or no expected object, scores 0 with a miss saying so.
 *
 * @example
 * ```ts ignore
 * import { evaluateFieldAccuracy } from "./field_accuracy.ts";
 * await evaluateFieldAccuracy({ type: "field_accuracy", name: "fields", weight: 1,
 *   aggregation: "weighted_average",
 *   fields: [{ path: "invoice_number", match: "exact", required: true, weight: 1 }] }, context);
 * ```
 */
export function evaluateFieldAccuracy(
  config: FieldAccuracyConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  return Promise.resolve(scoreFields(config, context.candidate, context.evalCase.expected_output));
}

/** The synchronous core of {@link evaluateFieldAccuracy} (used by tests). */
export function scoreFields(
  config: Pick<FieldAccuracyConfig, "fields" | "aggregation">,
  candidateText: string,
  expectedMessages: readonly Message[],
): EvaluatorOutcome {
  const candidate = extractJsonCandidates(candidateText)[0];
  if (candidate === undefined) return zeroOutcome("Failed to parse candidate answer as JSON");
  const expected = expectedObject(expectedMessages);
  if (expected === undefined) {
    return zeroOutcome(
      "No expected data found in expected_output (need an assistant message with a JSON object)",
    );
  }
  const checks = config.fields.map((f) => checkField(f, candidate, expected));
  const counted = checks.filter((c) => c.outcome !== "skipped");
  const skipped = checks.filter((c) => c.outcome === "skipped");
  const hits = counted.filter((c) => c.outcome === "hit").map((c) => c.message);
  const misses = counted.filter((c) => c.outcome === "miss").map((c) => c.message);
  if (counted.length === 0) {
    misses.push("No field could be checked: none of the configured paths has an expected value");
  }
  let score: number;
  if (config.aggregation === "all_or_nothing") {
    score = misses.length === 0 && counted.length > 0 ? 1 : 0;
  } else {
    const total = counted.reduce((s, c) => s + c.weight, 0);
    score = total > 0 ? counted.reduce((s, c) => s + c.score * c.weight, 0) / total : 0;
  }
  score = clampScore(score);
  const note = skipped.length > 0
    ? `; ${skipped.length} skipped (no expected value: ${skipped.map((c) => c.path).join(", ")})`
    : "";
  return {
    status: "ok",
    score,
    verdict: scoreToVerdict(score),
    hits,
    misses,
    reasoning: `${hits.length}/${counted.length} fields matched${note}`,
    details: {
      fields: checks.map((c) => ({ path: c.path, outcome: c.outcome, weight: c.weight })),
      ...(skipped.length > 0 ? { skipped: skipped.map((c) => c.path) } : {}),
    },
  };
}

function expectedObject(messages: readonly Message[]): Record<string, unknown> | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant" || m.content === undefined || m.content === null) continue;
    if (typeof m.content === "object" && !Array.isArray(m.content)) {
      return m.content as Record<string, unknown>;
    }
    const parsed = extractJsonCandidates(contentText(m.content))[0];
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number.parseFloat(v.replace(/[,\s]/g, ""));
    return Number.isNaN(n) ? undefined : n;
  }
  return undefined;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length &&
    ka.every((k) =>
      Object.hasOwn(b as object, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    );
}
