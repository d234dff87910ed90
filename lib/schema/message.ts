/**
 * Messages as written in eval files (`input`, `expected_output` and their aliases) and as
 * normalised on an {@link EvalCase}.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";

/** The roles a message may have. */
export const ROLES = ["system", "user", "assistant", "tool"] as const;

/** A tool call inside an assistant message: `{tool, input?, output?, id?}`; extra keys kept. */
export const ToolCallSchema = z.looseObject({
  tool: z.string({ error: "tool must be a string naming the tool" }).min(1, {
    error: "tool must not be empty",
  }),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  id: z.string().optional(),
  timestamp: z.string().optional(),
  duration_ms: z.number().optional(),
}).describe("A tool call: `tool` names the tool, `input` holds its arguments (any JSON value)");

/** A tool call (expected or observed): `input` holds the arguments; other keys are kept. */
export interface ToolCall {
  /** Tool name. */
  tool: string;
  /** Arguments (any JSON value). */
  input?: unknown;
  /** Result (any JSON value). */
  output?: unknown;
  /** Call id. */
  id?: string;
  /** ISO time. */
  timestamp?: string;
  /** Duration of the call in ms. */
  duration_ms?: number;
  /** Other keys are kept. */
  [key: string]: unknown;
}

/** `{type: text, value}` content segment. */
export const TextSegmentSchema = z.strictObject({
  type: z.literal("text"),
  value: z.string({ error: "value of a text segment must be a string" }),
});

/** `{type: file, value}` content segment: a file reference resolved by the loader. */
export const FileSegmentSchema = z.strictObject({
  type: z.literal("file"),
  value: z.string({ error: "value of a file segment must be a path string" }).min(1, {
    error: "value of a file segment must not be empty",
  }),
});

/** Any other segment mapping with a `type`: kept verbatim (e.g. `image_url`). */
export const OtherSegmentSchema = z.looseObject({ type: z.string() });

/** One element of an array `content`. */
export const RawSegmentSchema = z.union([TextSegmentSchema, FileSegmentSchema, OtherSegmentSchema]);

/** Message content in a file: text, a structured object, or an array of segments. */
export const RawContentSchema = z.union([
  z.string(),
  z.array(RawSegmentSchema),
  z.record(z.string(), z.unknown()),
], {
  error: "content must be a string, an array of segments or an object",
});

/** A message as written in an eval file. */
export const RawMessageSchema = z.strictObject({
  role: z.enum(ROLES, {
    error: (i) =>
      i.input === undefined
        ? "missing role; a message needs `role:` (system, user, assistant or tool); in a list of messages every item is a message"
        : "role must be one of system, user, assistant, tool",
  }),
  content: RawContentSchema.optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  name: z.string().optional(),
}).refine(
  // A plain predicate (not superRefine): the compiled fast parser then allocates nothing for it.
  (m) => m.content !== undefined || (m.tool_calls !== undefined && m.tool_calls.length > 0),
  { message: "message has neither content nor tool_calls; add `content:` or `tool_calls:`" },
);

/** A message as written in an eval file. */
export type RawMessage = z.input<typeof RawMessageSchema>;

/** Whether `value` is a mapping with a `role` key (a message, or an attempt at one). */
export function hasRole(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && "role" in value;
}

/**
 * An `expected_output` list whose items are not messages (no `role`, e.g. extracted records):
 * structured content, one assistant message whose content is the list. A list that starts with
 * a message is a list of messages instead; a data list with an item that has a `role` is
 * rejected at that item (a list is all messages or all data). Zod cannot export the item rule,
 * so the JSON Schema gets it from `meta`.
 */
export const StructuredListSchema = z.array(z.unknown()).min(1).superRefine((items, ctx) => {
  if (hasRole(items[0])) {
    // Aborting issues, so a union reports the branch that fits best rather than this one.
    ctx.addIssue({
      code: "custom",
      message: "the list starts with a message",
      input: items,
      continue: false,
    });
    return;
  }
  items.forEach((item, index) => {
    if (!hasRole(item)) return;
    ctx.addIssue({
      code: "custom",
      path: [index, "role"],
      input: item,
      continue: false,
      message:
        `expected_output[${index}] has a role but expected_output[0] does not: a list is either all messages ({role, content}) or all data items (structured content); remove the role or make every item a message`,
    });
  });
}).meta({ items: { not: { type: "object", required: ["role"] } } });

/** A resolved file segment on a normalised message. `path` is absolute; `text` its content. */
export const ResolvedFileSegmentSchema = z.object({
  type: z.literal("file"),
  value: z.string(),
  path: z.string(),
  text: z.string(),
  guideline: z.boolean().optional(),
});

/** A content segment on a normalised message. */
export const SegmentSchema = z.union([
  TextSegmentSchema,
  ResolvedFileSegmentSchema,
  z.looseObject({ type: z.string() }),
]);

/** `{type: "text", value}` segment. */
export interface TextSegment {
  /** Always `text`. */
  type: "text";
  /** The text. */
  value: string;
}

/** A resolved file reference: `path` is absolute, `text` the file's content. */
export interface ResolvedFileSegment {
  /** Always `file`. */
  type: "file";
  /** The reference as written. */
  value: string;
  /** Absolute path of the file. */
  path: string;
  /** The file's text (CRLF normalised to LF). */
  text: string;
  /** Set when the file is a guideline (prepended to the prompt). */
  guideline?: boolean;
}

/** Any other segment, kept verbatim. */
export interface OtherSegment {
  /** Segment type. */
  type: string;
  /** Other keys are kept. */
  [key: string]: unknown;
}

/** A content segment on a normalised message. */
export type Segment = TextSegment | ResolvedFileSegment | OtherSegment;

/** A normalised message on an {@link EvalCase}: file segments carry `path` and `text`. */
export const MessageSchema = z.object({
  role: z.enum(ROLES),
  content: z.union([
    z.string(),
    z.array(SegmentSchema),
    z.record(z.string(), z.unknown()),
    z.array(z.unknown()),
  ]).optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  name: z.string().optional(),
});

/** A normalised message: `{role, content?, tool_calls?, name?}`. */
export interface Message {
  /** Who speaks. */
  role: "system" | "user" | "assistant" | "tool";
  /**
   * Text, segments, or structured content: an object, or (on an expected message written as an
   * `expected_output` list of non-messages) the list as written.
   */
  content?: string | Segment[] | Record<string, unknown> | unknown[];
  /** Tool calls (expected messages). */
  tool_calls?: ToolCall[];
  /** Speaker name. */
  name?: string;
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<ToolCall, z.output<typeof ToolCallSchema>>>,
  Assert<Same<Segment, z.output<typeof SegmentSchema>>>,
  Assert<Same<Message, z.output<typeof MessageSchema>>>,
];
