/**
 * `tool_trajectory`: scores the tool calls of the trace against per-tool minimums
 * (`any_order`), an expected subsequence (`in_order`) or an exact sequence (`exact`).
 *
 * @module
 */
import type { ToolTrajectoryConfig } from "../schema/evaluator.ts";
import type { OutputMessage } from "../schema/result.ts";
import { isErrorCall } from "./answer.ts";
import { findPartialMismatch } from "./match.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

type ExpectedTool = NonNullable<ToolTrajectoryConfig["expected"]>[number];

/** A tool call observed in the trace. */
export interface ObservedCall {
  /** Tool name. */
  tool: string;
  /** Arguments. */
  input?: unknown;
  /** Result. */
  output?: unknown;
  /** Duration, when the target reported it. */
  duration_ms?: number;
  /** `error` when the call reported a failure (`status: "error"` or a truthy `error`), else `ok`. */
  status: "ok" | "error";
}

/** Every tool call of every output message, in order. */
export function collectToolCalls(outputMessages: readonly OutputMessage[]): ObservedCall[] {
  return outputMessages.flatMap((m) =>
    (m.tool_calls ?? []).map((c) => ({
      tool: c.tool,
      input: c.input,
      output: c.output,
      duration_ms: c.duration_ms,
      status: isErrorCall(c) ? "error" as const : "ok" as const,
    }))
  );
}

/**
 * Why `call` does not satisfy the argument/output/status/duration constraints of `expected` (the
 * names are assumed equal), or `undefined` when it does. `args: any` matches any arguments;
 * `args` and `input` are both checked when both are given. `status` must equal the call's;
 * `max_duration_ms` needs a call duration: a call without one does not match, and the reason
 * says the trace has no duration.
 */
export function callMismatch(expected: ExpectedTool, call: ObservedCall): string | undefined {
  for (const key of ["args", "input"] as const) {
    const want = expected[key];
    if (want === undefined || (key === "args" && want === "any")) continue;
    if (call.input === undefined) return `${key}: the call has no input`;
    const problem = findPartialMismatch(want, call.input);
    if (problem !== undefined) return `${key} mismatch at ${problem}`;
  }
  if (expected.output !== undefined) {
    if (call.output === undefined) return "output: the call has no output";
    const problem = findPartialMismatch(expected.output, call.output);
    if (problem !== undefined) return `output mismatch at ${problem}`;
  }
  if (expected.status !== undefined && call.status !== expected.status) {
    return expected.status === "ok"
      ? "status: the call failed (expected it to succeed)"
      : "status: the call succeeded (expected it to fail)";
  }
  const max = expected.max_duration_ms;
  if (max !== undefined) {
    if (call.duration_ms === undefined) {
      return `max_duration_ms: the trace has no duration for this call (max ${max}ms cannot be checked)`;
    }
    if (call.duration_ms > max) return `took ${call.duration_ms}ms (max ${max}ms)`;
  }
  return undefined;
}

function anyOrder(config: ToolTrajectoryConfig, calls: ObservedCall[]) {
  const hits: string[] = [];
  const misses: string[] = [];
  const minimums = Object.entries(config.minimums ?? {});
  for (const [tool, required] of minimums) {
    const actual = calls.filter((c) => c.tool === tool).length;
    const line = `${tool}: called ${actual} times (required ≥${required})`;
    (actual >= required ? hits : misses).push(line);
  }
  // Optional `expected` items: each must be matched by a distinct call, in any order.
  const expected = config.expected ?? [];
  const assignment = matchAnyOrder(expected, calls);
  expected.forEach((item, i) => {
    if (assignment[i] !== -1) {
      hits.push(`Found ${item.tool} at position ${assignment[i]}`);
    } else {
      const sameName = calls.filter((c) => c.tool === item.tool);
      const why = sameName.length === 0
        ? "not called"
        : `${sameName.length} call(s) but none matched (${callMismatch(item, sameName[0])})`;
      misses.push(`Expected ${item.tool} (item ${i}): ${why}`);
    }
  });
  const checks = minimums.length + expected.length;
  if (checks === 0) return { score: 1, hits: ["No tool requirements specified"], misses };
  return { score: hits.length / checks, hits, misses };
}

