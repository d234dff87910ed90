/**
 * Eval file discovery for the CLI: files, folders (recursively) and globs → the eval files they
 * name. Sidecars, result files, `.agentv/`, dot folders and `node_modules` are left out.
 *
 * @module
 */
import { basename, dirname, extname, isAbsolute, join, resolve, sep } from "node:path";
import { hasGlobSyntax } from "../text/glob_syntax.ts";

export { findDatasetRoot } from "../fs/resolve.ts";

/** What {@link discoverEvalFiles} found. */
export interface DiscoveredFiles {
  /** Absolute paths of eval files, sorted and de-duplicated. */
  files: string[];
  /** Arguments that named nothing usable (one message each). */
  problems: string[];
}

const EVAL_EXTENSIONS = new Set([".yaml", ".yml", ".jsonl"]);

/**
 * Expands CLI arguments into eval files. A file is taken as given (except a sidecar named
 * together with its JSONL); a folder is searched recursively; an argument with `*`, `?`, `[` or
 * `{` is a glob (relative to `cwd`). During searches, a `.yaml` beside a `.jsonl` of the same
 * name (its sidecar), `*.baseline.jsonl` and JSONL result files (first record has `eval_id` and
 * `score` but no `id`) are skipped.
 *
 * @example
 * ```ts
 * const { files, problems } = await discoverEvalFiles(["evals/", "more/*.jsonl"], { cwd: "/repo" });
 * ```
 */
export async function discoverEvalFiles(
  args: string[],
  options: { cwd: string },
): Promise<DiscoveredFiles> {
  const files = new Set<string>();
  const problems: string[] = [];
  for (const arg of args) {
    const path = resolve(options.cwd, arg);
    if (hasGlobSyntax(arg)) {
      // The matcher (and its regex engine) is loaded only when an argument is a glob.
      const { globProblem, loadGlobs } = await import("../text/glob.ts");
      await loadGlobs([arg]);
      const problem = globProblem(arg);
      if (problem !== undefined) {
        problems.push(`${problem[0].toUpperCase()}${problem.slice(1)}`);
        continue;
      }
      const found = await expandGlob(path);
      if (found.length === 0) problems.push(`No eval files match '${arg}'`);
      for (const f of found) files.add(f);
      continue;
    }
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch {
      problems.push(`No such file or folder: '${arg}'`);
      continue;
    }
    if (info.isFile) {
      files.add(path);
    } else if (info.isDirectory) {
      const found: string[] = [];
      await walk(path, found);
      const evals = await filterEvalFiles(found);
      if (evals.length === 0) problems.push(`No eval files (.yaml, .yml, .jsonl) in '${arg}'`);
      for (const f of evals) files.add(f);
    } else {
      problems.push(`Not a file or folder: '${arg}'`);
    }
  }
  dropNamedSidecars(files);
  return { files: [...files].sort(), problems };
}

/**
 * Removes from `files` every `<name>.yaml` whose `<name>.jsonl` is also there: a sidecar named
 * together with its JSONL (e.g. a shell-expanded `evals/*`) is not an eval file.
 *
 * @example
 * ```ts
 * const files = new Set(["/e/data.jsonl", "/e/data.yaml", "/e/other.yaml"]);
 * dropNamedSidecars(files); // files: data.jsonl, other.yaml
 * ```
 */
export function dropNamedSidecars(files: Set<string> | Map<string, unknown>): void {
  for (const file of files.keys()) {
    const jsonl = file.replace(/\.yaml$/, ".jsonl");
    if (jsonl !== file && files.has(jsonl)) files.delete(file);
  }
}

/** Candidate files under `dir` (recursively), skipping dot folders and `node_modules`. */
async function walk(dir: string, out: string[]): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return;
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      await walk(path, out);
    } else if (entry.isFile && EVAL_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      out.push(path);
    }
  }
}

async function expandGlob(pattern: string): Promise<string[]> {
  const normalized = pattern.split(sep).join("/");
  const segments = normalized.split("/");
  const firstGlob = segments.findIndex(hasGlobSyntax);
  const base = segments.slice(0, firstGlob).join("/") || "/";
  const { globToRegExp, loadGlobs } = await import("../text/glob.ts");
  await loadGlobs([normalized]);
  const re = globToRegExp(normalized);
  const found: string[] = [];
  await walk(isAbsolute(base) ? base : resolve(base), found);
  const matching = found.filter((f) => re.test(f.split(sep).join("/")));
  return await filterEvalFiles(matching);
}

/** Drops sidecars and result files from a list of candidate files. */
async function filterEvalFiles(paths: string[]): Promise<string[]> {
  const all = new Set(paths);
  const out: string[] = [];
  for (const path of paths) {
    const ext = extname(path).toLowerCase();
    if (ext === ".yaml") {
      const jsonl = join(dirname(path), `${basename(path, extname(path))}.jsonl`);
      if (all.has(jsonl) || await isFile(jsonl)) continue;
    }
    if (ext === ".jsonl") {
      if (/\.baseline\.jsonl$/i.test(path)) continue;
      if (await isResultFile(path)) continue;
    }
    out.push(path);
  }
  return out;
}

/** Whether the first record of a JSONL file looks like a result row (`eval_id` + `score`, no `id`). */
async function isResultFile(path: string): Promise<boolean> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    const buffer = new Uint8Array(256 * 1024);
    const n = await file.read(buffer);
    if (n === null) return false;
    const text = new TextDecoder().decode(buffer.subarray(0, n));
    const firstLine = text.split("\n").find((l) => l.trim() !== "");
    if (!firstLine) return false;
    const record = JSON.parse(firstLine);
    return record !== null && typeof record === "object" && "eval_id" in record &&
      "score" in record && !("id" in record);
  } catch {
    return false;
  } finally {
    file?.close();
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
