/**
 * JSONL eval files: one case per line, physical line numbers, and the sidecar `<name>.yaml`
 * beside the file for dataset-level defaults.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import {
  jsonLineErrorColumn,
  type JsonlLine,
  locateInJsonLine,
  parseJsonLine,
} from "../source/jsonl_source.ts";
import {
  CaseIds,
  type CaseLocation,
  type CaseOutcome,
  type CaseSite,
  processCase,
} from "./case_pipeline.ts";
import { loadPatternEngineFor, type LoadSetup, readSourceText } from "./context.ts";
import { EvalLoadError } from "./errors.ts";
import type { FileDefaults } from "./normalize_case.ts";
import { fileDefaults, type LoadedCases, parseYamlOrThrow } from "./yaml_file.ts";

/** Deepest nesting accepted in one JSONL record (deeper values cannot be passed between workers). */
export const MAX_JSON_DEPTH = 512;

/**
 * Reads the sidecar `<dir>/<stem>.yaml` (only that name). A missing sidecar gives the defaults
 * (and a warning when `verbose`); an invalid one throws {@link EvalLoadError}.
 */
export async function sidecarDefaults(
  setup: LoadSetup,
  options: { verbose: boolean; emit(d: Diagnostic): void },
): Promise<FileDefaults> {
  const path = join(setup.evalDir, `${setup.stem}.yaml`);
  const sidecarFile = join(dirname(setup.file), basename(path));
  let exists = false;
  try {
    exists = (await Deno.stat(path)).isFile;
  } catch {
    exists = false;
  }
  if (!exists) {
    if (options.verbose) {
      options.emit({
        severity: "warning",
        file: setup.file,
        message:
          `Sidecar metadata file not found: ${sidecarFile} (using defaults: dataset '${setup.stem}', target 'default', evaluator 'llm_judge')`,
      });
    }
    return { dataset: setup.stem || "eval", execution: {}, evaluator: "llm_judge" };
  }
  const source = await parseYamlOrThrow(await readSourceText(path, sidecarFile), sidecarFile);
  const value = source.value ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw EvalLoadError.from([{
      severity: "error",
      file: sidecarFile,
      line: 1,
      column: 1,
      message:
        "Invalid sidecar metadata: the top level is not a mapping; expected description, dataset, execution, evaluator; write a mapping",
    }]);
  }
  return await fileDefaults(value, {
    setup,
    sidecar: sidecarFile,
    locate: (p, atKey) => source.locate(p, { key: atKey }),
    emit: options.emit,
  });
}

/** A parsed JSONL line, or the file-level diagnostic for a malformed one. */
export type ParsedLine = { value: object } | { diagnostic: Diagnostic };

/**
 * Parses one line; a syntax error or a non-object is a `Line N: Invalid JSON` diagnostic. Only a
 * syntax error gives a promise (its column is found by a parser imported on first use), so a
 * valid file is parsed without awaiting each line.
 */
export function parseRecord(line: JsonlLine, file: string): ParsedLine | Promise<ParsedLine> {
  const parsed = parseJsonLine(line.text);
  if (!parsed.ok) {
    return jsonLineErrorColumn(line.text).then((column) => ({
      diagnostic: {
        severity: "error",
        file,
        line: line.line,
        column: column ?? 1,
        message:
          `Line ${line.line}: Invalid JSON - ${parsed.detail}; expected one JSON object per line; fix the JSON syntax on this line`,
      },
    }));
  }
  const value = parsed.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return {
      diagnostic: {
        severity: "error",
        file,
        line: line.line,
        column: 1,
        message: `Line ${line.line}: Invalid JSON - Expected JSON object; found ${
          value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
        }; write one case object per line`,
      },
    };
  }
  return { value };
}

/** Validates and normalises one JSONL record. */
export function processRecord(
  value: object,
  line: JsonlLine,
  options: { setup: LoadSetup; defaults: FileDefaults },
): Promise<CaseOutcome> | CaseOutcome {
  const { setup } = options;
  if (line.text.length > MAX_JSON_DEPTH * 2 && jsonDepth(line.text) > MAX_JSON_DEPTH) {
    return {
      diagnostics: [{
        severity: "error",
        file: setup.file,
        line: line.line,
        column: 1,
        message:
          `Line ${line.line}: the record nests deeper than ${MAX_JSON_DEPTH} levels; expected a flatter case; simplify the structure (the case is skipped)`,
      }],
    };
  }
  return processCase(value, {
    defaults: options.defaults,
    ctx: setup.ctx,
    location: jsonlLocation(setup, line),
    sites: setup.sites,
  });
}

/** How diagnostics of the case on `line` are placed. */
export function jsonlLocation(setup: LoadSetup, line: JsonlLine): CaseLocation {
  return {
    file: setup.file,
    pathPrefix: [],
    label: `Line ${line.line}`,
    line: line.line,
    locate: (path, atKey) => ({
      line: line.line,
      column: locateInJsonLine(line.text, path, { key: atKey }) ?? 1,
    }),
  };
}