/** Maximum bipartite matching of expected items to distinct calls (−1 = unmatched). */
function matchAnyOrder(expected: readonly ExpectedTool[], calls: readonly ObservedCall[]) {
  const owner = new Array<number>(calls.length).fill(-1);
  const fits = (i: number, j: number) =>
    calls[j].tool === expected[i].tool && callMismatch(expected[i], calls[j]) === undefined;
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < calls.length; j++) {
      if (seen[j] || !fits(i, j)) continue;
      seen[j] = true;
      if (owner[j] === -1 || tryAssign(owner[j], seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  expected.forEach((_, i) => tryAssign(i, new Array<boolean>(calls.length).fill(false)));
  const assignment = new Array<number>(expected.length).fill(-1);
  owner.forEach((i, j) => {
    if (i !== -1) assignment[i] = j;
  });
  return assignment;
}

function inOrder(expected: readonly ExpectedTool[], calls: ObservedCall[]) {
  if (expected.length === 0) return { score: 1, hits: ["No tool sequence specified"], misses: [] };
  const hits: string[] = [];
  const misses: string[] = [];
  let p = 0;
  expected.forEach((item, i) => {
    let firstProblem: string | undefined;
    let found = -1;
    for (let j = p; j < calls.length; j++) {
      if (calls[j].tool !== item.tool) continue;
      const problem = callMismatch(item, calls[j]);
      if (problem === undefined) {
        found = j;
        break;
      }
      firstProblem ??= `position ${j}: ${problem}`;
    }
    if (found !== -1) {
      hits.push(`Found ${item.tool} at position ${found}`);
      p = found + 1;
    } else if (firstProblem !== undefined) {
      misses.push(
        `Expected ${item.tool} at position ${i}: ${item.tool} found in the remaining trace ` +
          `but no call matched (${firstProblem})`,
      );
    } else {
      misses.push(`Expected ${item.tool} at position ${i}, not found in remaining trace`);
    }
  });
  return { score: hits.length / expected.length, hits, misses };
}

function exact(expected: readonly ExpectedTool[], calls: ObservedCall[]) {
  const hits: string[] = [];
  const misses: string[] = [];
  const e = expected.length;
  const a = calls.length;
  if (e !== a) misses.push(`Expected ${e} tool calls, got ${a}`);
  for (let i = 0; i < Math.max(e, a); i++) {
    const want = expected[i];
    const got = calls[i];
    if (want === undefined) {
      misses.push(`Position ${i}: unexpected extra call ${got.tool}`);
    } else if (got === undefined) {
      misses.push(`Position ${i}: expected ${want.tool}, got nothing`);
    } else if (got.tool !== want.tool) {
      misses.push(`Position ${i}: expected ${want.tool}, got ${got.tool}`);
    } else {
      const problem = callMismatch(want, got);
      if (problem === undefined) hits.push(`Position ${i}: ${want.tool}`);
      else misses.push(`Position ${i}: ${want.tool} mismatch (${problem})`);
    }
  }
  if (e === 0 && a === 0) return { score: 1, hits: ["No tool calls expected, none made"], misses };
  return { score: hits.length / Math.max(e, a), hits, misses };
}

/**
 * Scores the trace's tool calls. `any_order`: hits / number of checks (each `minimums` entry,
 * plus each `expected` item matched by a distinct call). `in_order`: hits / expected, where an
 * expected item is found by the first later call with the same name *and* matching arguments
 * (an item that is not found leaves the position unchanged, so later items can still match).
 * `exact`: hits / max(expected, actual), so extra calls lower the score. No output messages at
 * all → score 0 with a miss saying there is no trace.
 *
 * @example
 * ```ts ignore
 * const outcome = await evaluateToolTrajectory(
 *   { type: "tool_trajectory", name: "t", weight: 1, mode: "exact", expected: [{ tool: "search" }] },
 *   context,
 * );
 * ```
 */
export function evaluateToolTrajectory(
  config: ToolTrajectoryConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const calls = collectToolCalls(context.outputMessages);
  const details = { mode: config.mode, calls: calls.map((c) => c.tool) };
  if (context.outputMessages.length === 0) {
    return Promise.resolve(scoredOutcome(0, {
      hits: [],
      misses: [
        "No trace available for evaluation: the target returned no output messages " +
        "(use a target that reports tool calls, e.g. a cli agent writing output_messages)",
      ],
      details,
    }));
  }
  const expected = config.expected ?? [];
  const r = config.mode === "any_order"
    ? anyOrder(config, calls)
    : config.mode === "in_order"
    ? inOrder(expected, calls)
    : exact(expected, calls);
  return Promise.resolve(scoredOutcome(r.score, { hits: r.hits, misses: r.misses, details }));
}
