/**
 * `validate` of a JSONL eval file: the loader's checks, line by line, keeping nothing per case but
 * its target's line and two hashes of its id. A line whose case is plain (`plain_case.ts`: valid
 * with no diagnostic and no file to read) is counted without the case pipeline; any other line
 * goes through it (`processRecord`), which reports each problem at its line and column as a load
 * does. Diagnostics are the same either way (`tests/loader/jsonl_validate_test.ts` compares the
 * two on mutated files).
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import { useCompiledCaseParser } from "../schema/eval_file.ts";
import { locateInJsonLine } from "../source/jsonl_source.ts";
import { EvalLoadError, formatPath } from "./errors.ts";
import { JsonlTargets, readLines } from "./case_targets.ts";
import type { LoadSetup } from "./context.ts";
import { confirmDuplicates, IdDigests, type SuspectLine } from "./id_digests.ts";
import {
  jsonDepth,
  MAX_JSON_DEPTH,
  parseRecord,
  processRecord,
  readJsonlLines,
  sidecarDefaults,
} from "./jsonl_file.ts";
import type { FileDefaults } from "./normalize_case.ts";
import { isPlainCase } from "./plain_case.ts";

/** What {@link validateJsonlCases} found. */
export interface JsonlValidation {
  /** Valid cases. */
  cases: number;
  /** The target of each valid case. */
  targets: JsonlTargets;
}

/** Options of {@link validateJsonlCases}. */
export interface JsonlValidateOptions {
  /** Report verbose-only warnings (a missing sidecar). */
  verbose: boolean;
  /** Receives each diagnostic, in file order, once the file is read. */
  report(d: Diagnostic): void;
  /** Count plain cases without the case pipeline (default true; false is the reference path). */
  plainCases?: boolean;
  /** Keep each case's id with its target (for a caller that lists every use). */
  keepIds?: boolean;
}

/**
 * Validates every line of a JSONL file. A malformed line fails the whole file, as in a load
 * (`EvalLoadError` with every malformed line, after all lines were checked for syntax).
 */
export async function validateJsonlCases(
  setup: LoadSetup,
  options: JsonlValidateOptions,
): Promise<JsonlValidation> {
  const defaults = await sidecarDefaults(setup, { verbose: options.verbose, emit: options.report });
  const targets = new JsonlTargets(setup.file, setup.absFile, { keepIds: options.keepIds });
  const ids = new IdDigests();
  const found: Diagnostic[] = [];
  const malformed: Diagnostic[] = [];
  const plain = options.plainCases ?? true;
  const fileTarget = defaultTarget(defaults);
  let cases = 0;
  for await (const lines of readJsonlLines(setup.absFile, setup.file)) {
    for (const line of lines) {
      const record = parseRecord(line, setup.file);
      const parsed = record instanceof Promise ? await record : record;
      if ("diagnostic" in parsed) {
        malformed.push(parsed.diagnostic);
        continue;
      }
      if (malformed.length > 0) continue;
      const value = parsed.value as Record<string, unknown>;
      if (plain && !tooDeep(line.text) && isPlainCase(value)) {
        const execution = value.execution as { target?: string } | undefined;
        const own = execution?.target;
        ids.add(value.id as string, line.line);
        targets.add(own ?? fileTarget, line.line, own !== undefined, value.id as string);
        cases++;
        continue;
      }
      if (setup.large) useCompiledCaseParser(); // once a line needs the schemas
      const pending = processRecord(value, line, { setup, defaults });
      const outcome = pending instanceof Promise ? await pending : pending;
      for (const d of outcome.diagnostics) found.push(d);
      const evalCase = outcome.evalCase;
      if (evalCase === undefined) continue;
      ids.add(evalCase.id, line.line);
      const own = typeof (value.execution as { target?: unknown } | undefined)?.target === "string";
      targets.add(evalCase.execution.target, line.line, own, evalCase.id);
      cases++;
    }
  }
  if (malformed.length > 0) throw EvalLoadError.from(malformed);
  if (ids.suspects.length > 0) {
    for (const d of await duplicateDiagnostics(setup, ids.suspects)) {
      found.push(d);
      targets.remove(d.line!);
      cases--;
    }
    // Each line's diagnostics stay together, the duplicate last: file order, as a load gives.
    found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  }
  for (const d of found) options.report(d);
  return { cases, targets };
}

/** The target of a case that names none: the file's or sidecar's, else `default`. */
function defaultTarget(defaults: FileDefaults): string {
  return (defaults.execution.target as string | undefined) ?? defaults.target ?? "default";
}

/** Whether a line nests too deep (the pipeline reports it; see `processRecord`). */
function tooDeep(text: string): boolean {
  return text.length > MAX_JSON_DEPTH * 2 && jsonDepth(text) > MAX_JSON_DEPTH;
}

/** Errors for the suspects whose ids, read again, equal an earlier case's (see `IdDigests`). */
async function duplicateDiagnostics(
  setup: LoadSetup,
  suspects: readonly SuspectLine[],
): Promise<Diagnostic[]> {
  const wanted = new Set<number>();
  for (const s of suspects) {
    wanted.add(s.line);
    wanted.add(s.first);
  }
  const texts = await readLines(setup.absFile, setup.file, wanted);
  const idOf = new Map<number, string>();
  for (const [line, text] of texts) {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    if (typeof id === "string") idOf.set(line, id);
  }
  if (idOf.size !== wanted.size) {
    throw EvalLoadError.from([{
      severity: "error",
      file: setup.file,
      message:
        "The file changed while it was read; expected a stable eval file; run again once it is written",
    }]);
  }
  return confirmDuplicates(suspects, idOf).map(({ line, first }) => ({
    severity: "error",
    file: setup.file,
    line,
    column: locateInJsonLine(texts.get(line)!, ["id"]) ?? 1,
    path: formatPath(["id"]),
    message: `Line ${line}: duplicate case id '${idOf.get(line)}' (first used at line ${first}); ` +
      "expected ids unique within the file; rename one of the cases; this one is skipped",
  }));
}
