/**
 * YAML eval files: `evalcases` plus file-level defaults.
 *
 * @module
 */
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { EvalFileSchema, SidecarSchema } from "../schema/eval_file.ts";
import { parseYamlSource, type PathKey, type YamlSource } from "./yaml_source.ts";
import { CaseIds, type CaseLocation, type CaseSite, processCase } from "./case_pipeline.ts";
import { readSourceText } from "./context.ts";
import type { LoadSetup } from "./context.ts";
import { EvalLoadError, formatPath } from "./errors.ts";
import { type Finding, reportIssues, type SchemaIssue, stripKeys } from "./issues.ts";
import { checkJudgeDirs } from "./check_judge_dirs.ts";
import { checkPrompts, type FileDefaults } from "./normalize_case.ts";
import { recordEvaluatorCommands, recordSetupCommands, sha256Hex } from "./dataset_commands.ts";
import { checkWorkspaceSettings } from "./workspace_settings.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";

/** Cases and diagnostics of a file. */
export interface LoadedCases {
  /** Valid cases, in file order. */
  cases: EvalCase[];
  /** Where each valid case names its target (same order as `cases`). */
  sites: CaseSite[];
  /** Every diagnostic, in file order. */
  diagnostics: Diagnostic[];
}

/**
 * Parses YAML text into a source with positions; throws {@link EvalLoadError} with the syntax
 * errors.
 */
export async function parseYamlOrThrow(text: string, file: string): Promise<YamlSource> {
  const parsed = await parseYamlSource(text);
  if (!parsed.ok) {
    throw EvalLoadError.from(parsed.errors.map((e) => ({
      severity: "error" as const,
      file,
      line: e.position?.line,
      column: e.position?.column,
      message: `${e.message}; expected valid YAML; fix the syntax at this position`,
    })));
  }
  return parsed.source;
}

/** Loads a YAML eval file. Throws {@link EvalLoadError} for file-level problems. */
export async function loadYamlCases(
  setup: LoadSetup,
  report: (d: Diagnostic) => void,
): Promise<LoadedCases> {
  const { file } = setup;
  const text = await readSourceText(setup.absFile, file);
  // Consent covers the text parsed here, never a second read of the file.
  setup.needs.sources.push({ file: setup.absFile, sha256: await sha256Hex(text) });
  const source = await parseYamlOrThrow(text, file);
  const diagnostics: Diagnostic[] = [];
  const emit = (d: Diagnostic) => {
    diagnostics.push(d);
    report(d);
  };
  for (const w of source.warnings) {
    emit({
      severity: "warning",
      file,
      line: w.position?.line,
      column: w.position?.column,
      message: w.message,
    });
  }
  const value = source.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw EvalLoadError.from([{
      severity: "error",
      file,
      line: 1,
      column: 1,
      message:
        "Invalid eval file: the top level is not a mapping; expected `evalcases:` with a list of cases; add `evalcases:` at the top level",
    }]);
  }
  const defaults = await fileDefaults(value, {
    setup,
    locate: (path, atKey) => source.locate(path, { key: atKey }),
    emit,
  });
  const evalcases = (value as { evalcases: unknown[] }).evalcases;
  const cases: EvalCase[] = [];
  const sites: CaseSite[] = [];
  const ids = new CaseIds();
  for (let i = 0; i < evalcases.length; i++) {
    const location: CaseLocation = {
      file,
      pathPrefix: ["evalcases", i],
      label: `evalcases[${i}]`,
      locate: (path, atKey) => source.locate(["evalcases", i, ...path], { key: atKey }),
    };
    const pending = processCase(evalcases[i], {
      defaults,
      ctx: setup.ctx,
      location,
      sites: setup.sites,
      needs: { table: setup.needs, file: setup.absFile },
    });
    const outcome = ids.check(pending instanceof Promise ? await pending : pending, location);
    for (const d of outcome.diagnostics) emit(d);
    if (outcome.evalCase) {
      cases.push(outcome.evalCase);
      if (outcome.site) sites.push(outcome.site);
    }
  }
  return { cases, sites, diagnostics };
}

