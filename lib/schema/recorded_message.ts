/**
 * The question a result row carries (`input`, `expected_output`): each message of the case as it
 * was sent, a file it referenced by its reference as written, size and SHA-256, with its text when
 * small (see `lib/results/case_question.ts`).
 *
 * @module
 */
import { z } from "zod";
import { type ToolCall, ToolCallSchema } from "./message.ts";
import type { Assert, Same } from "./_type_check.ts";

/**
 * A file a message of a row's `input` or `expected_output` referenced, as the row records it: the
 * reference as written, its size and SHA-256, and its text when it is small (16 KiB or less).
 */
export const RecordedFileSchema = z.looseObject({
  type: z.literal("file"),
  value: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  text: z.string().optional(),
  guideline: z.boolean().optional(),
});

/** A file a recorded message referenced (see {@link RecordedMessage}). */
export interface RecordedFile {
  /** Always `file`. */
  type: "file";
  /** The reference as written in the eval file (never the absolute path it resolved to). */
  value: string;
  /** Size of the text sent, in UTF-8 bytes. */
  bytes: number;
  /** Lower-case hex SHA-256 of those bytes. */
  sha256: string;
  /** The text sent, when it is 16 KiB or less (else the file is recorded by size and hash). */
  text?: string;
  /** Set when the file is a guideline (prepended to the prompt). */
  guideline?: boolean;
  /** Other keys are kept. */
  [key: string]: unknown;
}

/**
 * A message of a case's input or expected output as a row records it: its content as the case
 * has it, each file segment a {@link RecordedFile}.
 */
export const RecordedMessageSchema = z.looseObject({
  role: z.string(),
  name: z.string().optional(),
  content: z.unknown().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
});

/** A message of a case's input or expected output as a row records it. */
export interface RecordedMessage {
  /** Who speaks (`system`, `user`, `assistant`, `tool`). */
  role: string;
  /** Speaker name. */
  name?: string;
  /**
   * Text, a structured value, or segments (`{type: "text", value}`, a {@link RecordedFile}, or
   * another segment as written).
   */
  content?: unknown;
  /** Tool calls of the message. */
  tool_calls?: ToolCall[];
  /** Other keys are kept. */
  [key: string]: unknown;
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<RecordedFile, z.output<typeof RecordedFileSchema>>>,
  Assert<Same<RecordedMessage, z.output<typeof RecordedMessageSchema>>>,
];
