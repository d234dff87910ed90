/**
 * One raw case (a YAML `evalcases` item or a JSONL line) → a normalised {@link EvalCase} or
 * located diagnostics. Unknown keys are warned about and stripped, then the case is validated
 * again so it still loads.
 *
 * @module
 */
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { isStructuredList, type ParsedEvalCase, parseRawEvalCase } from "../schema/eval_file.ts";
import type { Message } from "../schema/message.ts";
import type { Position } from "../fs/decode.ts";
import type { PathKey } from "./yaml_source.ts";
import { formatPath } from "./errors.ts";
import { type Finding, reportIssues, type SchemaIssue, stripKeys } from "./issues.ts";
import { checkJudgeDirs } from "./check_judge_dirs.ts";
import { type CaseContext, type FileDefaults, normalizeCase } from "./normalize_case.ts";
import {
  type FileNeeds,
  recordEvaluatorCommands,
  recordSetupCommands,
} from "./dataset_commands.ts";
import { checkWorkspaceSettings } from "./workspace_settings.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";

/** How to place a case's findings in its file. */
export interface CaseLocation {
  /** The file as the caller named it (diagnostics' `file`). */
  file: string;
  /** Prefix of diagnostic paths (`["evalcases", 2]` for YAML, `[]` for JSONL). */
  pathPrefix: PathKey[];
  /** Message prefix naming the case (`Line 4`, `evalcases[2]`). */
  label: string;
  /** Position of a path inside the case (relative to the case). */
  locate(path: readonly PathKey[], atKey: boolean): Position | undefined;
  /** The case's line when it is known without searching (a JSONL line). */
  line?: number;
}

/** Where a valid case names its target (its `execution.target` or `targets`, else its `id`). */
export interface CaseSite {
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** Location inside the document, e.g. `evalcases[2].execution.target` (or `.targets`). */
  path: string;
  /** Whether the case itself names the target (else it comes from the file, sidecar or default). */
  ownTarget: boolean;
}

/** The outcome of {@link processCase}. */
export interface CaseOutcome {
  /** The case, when valid. */
  evalCase?: EvalCase;
  /** Where the case names its target (with `evalCase`). */
  site?: CaseSite;
  /** Warnings, and the errors that made the case invalid. */
  diagnostics: Diagnostic[];
}

const MAX_PASSES = 4;

/**
 * Validates and normalises one raw case. Never throws for problems in the case. The result is
 * synchronous unless the case references files or judge prompt files.
 */
