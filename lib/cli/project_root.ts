/**
 * The project root a command works in when it names none: the nearest folder at or above the
 * working directory that holds `.agentv/` or `.git` (where `.agentv/results/`,
 * `.agentv/labels.jsonl` and `.agentv/history.sqlite` live), else the working directory.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../errors/agentv_error.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The project root of `cwd` (see the module doc), or `given` (`--root`) resolved from `cwd`.
 *
 * @example
 * ```ts ignore
 * await projectRoot("/repo/evals"); // "/repo" when /repo/.git exists
 * ```
 */
export async function projectRoot(cwd: string, given?: unknown): Promise<string> {
  if (given !== undefined) {
    if (typeof given !== "string" || given.trim() === "") {
      throw new UsageError("--root must name a folder", "e.g. --root .");
    }
    return resolve(cwd, given);
  }
  let dir = resolve(cwd);
  while (true) {
    if (await exists(join(dir, ".agentv")) || await exists(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}
