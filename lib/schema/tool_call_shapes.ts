/**
 * Tool calls written by hand (mock `tool_calls`) or by an agent (CLI output) in the shapes people
 * actually use, normalised to the trace's `{tool, input?, output?, id?}`:
 *
 * - `{tool, input}` (the trace's own shape);
 * - `{tool | name, args}` and `{tool | name, arguments}` (`arguments` may be a JSON string);
 * - OpenAI's `{id, type: "function", function: {name, arguments: "<json string>"}}`.
 *
 * Anything else that would lose the call's name or arguments is an error naming the key and the
 * shape that was expected, so a trace never holds calls whose arguments were dropped silently.
 *
 * @module
 */
import { z } from "zod";

/** The shapes a tool call may have, for error messages. */
export const TOOL_CALL_SHAPES =
  "{tool, input?, output?, id?} (also {tool, args} / {tool, arguments} or OpenAI's {id, type: function, function: {name, arguments}})";

/** A tool call normalised to the trace's shape; other keys are kept. */
export interface NormalizedToolCall {
  /** Tool name. */
  tool: string;
  /** Arguments (any JSON value). */
  input?: unknown;
  /** Other keys (output, id, timestamp, ...) are kept. */
  [key: string]: unknown;
}

/** Why a tool call could not be understood: the key at fault (relative to the call) and why. */
export interface ToolCallShapeProblem {
  /** Path of the offending key inside the call (empty for the call itself). */
  path: (string | number)[];
  /** What is wrong and what was expected. */
  message: string;
}

/** The result of {@link normalizeToolCall}. */
export type ToolCallShapeResult =
  | { ok: true; call: NormalizedToolCall }
  | { ok: false; problem: ToolCallShapeProblem };

const ARGUMENT_KEYS = ["input", "args", "arguments"] as const;

/**
 * Normalises one tool call to `{tool, input?, ...}` (see the module doc), or says why it cannot.
 * `args`/`arguments` become `input`; a string `arguments` is parsed as JSON; `name` stands for
 * `tool` when `tool` is absent; OpenAI's `function` wrapper is unwrapped. Giving the arguments
 * twice (`input` and `args`, say) is an error, as is a call without a tool name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeToolCall } from "./tool_call_shapes.ts";
 * assert.deepEqual(
 *   normalizeToolCall({ id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }),
 *   { ok: true, call: { tool: "search", input: { q: "x" }, id: "c1" } },
 * );
 * ```
 */
export function normalizeToolCall(raw: unknown): ToolCallShapeResult {
  const fail = (path: (string | number)[], message: string): ToolCallShapeResult => ({
    ok: false,
    problem: { path, message },
  });
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return fail([], `a tool call must be a mapping ${TOOL_CALL_SHAPES}`);
  }
  const { function: fn, ...rest } = raw as Record<string, unknown>;
  if (fn !== undefined) {
    if (fn === null || typeof fn !== "object" || Array.isArray(fn)) {
      return fail(
        ["function"],
        "function must be {name, arguments} as in OpenAI's tool calls",
      );
    }
    const inner = fn as Record<string, unknown>;
    for (const key of ["tool", "name", ...ARGUMENT_KEYS]) {
      if (rest[key] !== undefined) {
        return fail(
          [key],
          `a tool call has both '${key}' and an OpenAI 'function' wrapper; use one shape: ${TOOL_CALL_SHAPES}`,
        );
      }
    }
    if (typeof inner.name !== "string" || inner.name.length === 0) {
      return fail(["function", "name"], "function.name must name the tool");
    }
    const { type, ...others } = rest;
    if (type !== undefined && type !== "function") {
      return fail(["type"], `type must be 'function' for an OpenAI tool call, not ${show(type)}`);
    }
    const call: NormalizedToolCall = { tool: inner.name, ...others };
    if (inner.arguments !== undefined) {
      const input = parseArgumentsText(inner.arguments);
      if (!input.ok) return fail(["function", "arguments"], input.message);
      call.input = input.value;
    }
    return { ok: true, call: order(call) };
  }
  const given = ARGUMENT_KEYS.filter((key) => rest[key] !== undefined);
  if (given.length > 1) {
    return fail(
      [given[1]],
      `a tool call gives its arguments twice ('${given[0]}' and '${
        given[1]
      }'); keep one, preferably 'input'`,
    );
  }
  const { tool, name, input, args, arguments: argumentsValue, ...others } = rest;
  const toolName = tool !== undefined ? tool : name;
  if (typeof toolName !== "string" || toolName.length === 0) {
    const key = tool !== undefined || name === undefined ? "tool" : "name";
    return fail(
      tool === undefined && name === undefined ? [] : [key],
      `a tool call must name the tool with a non-empty string 'tool'; expected ${TOOL_CALL_SHAPES}`,
    );
  }
  const call: NormalizedToolCall = { tool: toolName, ...others };
  // `name` is the tool's name only when `tool` is absent; otherwise it is kept as an extra key.
  if (tool !== undefined && name !== undefined) call.name = name;
  if (input !== undefined) call.input = input;
  else if (args !== undefined) call.input = args;
  else if (argumentsValue !== undefined) {
    const parsed = parseArgumentsText(argumentsValue);
    if (!parsed.ok) return fail(["arguments"], parsed.message);
    call.input = parsed.value;
  }
  return { ok: true, call: order(call) };
}

function parseArgumentsText(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof value !== "string") return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return {
      ok: false,
      message:
        "arguments is a string that is not JSON; give the arguments as a mapping under 'input', or as a JSON string",
    };
  }
}

/** `tool` and `input` first, as in the trace; other keys in their order. */
function order(call: NormalizedToolCall): NormalizedToolCall {
  const { tool, input, ...others } = call;
  return { tool, ...(input !== undefined ? { input } : {}), ...others };
}

function show(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : JSON.stringify(value) ?? String(value);
}

/**
 * A list of tool calls written by hand (a mock target's `tool_calls`): each call normalised by
 * {@link normalizeToolCall}, or an issue at the offending key.
 */
export const ToolCallsSchema = z.array(
  z.unknown().transform((raw, ctx) => {
    const result = normalizeToolCall(raw);
    if (result.ok) return result.call;
    ctx.issues.push({
      code: "custom",
      message: `tool_calls: ${result.problem.message}`,
      input: raw,
      path: result.problem.path,
    });
    return z.NEVER;
  }).pipe(z.looseObject({
    tool: z.string({ error: "tool_calls[].tool must name the tool" }).min(1),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    id: z.string({ error: "tool_calls[].id must be a string" }).optional(),
  })),
  { error: `tool_calls must be a list of ${TOOL_CALL_SHAPES}` },
);