export function processCase(
  raw: unknown,
  options: {
    defaults: FileDefaults;
    ctx: CaseContext;
    location: CaseLocation;
    /** Record where the case names its target (default false; see `LoadOptions.sites`). */
    sites?: boolean;
    /** Record the processes the case's own evaluators start, placed in `file` (absolute). */
    needs?: { table: FileNeeds; file: string };
  },
): CaseOutcome | Promise<CaseOutcome> {
  const { defaults, ctx, location } = options;
  const findings: Finding[] = [];
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    findings.push({
      severity: "error",
      path: [],
      atKey: false,
      message: `case must be a mapping with id, expected_outcome and input; found ${
        raw === null ? "null" : Array.isArray(raw) ? "a list" : typeof raw
      }; write the case as an object`,
    });
    return { diagnostics: toDiagnostics(findings, location, undefined, true) };
  }
  const record = withoutShadowedAliases(raw as Record<string, unknown>);
  const id = typeof record.id === "string" ? record.id : undefined;
  let value: unknown = record;
  let result = parseRawEvalCase(value);
  for (let pass = 0; !result.success && pass < MAX_PASSES; pass++) {
    const report = reportIssues(result.error.issues as unknown as SchemaIssue[]);
    if (report.unknownKeys.length === 0 || pass === MAX_PASSES - 1) {
      findings.push(...report.findings);
      break;
    }
    findings.push(...report.findings.filter((f) => f.atKey && f.severity === "warning"));
    value = stripKeys(value, report.unknownKeys);
    result = parseRawEvalCase(value);
  }
  if (!result.success) {
    return { diagnostics: toDiagnostics(findings, location, id, true) };
  }
  const ownEvaluators = result.data.execution?.evaluators !== undefined
    ? { list: result.data.execution.evaluators, path: ["execution", "evaluators"] }
    : result.data.evaluators !== undefined
    ? { list: result.data.evaluators, path: ["evaluators"] }
    : undefined;
  if (ownEvaluators) {
    findings.push(
      ...checkJudgeDirs(ownEvaluators.list, ownEvaluators.path, {
        evalDir: ctx.evalDir,
        root: ctx.resolver.root,
      }),
    );
  }
  const ownExecution = result.data.execution as Record<string, unknown> | undefined;
  findings.push(
    ...checkWorkspaceSettings(ownExecution, ["execution"], {
      evalDir: ctx.evalDir,
      root: ctx.resolver.root,
    }),
  );
  const built = normalizeCase(reuseMessages(result.data, value as Record<string, unknown>), {
    defaults,
    ctx,
    keys: {
      input: "input" in record ? "input" : "input_messages",
      expected: "expected_output" in record ? "expected_output" : "expected_messages",
    },
    findings,
  });
  const finish = (evalCase: EvalCase | undefined): CaseOutcome => {
    if (evalCase && ownEvaluators && options.needs) {
      const at = ownEvaluators.path;
      recordEvaluatorCommands(options.needs.table, ownEvaluators.list, {
        file: options.needs.file,
        evalDir: ctx.evalDir,
        locate: (path) => location.locate([...at, ...path], false),
      });
    }
    if (evalCase && options.needs && ownExecution?.workspace_repo !== undefined) {
      const at = ["execution", "workspace_repo", "setup"];
      recordSetupCommands(options.needs.table, ownExecution.workspace_repo as WorkspaceRepo, {
        file: options.needs.file,
        locate: (path) => location.locate([...at, ...path], false),
      });
    }
    return outcome(evalCase);
  };
  const outcome = (evalCase: EvalCase | undefined): CaseOutcome => ({
    evalCase,
    ...(evalCase && options.sites === true ? { site: caseSite(record, location) } : {}),
    diagnostics: findings.length === 0
      ? []
      : toDiagnostics(findings, location, id, evalCase === undefined),
  });
  return built instanceof Promise ? built.then(finish) : finish(built);
}

/**
 * Ids already used by valid cases of one file, with where they were first seen; a later case with
 * the same id is rejected (two rows with one id cannot be told apart, nor compared across runs).
 */
export class CaseIds {
  /** Where each id was first seen: a line number, or a label when the line is unknown. */
  #first = new Map<string, number | string>();

  /** `outcome` unchanged, or without its case and with an error when the id was seen before. */
  check(outcome: CaseOutcome, location: CaseLocation): CaseOutcome {
    const evalCase = outcome.evalCase;
    if (!evalCase) return outcome;
    const first = this.#first.get(evalCase.id);
    if (first === undefined) {
      // Locating a key in a JSONL line parses it again: only YAML cases (cheap) are located here.
      const line = location.line ?? location.locate(["id"], false)?.line;
      // The line, not a message: a string per case would cost ~0.5 µs each on 100,000 cases.
      this.#first.set(evalCase.id, line ?? location.label);
      return outcome;
    }
    const position = location.locate(["id"], false);
    const diagnostic: Diagnostic = {
      severity: "error",
      file: location.file,
      ...(position ? { line: position.line, column: position.column } : {}),
      path: formatPath([...location.pathPrefix, "id"]),
      message: `${location.label}: duplicate case id '${evalCase.id}' (first used at ${
        typeof first === "number" ? `line ${first}` : first
      }); expected ids unique within the file; rename one of the cases; this one is skipped`,
    };
    return { diagnostics: [...outcome.diagnostics, diagnostic] };
  }
}

