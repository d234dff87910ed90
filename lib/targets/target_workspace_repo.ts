/**
 * A target's `workspace_repo` (each case of the target runs in a checkout of the repository at the
 * commit, unless the case names a workspace of its own): the repository as written, the folder its
 * `url` is relative to (the targets file's), and the consent its setup commands need
 * (`workspace_setup`, placed at `workspace_repo.setup[i]`; one definition: `setupCommands`).
 *
 * @module
 */
import { resolve } from "node:path";
import { setupCommands } from "../dataset/dataset_commands.ts";
import type { UsedEnvRef } from "../dataset/env.ts";
import { TargetConfigError } from "../dataset/targets_errors.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import type { TargetNeed } from "./target_needs.ts";

/** What a target's `workspace_repo` gives it. */
export interface TargetWorkspaceRepo {
  /** The repository, with the folder its `url` is relative to (absent without one). */
  workspaceRepo?: { repo: WorkspaceRepo; baseDir: string };
  /** The needs of its setup commands. */
  needs: TargetNeed[];
}

/**
 * The `workspace_repo` of a target's checked settings. A `${{ VAR }}` inside it is refused (its
 * setup commands are listed for consent as written, and a value could be a secret), and so is a
 * target that names both `workspace_repo` and `workspace_template`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetWorkspaceRepo } from "./target_workspace_repo.ts";
 * const repo = { url: "../repo", commit: "a".repeat(40), setup: [["npm", "ci"]] };
 * const found = targetWorkspaceRepo("t", { workspace_repo: repo }, [], "/data/.agentv");
 * assert.deepEqual(found.needs[0].at, ["workspace_repo", "setup", 0]);
 * assert.equal(found.workspaceRepo?.baseDir, "/data/.agentv");
 * ```
 */
export function targetWorkspaceRepo(
  name: string,
  settings: Record<string, unknown>,
  used: readonly UsedEnvRef[],
  targetsFileDir: string | undefined,
): TargetWorkspaceRepo {
  const repo = settings.workspace_repo as WorkspaceRepo | undefined;
  if (repo === undefined) return { needs: [] };
  if (used.some((ref) => ref.path[0] === "workspace_repo")) {
    throw new TargetConfigError(`Target '${name}': workspace_repo cannot use \${{ }} references`, {
      target: name,
      hint: "write the repository, commit and setup commands as they are; a private remote " +
        "repository takes its credentials from git's own configuration",
    });
  }
  if (settings.workspace_template !== undefined) {
    throw new TargetConfigError(
      `Target '${name}' names both workspace_repo and workspace_template`,
      { target: name, hint: "keep one: a repository at a commit, or a folder copied" },
    );
  }
  return {
    workspaceRepo: { repo, baseDir: resolve(targetsFileDir ?? ".") },
    needs: setupCommands(repo).map(({ need, index }) => ({
      need,
      at: ["workspace_repo", "setup", index],
    })),
  };
}
