/**
 * What a module judge may read of a folder (the dataset root, a case's workspace): everything
 * in it except the files that hold secrets or agentv's own state, `.env*` (at any depth),
 * `.agentv/cache/` and `.agentv/targets.*`, and except symlinks that lead to those.
 *
 * Deno's permissions list what is allowed, so the scope is an allow-list: the folder itself
 * when nothing in it is denied, else its entries one by one, each folder that holds a denied
 * path opened up the same way. The root and its `.agentv/` are always listed entry by entry,
 * so a `.env` or targets file created there later is not readable either. The judge host
 * process also gets the denied paths as `--deny-read`.
 *
 * Deno checks read permission on the path as given, not on a symlink's target, so a folder
 * holding a symlink that leads outside it is refused (`leaving`).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { isInside } from "../fs/resolve.ts";

/** What a judge may read of one folder. */
export interface ReadScope {
  /** The folder (real path). */
  root: string;
  /** Paths the judge may read (each with everything under it). */
  allow: string[];
  /** Paths the judge may not read (present ones, and the fixed names under the root). */
  denied: string[];
  /** Symlinks that lead outside the folder (`link -> target`), at most five. */
  leaving: string[];
}

/** Whether `name` (an entry of folder `dir`) is denied to judges. */
function deniedName(dir: string, name: string): boolean {
  if (name.startsWith(".env")) return true;
  return basename(dir) === ".agentv" && (name === "cache" || name.startsWith("targets."));
}

/**
 * Whether `path` is denied to judges by its name alone (`.env*` anywhere, `.agentv/cache/…`,
 * `.agentv/targets.*`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDeniedPath } from "./judge_read_scope.ts";
 * assert.equal(isDeniedPath("/data/.env.local"), true);
 * assert.equal(isDeniedPath("/data/.agentv/cache/ab/cd.json"), true);
 * assert.equal(isDeniedPath("/data/judges/len.ts"), false);
 * ```
 */
export function isDeniedPath(path: string): boolean {
  let dir = dirname(path);
  let name = basename(path);
  while (name !== "" && dir !== path) {
    if (deniedName(dir, name)) return true;
    path = dir;
    name = basename(dir);
    dir = dirname(dir);
  }
  return false;
}

interface Walk {
  entries: Map<string, string[]>;
  denied: string[];
  links: { path: string; target: string }[];
  leaving: string[];
}

async function walk(root: string): Promise<Walk> {
  const found: Walk = { entries: new Map(), denied: [], links: [], leaving: [] };
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue;
    }
    found.entries.set(dir, entries.map((e) => e.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (deniedName(dir, entry.name)) found.denied.push(path);
      else if (entry.isDirectory) stack.push(path);
      else if (entry.isSymlink) {
        const target = await Deno.realPath(path).catch(() => undefined);
        if (target === undefined) continue;
        if (!isInside(target, root)) {
          if (found.leaving.length < 5) found.leaving.push(`${path} -> ${target}`);
        } else found.links.push({ path, target });
      }
    }
  }
  return found;
}

/** The allow-list: `dir` whole unless it must be opened (it holds a denied path). */
function allowList(dir: string, open: Set<string>, found: Walk, denied: Set<string>): string[] {
  if (!open.has(dir)) return [dir];
  const out: string[] = [];
  for (const name of found.entries.get(dir) ?? []) {
    const path = join(dir, name);
    if (!denied.has(path)) out.push(...allowList(path, open, found, denied));
  }
  return out;
}

/**
 * The read scope of `folder` (see the module doc). Walks the whole folder once.
 *
 * @example
 * ```ts ignore
 * const scope = await judgeReadScope("/data");
 * scope.allow; // ["/data/judges", "/data/evals", "/data/.agentv/results", ...]
 * ```
 */
export async function judgeReadScope(folder: string): Promise<ReadScope> {
  const root = await Deno.realPath(folder);
  const found = await walk(root);
  // A link to a denied path, into one, or to a folder holding one, is denied too.
  for (const link of found.links) {
    const leads = found.denied.some((d) => isInside(link.target, d) || isInside(d, link.target));
    if (leads || isDeniedPath(link.target)) found.denied.push(link.path);
  }
  const fixed = [".env", ".agentv/cache", ".agentv/targets.yaml", ".agentv/targets.yml"]
    .map((p) => join(root, p));
  const denied = new Set([...found.denied, ...fixed]);
  const open = new Set([root, join(root, ".agentv")]);
  for (const path of denied) {
    for (let dir = dirname(path); isInside(dir, root) && !open.has(dir); dir = dirname(dir)) {
      open.add(dir);
    }
  }
  return {
    root,
    allow: allowList(root, open, found, denied),
    denied: [...denied],
    leaving: found.leaving,
  };
}
