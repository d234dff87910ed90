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
import { type JsonlLine, locateInJsonLine } from "./jsonl_source.ts";
import { EvalLoadError, formatPath } from "./errors.ts";
import { caseTargets, JsonlTargets, type JsonlTargetSite, readLines } from "./case_targets.ts";
import type { LoadSetup } from "./context.ts";
import { confirmDuplicates, IdDigests, type SuspectLine } from "./id_digests.ts";
import {
  jsonDepth,
  jsonlLineText,
  lineEnd,
  MAX_JSON_DEPTH,
  parseRecord,
  readJsonlText,
  sidecarDefaults,
} from "./jsonl_reader.ts";
import type { FileDefaults } from "./normalize_case.ts";
import { isPlainCase, plainCaseJudgeNeeds } from "./plain_case.ts";
import { caseJudgeNeeds, type JudgeNeeds } from "../schema/judge_needs.ts";

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
  const check = new LineCheck(setup, defaults, options);
  // Lines are cut from each chunk here, not listed first: 100,000 line objects cost ~10 ms.
  let lineNo = 1;
  // Consent covers the bytes parsed here, hashed as they are read (never a second read).
  const hash = (await import("node:crypto")).createHash("sha256");
  for await (const text of readJsonlText(setup.absFile, setup.file, { hash })) {
    for (let start = 0; start < text.length; lineNo++) {
      const end = lineEnd(text, start);
      const line = jsonlLineText(text, start, end);
      start = end + 1;
      if (line === undefined) continue;
      const pending = check.line(line, lineNo);
      if (pending !== undefined) await pending;
    }
  }
  const found = await check.finish();
  setup.needs.sources.push({ file: setup.absFile, sha256: hash.digest("hex") });
  return found;
}

/** The state of {@link validateJsonlCases} over one file. */
class LineCheck {
  readonly #setup: LoadSetup;
  readonly #defaults: FileDefaults;
  readonly #report: (d: Diagnostic) => void;
  readonly #plain: boolean;
  readonly #fileTargets: readonly string[];
  readonly #targets: JsonlTargets;
  readonly #ids = new IdDigests();
  readonly #found: Diagnostic[] = [];
  readonly #malformed: Diagnostic[] = [];
  #cases = 0;
  #pipeline: typeof import("./jsonl_file.ts") | undefined;

  constructor(setup: LoadSetup, defaults: FileDefaults, options: JsonlValidateOptions) {
    this.#setup = setup;
    this.#defaults = defaults;
    this.#report = options.report;
    this.#plain = options.plainCases ?? true;
    this.#fileTargets = defaultTargets(defaults);
    this.#targets = new JsonlTargets(setup.file, setup.absFile, { keepIds: options.keepIds });
  }

  /** Checks one non-blank line; a promise only when the line needs the case pipeline. */
  line(text: string, line: number): Promise<void> | undefined {
    if (this.#malformed.length > 0 || !this.#plain) return this.#full({ line, text });
    const value = parseJsonObject(text);
    if (value === undefined || tooDeep(text) || !isPlainCase(value)) {
      return this.#full({ line, text }, value);
    }
    const own = (value.execution as { target?: string } | undefined)?.target;
    const needs = plainCaseJudgeNeeds(value, this.#defaults);
    if (own === undefined) this.#add(value.id as string, this.#fileTargets, "none", line, needs);
    else this.#add(value.id as string, [own], "target", line, needs);
    return undefined;
  }

  #add(
    id: string,
    targets: readonly string[],
    site: JsonlTargetSite,
    line: number,
    needs: JudgeNeeds,
  ): void {
    this.#ids.add(id, line);
    for (const target of targets) this.#targets.add(target, line, site, needs, id);
    this.#cases++;
  }

  /** The line through the case pipeline (`value`: the line's object, when already parsed). */
  async #full(line: JsonlLine, value?: Record<string, unknown>): Promise<void> {
    if (value === undefined) {
      const record = parseRecord(line, this.#setup.file);
      const parsed = record instanceof Promise ? await record : record;
      if ("diagnostic" in parsed) return void this.#malformed.push(parsed.diagnostic);
      value = parsed.value as Record<string, unknown>;
    }
    if (this.#malformed.length > 0) return;
    this.#pipeline ??= await casePipeline(this.#setup);
    const setup = this.#setup;
    const pending = this.#pipeline.processRecord(value, line, { setup, defaults: this.#defaults });
    const outcome = pending instanceof Promise ? await pending : pending;
    for (const d of outcome.diagnostics) this.#found.push(d);
    const evalCase = outcome.evalCase;
    if (evalCase === undefined) return;
    const execution = value.execution as { target?: unknown; targets?: unknown } | undefined;
    const site = Array.isArray(execution?.targets)
      ? "targets"
      : typeof execution?.target === "string"
      ? "target"
      : "none";
    this.#add(evalCase.id, caseTargets(evalCase), site, line.line, caseJudgeNeeds(evalCase));
  }

  /** Reports what was found, once the whole file was read. */
  async finish(): Promise<JsonlValidation> {
    if (this.#malformed.length > 0) throw EvalLoadError.from(this.#malformed);
    const found = this.#found;
    const suspects = this.#ids.suspects();
    if (suspects.length > 0) {
      for (const d of await duplicateDiagnostics(this.#setup, suspects)) {
        found.push(d);
        this.#targets.remove(d.line!);
        this.#cases--;
      }
      // Each line's diagnostics stay together, the duplicate last: file order, as a load gives.
      found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    }
    for (const d of found) this.#report(d);
    return { cases: this.#cases, targets: this.#targets };
  }
}

/** The object a JSONL line holds, or `undefined` when it is not one (the pipeline says why). */
function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/**
 * The case pipeline (the schemas, zod), imported when the first line that is not a plain case
 * needs it; a large file gets the compiled case parser then.
 */
async function casePipeline(setup: LoadSetup): Promise<typeof import("./jsonl_file.ts")> {
  const [pipeline, schema] = await Promise.all([
    import("./jsonl_file.ts"),
    import("../schema/eval_file.ts"),
  ]);
  if (setup.large) schema.useCompiledCaseParser();
  return pipeline;
}

/** The targets of a case that names none: the file's or sidecar's, else `default`. */
function defaultTargets(defaults: FileDefaults): readonly string[] {
  const { target, targets } = defaults.execution as { target?: string; targets?: string[] };
  return targets ?? [target ?? defaults.target ?? "default"];
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