/**
 * Validates the file-level keys (YAML top level or JSONL sidecar) and returns the defaults
 * they give the cases. Unknown keys are warnings; anything else throws {@link EvalLoadError}.
 */
export async function fileDefaults(
  value: object,
  options: {
    setup: LoadSetup;
    locate(path: readonly PathKey[], atKey: boolean): { line: number; column: number } | undefined;
    emit(d: Diagnostic): void;
    sidecar?: string;
    /** The file the settings are in (absolute): where their evaluators' commands are placed. */
    source?: string;
  },
): Promise<FileDefaults> {
  const { setup, locate, emit } = options;
  const file = options.sidecar ?? setup.file;
  const schema = options.sidecar ? SidecarSchema : EvalFileSchema;
  const toDiagnostic = (f: Finding): Diagnostic => {
    const pos = locate(f.path, f.atKey);
    return {
      severity: f.severity,
      file,
      line: pos?.line,
      column: pos?.column,
      path: f.path.length > 0 ? formatPath(f.path) : undefined,
      message: f.message,
    };
  };
  let current: unknown = value;
  let result = schema.safeParse(current);
  const errors: Diagnostic[] = [];
  for (let pass = 0; !result.success && pass < 4; pass++) {
    const report = reportIssues(result.error.issues as unknown as SchemaIssue[]);
    for (const f of report.findings) {
      if (f.severity === "warning") emit(toDiagnostic(f));
      else if (report.unknownKeys.length === 0 || pass === 3) errors.push(toDiagnostic(f));
    }
    if (report.unknownKeys.length === 0) break;
    current = stripKeys(current, report.unknownKeys);
    result = schema.safeParse(current);
  }
  if (!result.success) {
    if (errors.length === 0) {
      errors.push({ severity: "error", file, message: "Invalid file-level settings" });
    }
    throw EvalLoadError.from(errors.map((d) => ({ ...d, message: `${d.message}` })));
  }
  const data = result.data as {
    dataset?: string;
    execution?: Record<string, unknown> & { evaluators?: FileDefaults["evaluators"] };
    target?: string;
    evaluator?: FileDefaults["evaluator"];
  };
  const { evaluators, ...execution } = data.execution ?? {};
  const workspaceProblems = checkWorkspaceSettings(execution, ["execution"], {
    evalDir: setup.evalDir,
    root: setup.root,
  }).map(toDiagnostic);
  if (workspaceProblems.length > 0) throw EvalLoadError.from(workspaceProblems);
  recordSetupCommands(setup.needs, execution.workspace_repo as WorkspaceRepo | undefined, {
    file: options.source ?? setup.absFile,
    locate: (path) => locate(["execution", "workspace_repo", "setup", ...path], false),
  });
  if (evaluators) {
    const findings: Finding[] = [];
    await checkPrompts(evaluators, ["execution", "evaluators"], { ctx: setup.ctx, findings });
    findings.push(
      ...checkJudgeDirs(evaluators, ["execution", "evaluators"], {
        evalDir: setup.evalDir,
        root: setup.root,
      }),
    );
    const problems = findings.map(toDiagnostic);
    for (const d of problems) if (d.severity === "warning") emit(d);
    if (problems.some((d) => d.severity === "error")) throw EvalLoadError.from(problems);
    recordEvaluatorCommands(setup.needs, evaluators, {
      file: options.source ?? setup.absFile,
      evalDir: setup.evalDir,
      locate: (path) => locate(["execution", "evaluators", ...path], false),
    });
  }
  const dataset = data.dataset?.trim();
  return {
    dataset: dataset ? dataset : setup.stem || "eval",
    execution,
    evaluators,
    target: data.target,
    evaluator: data.evaluator ?? "llm_judge",
  };
}
