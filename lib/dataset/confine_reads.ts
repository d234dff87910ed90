/**
 * Defence in depth for the sandbox worker: Deno checks read permission on the path as given, not
 * on a symlink's target, so a symlink inside the dataset root that points outside would pass the
 * runtime's check. {@link confineReads} wraps Deno's file-reading functions so that every path is
 * resolved (realpath) first and refused when it leaves the root. Only call it inside a worker.
 *
 * @module
 */
import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Whether `path` is `dir` or below it. */
function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

let confinedTo: string[] | undefined;

/**
 * Wraps `Deno.readFile`, `readTextFile`, `open` and `stat` (and their sync forms) so that a path
 * whose real location is outside `root` is refused with `NotCapable`, symlinks included. The
 * files in `alsoRead` (named by the user, e.g. `--targets`) may be read too, and nothing beside.
 */
export function confineReads(root: string, alsoRead: readonly string[] = []): void {
  if (confinedTo) return;
  const roots = [root];
  const files = new Set<string>();
  for (const file of alsoRead) {
    files.add(file);
    try {
      files.add(Deno.realPathSync(file));
    } catch {
      // missing: reading it fails anyway
    }
  }
  try {
    roots.push(Deno.realPathSync(root));
  } catch {
    // a missing root: every read fails anyway
  }
  confinedTo = roots;
  const check = (path: string | URL) => {
    const given = path instanceof URL ? fileURLToPath(path) : String(path);
    let real: string;
    try {
      real = Deno.realPathSync(given);
    } catch {
      return; // does not exist or not permitted: the real call reports it
    }
    if (!files.has(real) && !roots.some((r) => isInside(real, r))) {
      throw new Deno.errors.NotCapable(
        `Refused to read "${given}": it resolves to "${real}", outside the dataset root "${root}"`,
      );
    }
  };
  const deno = Deno as unknown as Record<string, unknown>;
  for (const name of ["readFile", "readTextFile", "open", "stat"]) {
    const original = deno[name] as (path: string | URL, ...rest: unknown[]) => Promise<unknown>;
    deno[name] = (path: string | URL, ...rest: unknown[]) => {
      try {
        check(path);
      } catch (error) {
        return Promise.reject(error);
      }
      return original(path, ...rest);
    };
    const syncName = `${name}Sync`;
    const originalSync = deno[syncName] as (path: string | URL, ...rest: unknown[]) => unknown;
    deno[syncName] = (path: string | URL, ...rest: unknown[]) => {
      check(path);
      return originalSync(path, ...rest);
    };
  }
}
