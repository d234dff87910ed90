/**
 * The dataset root and the reference sandbox: file references are searched from the eval file's
 * folder up to the root, and nothing outside the root (by `../`, an absolute path or a symlink)
 * is ever read.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { decodeText } from "./decode.ts";

/**
 * The dataset root of an eval file: `options.root` when given, else the nearest folder at or
 * above the file's folder that holds `.agentv/` or `.git`, else the file's folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.mkdir(`${repo}/.git`);
 * await Deno.mkdir(`${repo}/evals`);
 * assert.equal(await findDatasetRoot(`${repo}/evals/dataset.yaml`), repo);
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function findDatasetRoot(
  file: string,
  options: { root?: string } = {},
): Promise<string> {
  if (options.root !== undefined) return resolve(options.root);
  const start = dirname(resolve(file));
  let dir = start;
  while (true) {
    if (await pathExists(join(dir, ".agentv")) || await pathExists(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/**
 * The nearest file among `names` (relative paths such as `.agentv/targets.yaml`), looking in
 * `fromDir` and then each folder above it, up to and including `root`. Never looks outside
 * `root`. `options.accept` decides what counts as found (default: a regular file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.mkdir(`${repo}/.agentv`);
 * await Deno.mkdir(`${repo}/evals/a`, { recursive: true });
 * await Deno.writeTextFile(`${repo}/.agentv/targets.yaml`, "targets: []\n");
 * assert.equal(
 *   await findUpward(`${repo}/evals/a`, repo, [".agentv/targets.yaml"]),
 *   `${repo}/.agentv/targets.yaml`,
 * );
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function findUpward(
  fromDir: string,
  root: string,
  names: string[],
  options: { accept?: (path: string) => Promise<boolean> } = {},
): Promise<string | undefined> {
  const accept = options.accept ?? isFile;
  const top = resolve(root);
  let dir = resolve(fromDir);
  if (!isInside(dir, top)) return undefined;
  while (true) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (isInside(candidate, top) && await accept(candidate)) return candidate;
    }
    if (dir === top) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The answer of {@link resolveReference}. */
export type ResolvedReference = { path: string } | { error: string };

/**
 * Resolves a file reference: relative to `fromDir`, then to each folder above it up to `root`.
 * `../`, absolute paths and symlinks that lead outside the root are refused (both sides are
 * compared after `realpath`), with a message naming the reference and the root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.mkdir(`${repo}/prompts`);
 * await Deno.mkdir(`${repo}/evals`);
 * await Deno.writeTextFile(`${repo}/prompts/judge.md`, "Grade it.\n");
 * // Not beside the eval file: found in the folder above.
 * const r = await resolveReference("prompts/judge.md", { fromDir: `${repo}/evals`, root: repo });
 * assert.deepEqual(r, { path: `${repo}/prompts/judge.md` });
 * const escape = await resolveReference("../secret.md", { fromDir: `${repo}/evals`, root: repo });
 * assert.ok("error" in escape);
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export function resolveReference(
  ref: string,
  options: { fromDir: string; root: string },
): Promise<ResolvedReference> {
  return new ReferenceResolver(options.root).resolve(ref, options.fromDir);
}

/** Whether `path` is `dir` itself or lies below it (lexically). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/**
 * A reference resolver for one dataset root, with caches: each distinct reference is looked up
 * once per folder and each file is read once.
 */
export class ReferenceResolver {
  /** The dataset root (absolute). */
  readonly root: string;
  #realRoot: Promise<string> | undefined;
  #resolved = new Map<string, Promise<ResolvedReference>>();
  #texts = new Map<string, Promise<{ text: string } | { error: string }>>();
  #real = new Map<string, Promise<string | undefined>>();

  /** Creates a resolver confined to `root`. */
  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Resolves `ref` from `fromDir` (see {@link resolveReference}). */
  resolve(ref: string, fromDir: string): Promise<ResolvedReference> {
    const key = `${fromDir}\0${ref}`;
    let hit = this.#resolved.get(key);
    if (!hit) {
      hit = this.#resolve(ref, resolve(fromDir));
      this.#resolved.set(key, hit);
    }
    return hit;
  }

