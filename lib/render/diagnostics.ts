/**
 * Console rendering of diagnostics: `file:line:col: severity: message` with paths relative to the
 * working directory, optionally followed by the source line and a caret under the column. Colour
 * only when asked (the CLI passes `io.color`).
 *
 * @module
 */
import { displayPath } from "../fs/display_path.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { escapeControl } from "../text/escape_control.ts";
import { isSecretPath, redactSourceLine } from "../text/redact.ts";

/** ANSI styling that is a no-op when colour is off. */
export interface Paint {
  /** Red (errors, ✗). */
  red(text: string): string;
  /** Green (✓). */
  green(text: string): string;
  /** Yellow (warnings). */
  yellow(text: string): string;
  /** Bold. */
  bold(text: string): string;
  /** Dim (source excerpts, hints). */
  dim(text: string): string;
}

/**
 * Returns ANSI styling functions, or identity functions when `color` is false.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(createPaint(false).red("x"), "x");
 * assert.equal(createPaint(true).red("x"), "\x1b[31mx\x1b[39m");
 * ```
 */
export function createPaint(color: boolean): Paint {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}

/** Reads the lines of a file for source excerpts; `undefined` when it cannot. */
export type SourceLines = (file: string) => string[] | undefined;

/** Files larger than this are not re-read for source excerpts. */
const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/**
 * Creates a caching reader of source lines (invalid UTF-8 is replaced, CRLF handled). Files that
 * cannot be read, or are huge, yield `undefined` so the excerpt is simply left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "evalcases:\r\n  - id: a\r\n");
 * const lines = createSourceReader();
 * assert.equal(lines(file)?.[1], "  - id: a");
 * assert.equal(lines(`${file}.missing`), undefined);
 * await Deno.remove(file);
 * ```
 */
export function createSourceReader(): SourceLines {
  const cache = new Map<string, string[] | undefined>();
  return (file) => {
    if (cache.has(file)) return cache.get(file);
    let lines: string[] | undefined;
    try {
      // Regular files only: an excerpt must never block on a FIFO or read a device.
      const info = Deno.statSync(file);
      if (info.isFile && info.size <= MAX_SOURCE_BYTES) {
        const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(
          Deno.readFileSync(file),
        );
        lines = text.split(/\r?\n|\r/);
      }
    } catch {
      lines = undefined;
    }
    cache.set(file, lines);
    return lines;
  };
}

/** Options for {@link renderDiagnostic}. */
export interface RenderDiagnosticOptions {
  /** Directory paths are shown relative to. */
  cwd: string;
  /** Whether to use ANSI colours (default false). */
  color?: boolean;
  /** Source reader; when given, the offending line is shown with a caret under the column. */
  sourceLines?: SourceLines;
}

/** Longest source excerpt shown; longer lines are cut around the column. */
const MAX_EXCERPT = 120;

/**
 * Renders one diagnostic as `file:line:col: severity: message`, plus (with `sourceLines`) the
 * source line and a caret. The document path (`evalcases[2].weight`) is appended when the
 * diagnostic has no line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = renderDiagnostic(
 *   { severity: "error", file: "/repo/a.yaml", line: 3, column: 5, message: "Bad weight" },
 *   { cwd: "/repo" },
 * );
 * assert.equal(text.split("\n")[0], "a.yaml:3:5: error: Bad weight");
 * ```
 */
export function renderDiagnostic(diagnostic: Diagnostic, options: RenderDiagnosticOptions): string {
  const paint = createPaint(options.color ?? false);
  const { line, column } = diagnostic;
  let location = displayPath(diagnostic.file, options.cwd);
  if (line !== undefined) location += `:${line}${column !== undefined ? `:${column}` : ""}`;
  const severity = diagnostic.severity === "error"
    ? paint.red(paint.bold("error"))
    : paint.yellow(paint.bold("warning"));
  const where = line === undefined && diagnostic.path
    ? ` (at ${escapeControl(diagnostic.path)})`
    : "";
  // Messages quote dataset text (ids, values): escape it so it cannot drive the terminal.
  const head = `${paint.bold(location)}: ${severity}: ${escapeControl(diagnostic.message)}${where}`;
  if (line === undefined || !options.sourceLines) return head;
  const text = options.sourceLines(diagnostic.file)?.[line - 1];
  if (text === undefined) return head;
  // Never echo a secret: mask secret-named values on the line, and everything from the column
  // on when the diagnostic is about a secret setting (e.g. `api_key: 12345678901`).
  const safe = redactSourceLine(
    text,
    column !== undefined && diagnostic.path !== undefined && isSecretPath(diagnostic.path)
      ? { fromColumn: column }
      : {},
  );
  return `${head}\n${excerpt(safe, line, column, paint)}`;
}

/** The source line with a gutter and, when the column is known, a caret under it. */
function excerpt(text: string, line: number, column: number | undefined, paint: Paint): string {
  let shown = text.replaceAll("\t", " ");
  let caretAt = column !== undefined ? Math.max(0, column - 1) : undefined;
  if (shown.length > MAX_EXCERPT) {
    const start = Math.max(0, Math.min((caretAt ?? 0) - 40, shown.length - MAX_EXCERPT));
    const prefix = start > 0 ? "…" : "";
    const suffix = start + MAX_EXCERPT < shown.length ? "…" : "";
    shown = prefix + shown.slice(start, start + MAX_EXCERPT) + suffix;
    if (caretAt !== undefined) caretAt = caretAt - start + prefix.length;
  }
  // Control characters would garble the terminal; show them as U+FFFD.
  // deno-lint-ignore no-control-regex
  shown = shown.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "\ufffd");
  const gutter = String(line);
  const pad = " ".repeat(gutter.length);
  const lines = [paint.dim(`  ${gutter} | `) + shown];
  if (caretAt !== undefined && caretAt <= shown.length) {
    lines.push(paint.dim(`  ${pad} | `) + " ".repeat(caretAt) + paint.bold("^"));
  }
  return lines.join("\n");
}

/**
 * Renders diagnostics one per entry (each possibly with an excerpt), sorted by file, line and
 * column, joined by newlines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(renderDiagnostics([], { cwd: "/repo" }), "");
 * ```
 */
export function renderDiagnostics(
  diagnostics: Diagnostic[],
  options: RenderDiagnosticOptions,
): string {
  return sortDiagnostics(diagnostics).map((d) => renderDiagnostic(d, options)).join("\n");
}

/**
 * {@link renderDiagnostics} for a command's terminal: paths relative to its working directory,
 * its colour setting, and an excerpt of each file a diagnostic points at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(renderDiagnosticsFor([], { cwd: "/repo", color: false }), "");
 * ```
 */
export function renderDiagnosticsFor(
  diagnostics: Diagnostic[],
  io: { cwd: string; color: boolean },
): string {
  return renderDiagnostics(diagnostics, {
    cwd: io.cwd,
    color: io.color,
    sourceLines: createSourceReader(),
  });
}

/** Diagnostics in reading order: by file, then line, then column (stable otherwise). */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, index) => ({ d, index }))
    .sort((a, b) =>
      (a.d.file < b.d.file ? -1 : a.d.file > b.d.file ? 1 : 0) ||
      (a.d.line ?? 0) - (b.d.line ?? 0) ||
      (a.d.column ?? 0) - (b.d.column ?? 0) ||
      a.index - b.index
    )
    .map(({ d }) => d);
}
