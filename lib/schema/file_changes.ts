/**
 * The `file_changes` evaluator's schema: expected items (one file, or a glob of files, that the
 * agent must have added, modified, deleted or just changed in its workspace, with optional
 * content checks), and `allow_other_changes`. `evaluator.ts` adds it to the evaluator union.
 *
 * @module
 */
import { z } from "zod";
import { linearRegexProblem, SUPPORTED_REGEX_FLAGS } from "../text/linear_regex.ts";
import type { Assert, Same } from "./_type_check.ts";
import { evaluatorCommon, withName } from "./evaluator_common.ts";
import type { FileChangesConfig } from "./evaluator_types.ts";

/** How a file must have changed: `changed` accepts any of the other three. */
export const FILE_CHANGE_KINDS = ["added", "modified", "deleted", "changed"] as const;

/** How a file must have changed (`changed`: added, modified or deleted). */
export type FileChangeKind = "added" | "modified" | "deleted" | "changed";

/** One expected change of a `file_changes` evaluator. */
export const ExpectedFileChangeSchema = z.strictObject({
  path: z.string({ error: "path must be a string: a workspace-relative path or glob" })
    .min(1, { error: "path must not be empty" })
    .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), {
      error: "path must be relative to the workspace (no leading '/' and no '..')",
    }),
  change: z.enum(FILE_CHANGE_KINDS, {
    error: (i) =>
      `change '${String(i.input)}' is not supported; expected one of ${
        FILE_CHANGE_KINDS.join(", ")
      }`,
  }).default("changed"),
  contains: z.union([
    z.string().min(1, { error: "contains must not be empty" }),
    z.array(z.string().min(1, { error: "contains must not hold an empty string" })).min(1, {
      error: "contains must list at least one string",
    }),
  ], { error: "contains must be a string or a list of strings" }).optional(),
  regex: z.string({ error: "regex must be a string" }).min(1).optional(),
  flags: z.string().regex(/^[dgimsuy]*$/, {
    error: `flags may only contain ${SUPPORTED_REGEX_FLAGS}`,
  }).optional(),
}).superRefine((v, ctx) => {
  if (v.change === "deleted" && (v.contains !== undefined || v.regex !== undefined)) {
    ctx.addIssue({
      code: "custom",
      message: "a deleted file has no content to check; remove `contains` / `regex`",
    });
  }
  if (v.regex !== undefined) {
    const problem = linearRegexProblem(v.regex, v.flags);
    if (problem !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["regex"],
        message: `regex cannot be used: ${problem}`,
      });
    }
  }
});

/**
 * One expected change of a `file_changes` evaluator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type ExpectedFileChange, ExpectedFileChangeSchema } from "./file_changes.ts";
 * const item: ExpectedFileChange = { path: "src/add.ts", change: "modified", contains: "a + b" };
 * assert.equal(ExpectedFileChangeSchema.safeParse(item).success, true);
 * ```
 */
export interface ExpectedFileChange {
  /**
   * Workspace-relative path with `/` separators, or a glob (`*`, `**`, `?`, `{a,b}`, `[...]`):
   * a glob item is met when any matching file changed the expected way (and passes the content
   * checks).
   */
  path: string;
  /** How the file must have changed (default `changed`: added, modified or deleted). */
  change: FileChangeKind;
  /** Text (or every text of a list) the file must contain after the run (case-sensitive). */
  contains?: string | string[];
  /** Linear-time regular expression the file's content must match after the run. */
  regex?: string;
  /** Flags of `regex`. */
  flags?: string;
}

/**
 * `file_changes`: the files the target changed in its workspace; with `allow_other_changes:
 * false` every other changed file is a miss.
 */
export const FileChangesSchema = z.strictObject({
  type: z.literal("file_changes"),
  ...evaluatorCommon,
  expected: z.array(ExpectedFileChangeSchema, {
    error: "expected must be a list of {path, change?, contains?, regex?}",
  }).min(1, { error: "expected must list at least one file" }),
  allow_other_changes: z.boolean({ error: "allow_other_changes must be true or false" })
    .default(true),
}).transform(withName);

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<FileChangesConfig, z.output<typeof FileChangesSchema>>>,
  Assert<Same<ExpectedFileChange, z.output<typeof ExpectedFileChangeSchema>>>,
  Assert<Same<FileChangeKind, z.output<typeof ExpectedFileChangeSchema>["change"]>>,
];
