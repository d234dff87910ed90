/**
 * `agentv trust --include GLOB`: the files under a dataset root that a glob matches, with their
 * SHA-256. A script that sources or imports other files (`source lib/common.sh`, `import helpers`)
 * is hashed itself but its imports are not (agentv cannot know them): `--include 'lib/**'` adds
 * them to what the trust covers, so editing one asks again.
 *
 * @module
 */
import { join, relative } from "node:path";
import { globProblem, loadGlobs, matchGlob } from "../text/glob.ts";
import { hashConfinedFile } from "./named_files.ts";
import { UsageError } from "../errors/agentv_error.ts";

/** Most files `--include` may match (a glob matching more is a mistake). */
export const MAX_INCLUDED_FILES = 10_000;

/** Folders never walked: version control and agentv's own output. */
const SKIPPED = new Set([".git", "node_modules"]);

/**
 * The regular files under `root` whose path relative to it (with `/`) matches one of `globs`,
 * each with its SHA-256, by absolute path. Links that lead outside the root, FIFOs and devices
 * are left out. Throws a `UsageError` for an invalid glob or one matching more than
 * {@link MAX_INCLUDED_FILES} files.
 *
 * @example
 * ```ts ignore
 * const hashes = await hashIncluded("/repo", ["judges/lib/**"]);
 * ```
 */
export async function hashIncluded(
  root: string,
  globs: readonly string[],
): Promise<Record<string, string>> {
  await loadGlobs(globs);
  for (const glob of globs) {
    const problem = globProblem(glob);
    if (problem !== undefined) {
      throw new UsageError(`--include: ${problem}`, "e.g. --include 'judges/lib/**'");
    }
  }
  const out: Record<string, string> = {};
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!SKIPPED.has(entry.name) && !(dir === root && entry.name === ".agentv")) {
          await walk(path);
        }
        continue;
      }
      const rel = relative(root, path).replaceAll("\\", "/");
      if (!globs.some((g) => matchGlob(g, rel))) continue;
      if (++count > MAX_INCLUDED_FILES) {
        throw new UsageError(
          `--include matches more than ${MAX_INCLUDED_FILES} files`,
          "name the folders a script imports from, e.g. --include 'judges/lib/**'",
        );
      }
      const sha256 = await hashConfinedFile(path, root);
      if (sha256 !== undefined) out[path] = sha256;
    }
  };
  await walk(root);
  return out;
}
