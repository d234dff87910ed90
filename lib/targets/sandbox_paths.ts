/**
 * The host paths a sandbox hides and the ones a program needs to run in it: the homes, `/run` and
 * `/var/tmp` hidden; a program's install folder (an npm package's `node_modules`, else its own
 * folder) and the `PATH` folders inside a hidden home made readable.
 *
 * @module
 */
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { findExecutable } from "./sandbox_policy.ts";

/** Hidden when they exist: user homes, runtime sockets (Docker's among them), the other temp. */
const HIDDEN = ["/home", "/root", "/run", "/var/tmp"];

/** Whether `path` is `dir` or inside it. */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function existingDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** `path` with its links resolved, or as it is when that fails. */
export function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** The folders to hide: the standard ones, the process's `$HOME` and agentv's own. */
export function hiddenRoots(env: Readonly<Record<string, string>>): string[] {
  let own: string | undefined;
  try {
    own = Deno.env.get("HOME");
  } catch { /* not permitted */ }
  const homes = [env.HOME, own].filter((h): h is string =>
    h !== undefined && isAbsolute(h) && resolve(h) !== "/"
  );
  return [...new Set([...HIDDEN, ...homes.map((h) => resolve(h))])].filter(existingDir);
}

/**
 * The folder an executable needs readable: the outermost `node_modules` holding it (an npm
 * package and its sibling packages, e.g. Codex's platform binary), else its own folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { installRoot } from "./sandbox_paths.ts";
 * assert.equal(
 *   installRoot("/home/u/.cache/tools/node_modules/@openai/codex/bin/codex.js"),
 *   "/home/u/.cache/tools/node_modules",
 * );
 * assert.equal(installRoot("/opt/agent/bin/agent"), "/opt/agent/bin");
 * ```
 */
export function installRoot(realExecutable: string): string {
  const parts = realExecutable.split("/");
  const at = parts.indexOf("node_modules");
  return at > 0 ? parts.slice(0, at + 1).join("/") : dirname(realExecutable);
}

/** Where `program` is: a path (relative to `cwd`) or a name on `env.PATH`; undefined if nowhere. */
export function locateProgram(
  program: string,
  env: Readonly<Record<string, string>>,
  cwd: string,
): string | undefined {
  if (!program.includes("/")) return findExecutable(program, env.PATH);
  const path = resolve(cwd, program);
  try {
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The paths `program` needs readable that the sandbox hides (under a hidden folder or `/tmp`): its
 * install folder and its own folder, and the `PATH` folders (e.g. a Node installed by nvm). A
 * folder that is a hidden one itself, or holds one (a home, `/tmp`), is never bound: the
 * program's files alone are.
 */
export function programMounts(
  program: string,
  env: Readonly<Record<string, string>>,
  cwd: string,
  hidden: readonly string[],
): string[] {
  const found = locateProgram(program, env, cwd);
  if (found === undefined) return [];
  const covered = [...hidden, "/tmp"];
  const inHidden = (p: string) => covered.some((h) => isInside(p, h));
  const wholeArea = (p: string) => covered.some((h) => isInside(h, p));
  const real = realPath(found);
  const folders = [installRoot(real), dirname(found)];
  for (const dir of (env.PATH ?? "").split(":")) {
    if (isAbsolute(dir)) folders.push(resolve(dir));
  }
  const out = new Set(folders.filter((p) => inHidden(p) && !wholeArea(p)));
  for (const file of [real, found]) {
    if (inHidden(file) && ![...out].some((p) => isInside(file, p))) out.add(file);
  }
  return [...out];
}
