/**
 * A case's workspace from a repository at a pinned commit (`execution.workspace_repo`, or a
 * target's `workspace_repo`): where the repository is (`url`: a path relative to the file that
 * names it, or a remote URL), the full commit SHA checked out, and the setup commands run in the
 * fresh checkout before the agent starts (each an argv: no shell).
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";

/** A full commit SHA: 40 hexadecimal digits. */
export const FULL_SHA = /^[0-9a-fA-F]{40}$/;

/** The most setup commands a repository may name. */
export const MAX_SETUP_COMMANDS = 20;

const REPO_SHAPE = "workspace_repo must be a mapping {url, commit, setup?}, e.g. " +
  "{url: ../repos/calc, commit: <40-hex SHA>, setup: [[npm, ci]]}";

/** `workspace_repo`: `{url, commit, setup?}`, unknown keys refused. */
export const WorkspaceRepoSchema = z.strictObject({
  url: z.string({
    error: (i) =>
      i.input === undefined
        ? "missing url; add `url:` naming the repository (a folder inside the dataset root, relative to this file, or a remote URL such as https://github.com/org/repo.git)"
        : "url must be a string naming the repository (a path or a remote URL)",
  }).trim().min(1, { error: "url must not be empty; name the repository" }),
  commit: z.string({
    error: (i) =>
      i.input === undefined
        ? "missing commit; add `commit:` with the full 40-hex SHA to check out (git rev-parse HEAD prints it)"
        : `commit must be a string of 40 hexadecimal digits, found ${
          JSON.stringify(i.input)
        }; quote it in YAML`,
  }).regex(FULL_SHA, {
    error: (i) =>
      `commit '${
        String(i.input).slice(0, 60)
      }' is not a full commit SHA: expected 40 hexadecimal digits; a branch, tag or short SHA can move or become ambiguous, so run \`git rev-parse ${
        String(i.input).slice(0, 40) || "HEAD"
      }\` in the repository and paste the full SHA`,
  }),
  setup: z.array(
    z.array(z.string({ error: "setup command words must be strings" }), {
      error:
        "each setup command must be a list of words (argv, no shell), e.g. [npm, ci]; for a shell line write [sh, -c, 'npm ci && npm run build']",
    }).min(1, { error: "a setup command must not be empty; write its argv, e.g. [npm, ci]" }),
    { error: "setup must be a list of commands, each a list of words, e.g. [[npm, ci]]" },
  ).max(MAX_SETUP_COMMANDS, {
    error: `setup holds more than ${MAX_SETUP_COMMANDS} commands; put them in one script`,
  }).optional(),
}, { error: REPO_SHAPE });

/**
 * A case's repository: where it is, the commit checked out and the setup commands.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type WorkspaceRepo, WorkspaceRepoSchema } from "./workspace_repo.ts";
 * const repo: WorkspaceRepo = {
 *   url: "../repos/calc",
 *   commit: "5fc617818d9bda1aeef3d45515131a7a4287db1c",
 *   setup: [["npm", "ci"]],
 * };
 * assert.deepEqual(WorkspaceRepoSchema.parse(repo), repo);
 * ```
 */
export interface WorkspaceRepo {
  /** A path (relative to the file naming it) or a remote URL (`https://`, `ssh://`, `git@host:`). */
  url: string;
  /** The full 40-hex commit SHA checked out. */
  commit: string;
  /** Commands run in the checkout before the agent starts, each an argv (no shell). */
  setup?: string[][];
}

/** What a result row's `workspace.repo` records: the repository and the commit checked out. */
export const WorkspaceRepoRecordSchema = z.object({ url: z.string(), commit: z.string() });

// The explicit type must say exactly what the schema produces.
type _Checks = [Assert<Same<WorkspaceRepo, z.output<typeof WorkspaceRepoSchema>>>];
