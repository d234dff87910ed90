/**
 * What changed in a workspace: a snapshot of its files before the target ran (a SHA-256 per
 * file), compared with the files after it ran, gives the added, modified and deleted paths and a
 * unified diff capped in size. `.git` folders are left out.
 *
 * @module
 */
import { join } from "node:path";
import type { WorkspaceChanges } from "../schema/workspace.ts";
import { unifiedDiff } from "../text/unified_diff.ts";

/** Default cap of a row's workspace diff: 256 KiB. */
export const WORKSPACE_DIFF_MAX_BYTES = 256 * 1024;

/** Files larger than this are named in the diff without their lines. */
const DIFF_FILE_MAX_BYTES = 1024 * 1024;

/** Workspace-relative path (`/` separators) → content digest. */
export type WorkspaceSnapshot = Map<string, string>;

async function digest(bytes: Uint8Array): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Every file under `dir` (symlinks as their link text, not followed), by workspace-relative path,
 * sorted; `.git` folders are skipped.
 */
export async function* walkFiles(
  dir: string,
  prefix = "",
): AsyncGenerator<{ rel: string; path: string; kind: "file" | "symlink" }> {
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    const path = join(dir, entry.name);
    if (entry.isSymlink) yield { rel, path, kind: "symlink" };
    else if (entry.isDirectory) {
      if (entry.name !== ".git") yield* walkFiles(path, rel);
    } else if (entry.isFile) yield { rel, path, kind: "file" };
  }
}

async function contentOf(path: string, kind: "file" | "symlink"): Promise<Uint8Array> {
  if (kind === "symlink") {
    return new TextEncoder().encode(`symlink -> ${await Deno.readLink(path)}`);
  }
  return await Deno.readFile(path);
}

/**
 * Digests every file of a workspace (run before the target starts).
 *
 * @example
 * ```ts
 * import { snapshotWorkspace } from "./workspace_diff.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "a\n");
 * (await snapshotWorkspace(dir)).size; // 1
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function snapshotWorkspace(dir: string): Promise<WorkspaceSnapshot> {
  const snapshot: WorkspaceSnapshot = new Map();
  for await (const file of walkFiles(dir)) {
    snapshot.set(file.rel, await digest(await contentOf(file.path, file.kind)));
  }
  return snapshot;
}

/** Options of {@link diffWorkspace}. */
export interface DiffWorkspaceOptions {
  /** Where the files were before (the template); absent for an empty workspace. */
  before?: string;
  /**
   * Reads a file as it was before (a repository's baseline), for a workspace without a `before`
   * folder; `undefined` when it was not kept (the diff then names the file without its lines).
   */
  readBefore?: (rel: string, maxBytes: number) => Promise<Uint8Array | undefined>;
  /** The snapshot taken before the target ran. */
  snapshot: WorkspaceSnapshot;
  /** Cap of the diff text in bytes (default {@link WORKSPACE_DIFF_MAX_BYTES}). */
  maxDiffBytes?: number;
}

/** The text of a file for the diff, or why its lines are not shown. */
function diffable(bytes: Uint8Array): { text: string } | { reason: "binary" | "large" } {
  if (bytes.length > DIFF_FILE_MAX_BYTES) return { reason: "large" };
  if (bytes.includes(0)) return { reason: "binary" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { reason: "binary" };
  }
}

async function readOr(path: string | undefined): Promise<Uint8Array | undefined> {
  if (path === undefined) return undefined;
  try {
    const info = await Deno.lstat(path);
    return await contentOf(path, info.isSymlink ? "symlink" : "file");
  } catch {
    return undefined;
  }
}

/**
 * The unified diff of one file (`before`/`after` undefined when it did not exist; `before` null
 * when it existed but its content was not kept); binary and large files are named only.
 *
 * @example
 * ```ts
 * import { fileDiff } from "./workspace_diff.ts";
 * const enc = (s: string) => new TextEncoder().encode(s);
 * fileDiff("a.txt", enc("1\n"), enc("2\n")); // "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-1\n+2\n"
 * ```
 */
