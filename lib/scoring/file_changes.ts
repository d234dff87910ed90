/**
 * `file_changes`: scores what the target changed in its workspace without code. Each expected
 * item names a workspace-relative path (or glob) that must have been added, modified, deleted
 * or just changed, optionally with content checks on the file as the target left it.
 *
 * @module
 */
import { join } from "node:path";
import { globProblem, hasGlobSyntax, matchGlob } from "../text/glob.ts";
import type { FileChangesConfig } from "../schema/evaluator.ts";
import type { ExpectedFileChange } from "../schema/file_changes.ts";
import type { WorkspaceChanges } from "../schema/workspace.ts";
import { compileLinearRegex, loadLinearRegex } from "../text/linear_regex.ts";
import { preview } from "./match.ts";
import { errorOutcome, scoredOutcome, skippedOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

// Patterns are matched by the linear-time engine, loaded with this module (the loader, which
// does not import evaluators, never pays for it).
await loadLinearRegex();

/** Largest file whose content is checked (`contains` / `regex`), in bytes. */
export const FILE_CHANGES_MAX_READ_BYTES = 8 * 1024 * 1024;

/** Files listed in the miss of `allow_other_changes: false` before "and N more". */
const LISTED_OTHERS = 20;

type Kind = "added" | "modified" | "deleted";

/** Every changed file with how it changed, sorted by path. */
function changedFiles(changes: WorkspaceChanges): Map<string, Kind> {
  const all = new Map<string, Kind>();
  for (const kind of ["added", "modified", "deleted"] as const) {
    for (const path of changes[kind]) all.set(path, kind);
  }
  return new Map([...all].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}

function matchesPath(item: ExpectedFileChange, path: string): boolean {
  return hasGlobSyntax(item.path) ? matchGlob(item.path, path) : item.path === path;
}

function kindFits(want: ExpectedFileChange["change"], got: Kind): boolean {
  return want === "changed" || want === got;
}

/** Why the file's content fails the item's checks, or `undefined` when it passes. */
async function contentProblem(
  item: ExpectedFileChange,
  workspace: string,
  path: string,
): Promise<string | undefined> {
  if (item.contains === undefined && item.regex === undefined) return undefined;
  const file = join(workspace, ...path.split("/"));
  let text: string;
  try {
    const info = await Deno.lstat(file);
    if (!info.isFile) return "it is not a regular file, so its content was not checked";
    if (info.size > FILE_CHANGES_MAX_READ_BYTES) {
      return `it is ${info.size} bytes, over the ${FILE_CHANGES_MAX_READ_BYTES}-byte limit of content checks`;
    }
    text = new TextDecoder().decode(await Deno.readFile(file));
  } catch (e) {
    return `its content could not be read (${(e as Error).message})`;
  }
  const wanted = item.contains === undefined
    ? []
    : Array.isArray(item.contains)
    ? item.contains
    : [item.contains];
  const absent = wanted.filter((w) => !text.includes(w));
  if (absent.length > 0) {
    return `it does not contain ${absent.map((a) => JSON.stringify(a)).join(", ")} ` +
      `(content: ${preview(text)})`;
  }
  if (item.regex !== undefined && !compileLinearRegex(item.regex, item.flags ?? "").test(text)) {
    return `it does not match /${item.regex}/${item.flags ?? ""} (content: ${preview(text)})`;
  }
  return undefined;
}

function describe(item: ExpectedFileChange, kind: Kind): string {
  const parts: string[] = [kind];
  if (item.contains !== undefined) {
    const list = Array.isArray(item.contains) ? item.contains : [item.contains];
    parts.push(`contains ${list.map((c) => JSON.stringify(c)).join(", ")}`);
  }
  if (item.regex !== undefined) parts.push(`matches /${item.regex}/${item.flags ?? ""}`);
  return parts.join(", ");
}

/** A hit or a miss for one expected item. */
async function checkItem(
  item: ExpectedFileChange,
  files: Map<string, Kind>,
  workspace: string | undefined,
): Promise<{ hit?: string; miss?: string }> {
  const wantText = item.change === "changed" ? "changed" : item.change;
  const named = [...files].filter(([path]) => matchesPath(item, path));
  const fitting = named.filter(([, kind]) => kindFits(item.change, kind));
  if (fitting.length === 0) {
    if (named.length === 0) {
      return {
        miss: `${item.path}: expected ${wantText}, but ${
          hasGlobSyntax(item.path) ? "no matching file" : "the file"
        } was not changed`,
      };
    }
    const seen = named.map(([path, kind]) => `${path} was ${kind}`).join(", ");
    return { miss: `${item.path}: expected ${wantText}, but ${seen}` };
  }
  let firstProblem: string | undefined;
  for (const [path, kind] of fitting) {
    const problem = kind === "deleted" || workspace === undefined
      ? (item.contains !== undefined || item.regex !== undefined) && workspace === undefined
        ? "the workspace is gone, so its content was not checked"
        : undefined
      : await contentProblem(item, workspace, path);
    if (problem === undefined) return { hit: `${path}: ${describe(item, kind)}` };
    firstProblem ??= `${path} was ${kind} but ${problem}`;
  }
  return { miss: `${item.path}: ${firstProblem}` };
}

/**
 * Scores the workspace changes: hits / checks, one check per expected item (plus one for
 * `allow_other_changes: false`). A glob item is met by any matching file that changed the
 * expected way and passes its content checks. A case that ran without a workspace is an
 * evaluator error naming the fix (skipped in a dry run, whose mock target changes nothing).
 *
 * @example
 * ```ts ignore
 * const outcome = await evaluateFileChanges({
 *   type: "file_changes", name: "files", weight: 1, allow_other_changes: true,
 *   expected: [{ path: "src/add.ts", change: "modified", contains: "a + b" }],
 * }, context);
 * ```
 */
export async function evaluateFileChanges(
  config: FileChangesConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const changes = context.workspaceChanges;
  if (changes === undefined && context.dryRun === true) {
    return skippedOutcome(
      "Dry run: the target did not run, so nothing changed in a workspace (skipped, not counted)",
    );
  }
  if (changes === undefined) {
    return errorOutcome(
      config.name,
      "the case ran without a workspace, so there are no file changes to check; give its target " +
        "or case a `workspace_template` (or use an agent target: claude-code, codex, gemini-cli, " +
        "qwen-code, copilot-cli, opencode)",
    );
  }
  for (const item of config.expected) {
    const problem = hasGlobSyntax(item.path) ? globProblem(item.path) : undefined;
    if (problem !== undefined) {
      return errorOutcome(config.name, `path '${item.path}' is not a valid glob: ${problem}`);
    }
  }
  const files = changedFiles(changes);
  const hits: string[] = [];
  const misses: string[] = [];
  for (const item of config.expected) {
    const r = await checkItem(item, files, context.workspacePath);
    if (r.hit !== undefined) hits.push(r.hit);
    if (r.miss !== undefined) misses.push(r.miss);
  }
  let checks = config.expected.length;
  if (!config.allow_other_changes) {
    checks++;
    const others = [...files].filter(([path]) =>
      !config.expected.some((item) => matchesPath(item, path))
    );
    if (others.length === 0) hits.push("No other files changed");
    else {
      const listed = others.slice(0, LISTED_OTHERS).map(([p, k]) => `${p} (${k})`).join(", ");
      const more = others.length > LISTED_OTHERS
        ? ` and ${others.length - LISTED_OTHERS} more`
        : "";
      misses.push(`Unexpected changes (allow_other_changes: false): ${listed}${more}`);
    }
  }
  return scoredOutcome(hits.length / checks, {
    hits,
    misses,
    details: { added: changes.added, modified: changes.modified, deleted: changes.deleted },
  });
}