  /**
   * Reads a resolved file as UTF-8 text with CRLF turned into LF. Binary or non-UTF-8 content
   * and files over `maxBytes` (default 16 MiB) are refused.
   */
  readText(
    path: string,
    maxBytes = 16 * 1024 * 1024,
  ): Promise<{ text: string } | { error: string }> {
    let hit = this.#texts.get(path);
    if (!hit) {
      hit = readTextFile(path, maxBytes);
      this.#texts.set(path, hit);
    }
    return hit;
  }

  /** The real (symlink-free) path of the root. */
  realRoot(): Promise<string> {
    this.#realRoot ??= Deno.realPath(this.root).catch(() => this.root);
    return this.#realRoot;
  }

  async #resolve(ref: string, fromDir: string): Promise<ResolvedReference> {
    if (ref.trim() === "") return { error: "File reference is empty; expected a path; add a path" };
    if (ref.includes("\0")) {
      return { error: `File reference '${ref}' contains a NUL character; expected a path` };
    }
    const root = this.root;
    const candidates: string[] = [];
    let escaped = false;
    let absoluteOutside = false;
    if (isAbsolute(ref)) {
      if (isInside(resolve(ref), root)) candidates.push(resolve(ref));
      else absoluteOutside = true;
    }
    const relativeRef = ref.replace(/^[/\\]+/, "");
    if (isInside(fromDir, root)) {
      let dir = fromDir;
      while (true) {
        const candidate = resolve(dir, relativeRef);
        if (isInside(candidate, root)) candidates.push(candidate);
        else escaped = true;
        if (dir === root) break;
        const parent = dirname(dir);
        if (parent === dir) break;
        dir = parent;
      }
    } else {
      escaped = true;
    }
    const tried: string[] = [];
    for (const candidate of [...new Set(candidates)]) {
      tried.push(candidate);
      let info: Deno.FileInfo;
      try {
        info = await Deno.stat(candidate);
      } catch (e) {
        if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) continue;
        return {
          error: `File reference '${ref}' could not be accessed at '${candidate}': ${
            e instanceof Error ? e.message : e
          }; expected a readable file inside the dataset root '${root}'; check its permissions`,
        };
      }
      if (!info.isFile) continue;
      const real = await this.#realPath(candidate);
      if (real === undefined || !isInside(real, await this.realRoot())) {
        return {
          error: `File reference '${ref}' resolves through a symlink to '${
            real ?? "?"
          }', outside the dataset root '${root}'; expected a file inside the root; copy the file into the root or pass --root with a folder that contains it`,
        };
      }
      return { path: candidate };
    }
    if (absoluteOutside) {
      return {
        error:
          `File reference '${ref}' is an absolute path outside the dataset root '${root}'; expected a path inside the root; use a relative path or pass --root with a folder that contains it`,
      };
    }
    if (escaped && candidates.length === 0) {
      return {
        error:
          `File reference '${ref}' leads outside the dataset root '${root}'; expected a path inside the root; move the file inside the root or pass --root with a folder that contains it`,
      };
    }
    return {
      error:
        `File reference '${ref}' not found; expected a file relative to '${fromDir}' or a folder above it up to the dataset root '${root}'${
          escaped ? " (paths that leave the root are not searched)" : ""
        }; tried: ${tried.join(", ")}; check the path`,
    };
  }

  #realPath(path: string): Promise<string | undefined> {
    let hit = this.#real.get(path);
    if (!hit) {
      hit = Deno.realPath(path).catch(() => undefined);
      this.#real.set(path, hit);
    }
    return hit;
  }
}

async function readTextFile(
  path: string,
  maxBytes: number,
): Promise<{ text: string } | { error: string }> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (info.size > maxBytes) {
      return {
        error:
          `File '${path}' is ${info.size} bytes; expected at most ${maxBytes} bytes; reference a smaller file`,
      };
    }
    bytes = await Deno.readFile(path);
  } catch (e) {
    return { error: `File '${path}' could not be read: ${e instanceof Error ? e.message : e}` };
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { error: `Referenced file '${path}': ${decoded.message}` };
  const text = decoded.text.includes("\r\n") ? decoded.text.replaceAll("\r\n", "\n") : decoded.text;
  return { text };
}

/** Whether anything is at `path` (not followed: a dangling link is there too). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
