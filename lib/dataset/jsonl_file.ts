/**
 * JSONL eval files: one case per line, physical line numbers, and the sidecar `<name>.yaml`
 * beside the file for dataset-level defaults. Each line goes through the case pipeline here;
 * reading the lines and the sidecar is `jsonl_reader.ts`'s.
 *
 * @module
 */
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { type JsonlLine, locateInJsonLine } from "./jsonl_source.ts";
import {
  CaseIds,
  type CaseLocation,
  type CaseOutcome,
  type CaseSite,
  processCase,
} from "./case_pipeline.ts";
import type { LoadSetup } from "./context.ts";
import { EvalLoadError } from "./errors.ts";
import {
  jsonDepth,
  MAX_JSON_DEPTH,
  parseRecord,
  readJsonlLines,
  sidecarDefaults,
} from "./jsonl_reader.ts";
import type { FileDefaults } from "./normalize_case.ts";
import type { LoadedCases } from "./yaml_file.ts";

// Reading lines and the sidecar needs no schema; they live in `jsonl_reader.ts`.
export {
  jsonDepth,
  MAX_JSON_DEPTH,
  type ParsedLine,
  parseRecord,
  readJsonlLines,
  sidecarDefaults,
} from "./jsonl_reader.ts";

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
    needs: { table: setup.needs, file: setup.absFile },
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
  // Consent covers the bytes parsed here, hashed as they are read (never a second read). The
  // hash is imported here: YAML-only loads never pay for it.
  const hash = (await import("node:crypto")).createHash("sha256");
  for await (const lines of readJsonlLines(setup.absFile, setup.file, { hash })) {
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
  setup.needs.sources.push({ file: setup.absFile, sha256: hash.digest("hex") });
  for (const d of found) emit(d);
  return { cases, sites, diagnostics };
}