/** The paths a case site names, formatted once (a JSONL case's paths have no prefix). */
const TARGET_PATH: readonly PathKey[] = ["execution", "target"];
const TARGETS_PATH: readonly PathKey[] = ["execution", "targets"];
const ID_PATH: readonly PathKey[] = ["id"];
const SITES = new Map([TARGET_PATH, TARGETS_PATH, ID_PATH].map((p) => [p, formatPath(p)]));

/** Where a case names its target: its `execution.target` (or `targets`), else its `id`. */
function caseSite(record: Record<string, unknown>, location: CaseLocation): CaseSite {
  const execution = record.execution as Record<string, unknown> | undefined;
  const list = Array.isArray(execution?.targets);
  const ownTarget = list || typeof execution?.target === "string";
  const path = list ? TARGETS_PATH : ownTarget ? TARGET_PATH : ID_PATH;
  const formatted = location.pathPrefix.length > 0
    ? formatPath([...location.pathPrefix, ...path])
    : SITES.get(path)!;
  const site = { path: formatted, ownTarget };
  // A JSONL case's line is known; its column would cost a second parse of the line, so it is
  // found only for a site a message points at (`JsonlTargets.select`).
  if (location.line !== undefined) return { line: location.line, ...site };
  const position = location.locate(path, false);
  return position ? { line: position.line, column: position.column, ...site } : site;
}

/** Alias keys and the primary keys that win over them. */
const ALIASES: readonly (readonly [primary: string, alias: string])[] = [
  ["input", "input_messages"],
  ["expected_output", "expected_messages"],
  ["expected_outcome", "outcome"],
];

/**
 * The case without the aliases its primary keys shadow: when both `input` and `input_messages`
 * (or `expected_output` and `expected_messages`, `expected_outcome` and `outcome`) are present,
 * the new name wins and the alias is ignored entirely, even when its value would be invalid.
 */
function withoutShadowedAliases(record: Record<string, unknown>): Record<string, unknown> {
  let out = record;
  for (const [primary, alias] of ALIASES) {
    if (record[primary] !== undefined && alias in record) {
      if (out === record) out = { ...record };
      delete out[alias];
    }
  }
  return out;
}

/**
 * Message schemas have no defaults or transforms, so once a case is valid its message arrays, as
 * parsed from the file, equal the schema's output; reusing them saves a copy of every message
 * (the corpus tests check the equality).
 */
export function reuseMessages(
  parsed: ParsedEvalCase,
  raw: Record<string, unknown>,
): ParsedEvalCase {
  const input = raw.input !== undefined ? raw.input : raw.input_messages;
  if (Array.isArray(input)) parsed.input = input as Message[];
  const expected = raw.expected_output !== undefined ? raw.expected_output : raw.expected_messages;
  if (Array.isArray(expected) && !isStructuredList(expected)) {
    parsed.expected_output = expected as Message[];
  }
  return parsed;
}

function toDiagnostics(
  findings: readonly Finding[],
  location: CaseLocation,
  id: string | undefined,
  skipped: boolean,
): Diagnostic[] {
  const label = id === undefined || location.label.startsWith("Line")
    ? location.label
    : `Case '${id}'`;
  const suffix = skipped ? `; ${id === undefined ? "the case" : `case '${id}'`} is skipped` : "";
  return findings.map((f) => {
    const position = location.locate(f.path, f.atKey);
    const fullPath = [...location.pathPrefix, ...f.path];
    const causesSkip = skipped && !(f.atKey && f.severity === "warning");
    const diagnostic: Diagnostic = {
      severity: f.severity,
      file: location.file,
      message: `${label}: ${f.message}${causesSkip ? suffix : ""}`,
    };
    if (position) {
      diagnostic.line = position.line;
      diagnostic.column = position.column;
    }
    if (fullPath.length > 0) diagnostic.path = formatPath(fullPath);
    return diagnostic;
  });
}
