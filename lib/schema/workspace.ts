/**
 * What a result row records about a case's workspace: the files the agent added, modified and
 * deleted, and a unified diff capped in size (written under the row's `workspace` key).
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import { WorkspaceRepoRecordSchema } from "./workspace_repo.ts";

/** The changes a target made in its workspace, as written under a row's `workspace` key. */
export const WorkspaceChangesSchema = z.object({
  template: z.string().nullable(),
  path: z.string().nullable(),
  added: z.array(z.string()),
  modified: z.array(z.string()),
  deleted: z.array(z.string()),
  diff: z.string(),
  diff_truncated: z.boolean(),
  repo: WorkspaceRepoRecordSchema.optional(),
});

/**
 * The changes a target made in its workspace (paths relative to the workspace, `/` separators,
 * sorted; `.git/` is left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type WorkspaceChanges, WorkspaceChangesSchema } from "./workspace.ts";
 * const changes: WorkspaceChanges = {
 *   template: "/repo/workspaces/calc",
 *   path: null,
 *   added: ["notes.md"],
 *   modified: [],
 *   deleted: [],
 *   diff: "--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1,1 @@\n+hello\n",
 *   diff_truncated: false,
 * };
 * assert.equal(WorkspaceChangesSchema.safeParse(changes).success, true);
 * ```
 */
export interface WorkspaceChanges {
  /** Absolute path of the `workspace_template` copied in, `null` for an empty workspace. */
  template: string | null;
  /** Where the workspace was kept (`--keep-workspaces`), `null` when it was deleted. */
  path: string | null;
  /** Files that exist now and did not before. */
  added: string[];
  /** Files whose bytes changed. */
  modified: string[];
  /** Files that existed before and are gone. */
  deleted: string[];
  /** Unified diff of every change (binary files named only), cut at the size cap. */
  diff: string;
  /** Whether `diff` was cut at the cap (it then ends with a line saying so). */
  diff_truncated: boolean;
  /**
   * The repository and commit the workspace was checked out from (`workspace_repo`); the changes
   * are relative to that commit (after its setup commands).
   */
  repo?: { url: string; commit: string };
}

// The explicit type must say exactly what the schema produces.
type _Checks = [Assert<Same<WorkspaceChanges, z.output<typeof WorkspaceChangesSchema>>>];