/** Loads a whole JSONL file; any malformed line fails the whole file (nothing is returned). */
export async function loadJsonlCases(
  setup: LoadSetup,
  options: { verbose: boolean; report(d: Diagnostic): void },
): Promise<LoadedCases> {
  const diagnostics: Diagnostic[] = [];
  const emit = (d: Diagnostic) => {
    diagnostics.push(d);
    options.report(d);
  };
  const defaults = await sidecarDefaults(setup, { verbose: options.verbose, emit });
  // Lines are processed as they are read (raw records die young, the file is never held whole);
  // a malformed line anywhere still fails the whole file, after the remaining lines were
  // checked for syntax.
  const cases: EvalCase[] = [];
  const sites: CaseSite[] = [];
  const ids = new CaseIds();
  const found: Diagnostic[] = [];
  const malformed: Diagnostic[] = [];
  for await (const lines of readJsonlLines(setup.absFile, setup.file)) {
    for (const line of lines) {
      const record = parseRecord(line, setup.file);
      const parsed = record instanceof Promise ? await record : record;
      if ("diagnostic" in parsed) {
        malformed.push(parsed.diagnostic);
        continue;
      }
      if (malformed.length > 0) continue;
      const pending = processRecord(parsed.value, line, { setup, defaults });
      const outcome = ids.check(
        pending instanceof Promise ? await pending : pending,
        jsonlLocation(setup, line),
      );
      for (const d of outcome.diagnostics) found.push(d);
      if (outcome.evalCase) {
        if (setup.onCase) setup.onCase(outcome.evalCase, outcome.site);
        else {
          cases.push(outcome.evalCase);
          if (outcome.site) sites.push(outcome.site);
        }
      }
    }
  }
  if (malformed.length > 0) throw EvalLoadError.from(malformed);
  for (const d of found) emit(d);
  return { cases, sites, diagnostics };
}

/** Maximum bracket nesting of a JSON text (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return max;
}

/** Bytes read at a time by {@link readJsonlLines}. */
const CHUNK_BYTES = 1 << 20;

/**
 * The non-blank lines of a JSONL file (the same lines, with the same numbers, as
 * `splitJsonlLines` of its text), read a chunk at a time so the file is never held whole: one
 * array of lines per chunk (a loop over them needs no `await` per line). A file
 * that cannot be read, holds NUL bytes or is not UTF-8 throws `EvalLoadError` with the position
 * of the problem, as `readSourceText` reports it.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 * const dir = await Deno.makeTempDir();
 * const file = join(dir, "cases.jsonl");
 * await Deno.writeTextFile(file, '{"id": "a"}\n\n{"id": "b"}\n');
 * for await (const lines of readJsonlLines(file, "cases.jsonl")) {
 *   console.log(lines.map((l) => l.line)); // [1, 3]
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readJsonlLines(
  absFile: string,
  displayFile: string,
  options: { chunkBytes?: number } = {},
): AsyncGenerator<JsonlLine[]> {
  // Problems are rare: the whole-file reader is asked for its precise message then.
  const precise = async (): Promise<never> => {
    await readSourceText(absFile, displayFile);
    throw EvalLoadError.from([{
      severity: "error",
      file: displayFile,
      message:
        "The file changed while it was read; expected a stable eval file; run again once it is written",
    }]);
  };
  let file: Deno.FsFile;
  try {
    file = await Deno.open(absFile, { read: true });
  } catch {
    return await precise();
  }
  // Each chunk is cut after its last line break, so it holds whole UTF-8 sequences and decodes on
  // its own (one call, much faster than a streaming decoder); the bytes after the cut start the
  // next chunk. A line longer than the buffer makes the buffer grow.
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let buffer = new Uint8Array(options.chunkBytes ?? CHUNK_BYTES);
  let kept = 0; // bytes at the start of `buffer` carried over from the last read
  let first = true;
  let nextLine = 1;
  try {
    while (true) {
      if (kept === buffer.length) {
        const grown = new Uint8Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const n = await file.read(buffer.subarray(kept));
      const done = n === null;
      const filled = kept + (n ?? 0);
      if (n !== null && buffer.subarray(kept, filled).includes(0)) return await precise();
      const cut = done ? filled : buffer.subarray(0, filled).lastIndexOf(10 /* \n */) + 1;
      if (cut === 0 && !done) {
        kept = filled;
        continue;
      }
      let text: string;
      try {
        text = decoder.decode(buffer.subarray(0, cut));
      } catch {
        return await precise();
      }
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      await loadPatternEngineFor(text);
      buffer.copyWithin(0, cut, filled);
      kept = filled - cut;
      const lines: JsonlLine[] = [];
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        addJsonlLine(lines, text.slice(start, end), nextLine++);
        start = end + 1;
      }
      if (start < text.length) addJsonlLine(lines, text.slice(start), nextLine++);
      if (lines.length > 0) yield lines;
      if (done) return;
    }
  } finally {
    file.close();
  }
}

/** Adds one physical line (without its `\n`) unless it is blank, as `splitJsonlLines` does. */
function addJsonlLine(lines: JsonlLine[], raw: string, line: number): void {
  const text = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
  if (text.length === 0) return;
  if (text.charCodeAt(0) === 123 /* { */ || text.trim() !== "") lines.push({ line, text });
}
