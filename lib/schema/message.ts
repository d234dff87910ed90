/**
 * Messages as written in eval files (`input`, `expected_output` and their aliases) and as
 * normalised on an {@link EvalCase}.
 *
 * @module
 */
import { z } from "zod";

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

/** A tool call (expected or observed). */
export type ToolCall = z.infer<typeof ToolCallSchema>;

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
  role: z.enum(ROLES, { error: "role must be one of system, user, assistant, tool" }),
  content: RawContentSchema.optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  name: z.string().optional(),
}).superRefine((m, ctx) => {
  if (m.content === undefined && (m.tool_calls === undefined || m.tool_calls.length === 0)) {
    ctx.addIssue({
      code: "custom",
      message: "message has neither content nor tool_calls; add `content:` or `tool_calls:`",
    });
  }
});

/** A message as written in an eval file. */
export type RawMessage = z.input<typeof RawMessageSchema>;

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

/** A content segment on a normalised message. */
export type Segment = z.infer<typeof SegmentSchema>;

/** A normalised message on an {@link EvalCase}: file segments carry `path` and `text`. */
export const MessageSchema = z.object({
  role: z.enum(ROLES),
  content: z.union([z.string(), z.array(SegmentSchema), z.record(z.string(), z.unknown())])
    .optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  name: z.string().optional(),
});

/** A normalised message: `{role, content?, tool_calls?, name?}`. */
export type Message = z.infer<typeof MessageSchema>;