export function fileDiff(
  rel: string,
  before: Uint8Array | undefined | null,
  after: Uint8Array | undefined,
) {
  if (before === null) {
    return `Files a/${rel} and ${
      after === undefined ? "/dev/null" : `b/${rel}`
    } differ (its earlier content was not kept, e.g. a file ignored by .gitignore)\n`;
  }
  const a = before === undefined ? { text: "" } : diffable(before);
  const b = after === undefined ? { text: "" } : diffable(after);
  const oldName = before === undefined ? "/dev/null" : `a/${rel}`;
  const newName = after === undefined ? "/dev/null" : `b/${rel}`;
  if (!("text" in a) || !("text" in b)) {
    const why = ("reason" in a && a.reason === "large") || ("reason" in b && b.reason === "large")
      ? `over ${DIFF_FILE_MAX_BYTES} bytes, lines not shown`
      : "binary";
    return `Files ${oldName} and ${newName} differ (${why})\n`;
  }
  const body = unifiedDiff(a.text, b.text, rel);
  if (body === "") return `Files ${oldName} and ${newName} differ (line endings only)\n`;
  // unifiedDiff writes `--- a/<rel>` / `+++ b/<rel>`; name /dev/null for an added or deleted file.
  const lines = body.split("\n");
  lines[0] = `--- ${oldName}`;
  lines[1] = `+++ ${newName}`;
  return lines.join("\n");
}

/**
 * Compares a workspace with its snapshot: added, modified and deleted files (sorted) and a
 * unified diff of them, cut at `maxDiffBytes` with a last line saying how much was left out.
 * `template` and `path` of the result are `null`: the caller fills them in.
 *
 * @example
 * ```ts
 * import { diffWorkspace, snapshotWorkspace } from "./workspace_diff.ts";
 * const dir = await Deno.makeTempDir();
 * const snapshot = await snapshotWorkspace(dir);
 * await Deno.writeTextFile(`${dir}/new.txt`, "hello\n");
 * const changes = await diffWorkspace(dir, { snapshot });
 * changes.added; // ["new.txt"]
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function diffWorkspace(
  dir: string,
  options: DiffWorkspaceOptions,
): Promise<WorkspaceChanges> {
  const cap = options.maxDiffBytes ?? WORKSPACE_DIFF_MAX_BYTES;
  const added: string[] = [];
  const modified: string[] = [];
  const seen = new Set<string>();
  for await (const file of walkFiles(dir)) {
    seen.add(file.rel);
    const was = options.snapshot.get(file.rel);
    if (was === undefined) added.push(file.rel);
    else if (was !== await digest(await contentOf(file.path, file.kind))) modified.push(file.rel);
  }
  const deleted = [...options.snapshot.keys()].filter((rel) => !seen.has(rel)).sort();
  const changed = [
    ...added.map((rel) => ({ rel, kind: "added" })),
    ...modified.map((rel) => ({ rel, kind: "modified" })),
    ...deleted.map((rel) => ({ rel, kind: "deleted" })),
  ].sort((x, y) => x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : 0);

  const encoder = new TextEncoder();
  let diff = "";
  let used = 0;
  let total = 0;
  let cutFiles = 0;
  for (const { rel, kind } of changed) {
    const parts = rel.split("/");
    const before = kind === "added"
      ? undefined
      : options.before !== undefined
      ? await readOr(join(options.before, ...parts))
      : options.readBefore !== undefined
      ? (await options.readBefore(rel, DIFF_FILE_MAX_BYTES + 1)) ?? null
      : undefined;
    const after = kind === "deleted" ? undefined : await readOr(join(dir, ...parts));
    const piece = fileDiff(rel, before, after);
    const size = encoder.encode(piece).length;
    total += size;
    if (cutFiles === 0 && used + size <= cap) {
      diff += piece;
      used += size;
      continue;
    }
    if (cutFiles === 0) {
      // Keep whole lines of the piece that still fit.
      let room = cap - used;
      for (const line of piece.split(/(?<=\n)/)) {
        const n = encoder.encode(line).length;
        if (n > room) break;
        diff += line;
        room -= n;
        used += n;
      }
    }
    cutFiles++;
  }
  const truncated = cutFiles > 0;
  if (truncated) {
    diff += `... diff cut at ${cap} bytes: ${
      total - used
    } more bytes (${cutFiles} file(s)) not shown; the kept workspace (--keep-workspaces) has them all\n`;
  }
  return {
    template: null,
    path: null,
    added,
    modified,
    deleted,
    diff,
    diff_truncated: truncated,
  };
}
