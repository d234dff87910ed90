/**
 * `validateEvalFile`: a report of one eval file that never throws for problems in the file.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import {
  type CaseTargets,
  caseTargets,
  type CaseTargetUse,
  JsonlTargets,
  ListedTargets,
} from "./case_targets.ts";
import { prepareLoad } from "./context.ts";
import { EvalLoadError } from "./errors.ts";
import { validateJsonlCases } from "./jsonl_validate.ts";
import { caseJudgeNeeds } from "../schema/judge_needs.ts";
import type { DatasetCommand, SourceHash } from "./dataset_commands.ts";

export type { CaseTargets, CaseTargetUse };

/** The report of {@link validateEvalFile}. */
export interface EvalFileReport {
  /** The file as given. */
  file: string;
  /** False when any diagnostic is an error. */
  valid: boolean;
  /** Number of valid cases. */
  cases: number;
  /** Every problem found, in file order. */
  diagnostics: Diagnostic[];
  /** The target of each valid case and where the case names it. */
  targets: CaseTargetUse[];
}

/**
 * What a file's load found that consent covers: the processes its valid cases' evaluators start
 * and the files parsed with the SHA-256 of their text (what `agentv trust` and `validate` list).
 */
export interface FileNeedsReport {
  /** The processes the evaluators start, each where it is written. */
  commands: DatasetCommand[];
  /** The eval file (and its sidecar) with the hash of the text parsed. */
  sources: SourceHash[];
}

/** Options of {@link validateEvalFile} and {@link checkEvalFile}. */
export interface ValidateEvalFileOptions {
  /** Report verbose-only warnings (a JSONL file without a sidecar). */
  verbose?: boolean;
  /** Dataset root (default: found from the file). */
  root?: string;
  /** Receives, once the file is loaded, what consent covers (see {@link FileNeedsReport}). */
  onNeeds?: (needs: FileNeedsReport) => void;
}

/**
 * Validates an eval file: loads it and reports every diagnostic. File-level failures become
 * error diagnostics instead of exceptions.
 *
 * @example
 * ```ts
 * import { validateEvalFile } from "@agentv/agentv";
 * const report = await validateEvalFile("evals/dataset.yaml");
 * if (!report.valid) for (const d of report.diagnostics) console.error(d.message);
 * ```
 */
export async function validateEvalFile(
  path: string,
  options: ValidateEvalFileOptions = {},
): Promise<EvalFileReport> {
  const { report, targets } = await checkEvalFile(path, { ...options, keepIds: true });
  // The ids were kept: the uses are listed without reading the file again.
  const all = targets instanceof JsonlTargets
    ? await targets.select(() => true, { located: false })
    : await targets.select(() => true);
  return { ...report, targets: all };
}

/**
 * {@link validateEvalFile} without listing the targets: they come back as {@link CaseTargets},
 * which for a JSONL file hold 4 bytes a case. `validate` checks them against the targets file.
 * `plainCases: false` sends every JSONL line through the whole case pipeline (the reference the
 * quick path is tested against).
 *
 * @example
 * ```ts ignore
 * const { report, targets } = await checkEvalFile("evals/big.jsonl");
 * console.log(report.cases, targets.names());
 * ```
 */
export async function checkEvalFile(
  path: string,
  options: ValidateEvalFileOptions & { keepIds?: boolean; plainCases?: boolean } = {},
): Promise<{ report: Omit<EvalFileReport, "targets">; targets: CaseTargets }> {
  const diagnostics: Diagnostic[] = [];
  const onDiagnostic = (d: Diagnostic) => diagnostics.push(d);
  let cases = 0;
  let targets: CaseTargets = new ListedTargets([]);
  try {
    const format = path.toLowerCase().endsWith(".jsonl") ? "jsonl" : "other";
    if (format === "jsonl") {
      const setup = await prepareLoad(path, { ...options, onDiagnostic });
      for (const d of setup.diagnostics) onDiagnostic(d);
      const checked = await validateJsonlCases(setup, {
        verbose: options.verbose ?? false,
        report: onDiagnostic,
        ...(options.plainCases !== undefined ? { plainCases: options.plainCases } : {}),
        ...(options.keepIds !== undefined ? { keepIds: options.keepIds } : {}),
      });
      cases = checked.cases;
      targets = checked.targets;
      options.onNeeds?.({
        commands: [...setup.needs.commands.values()],
        sources: setup.needs.sources,
      });
    } else {
      // Cases are counted as they are validated, never kept: only their targets are. (The loader,
      // and zod with it, is imported here: a JSONL file of plain cases needs neither.)
      const { loadEvalFile } = await import("./load_eval_file.ts");
      const uses: CaseTargetUse[] = [];
      const loaded = await loadEvalFile(path, {
        verbose: options.verbose,
        root: options.root,
        onDiagnostic,
        sites: true,
        onCase: (c, site) => {
          cases++;
          const needs = caseJudgeNeeds(c);
          for (const target of caseTargets(c)) {
            uses.push({
              ...site,
              path: site?.path ?? "",
              ownTarget: site?.ownTarget ?? false,
              id: c.id,
              target,
              needs,
            });
          }
        },
      });
      targets = new ListedTargets(uses);
      options.onNeeds?.({ commands: loaded.commands ?? [], sources: loaded.sources ?? [] });
    }
  } catch (e) {
    diagnostics.push(...loadFailure(path, e));
    cases = 0;
    targets = new ListedTargets([]);
  }
  return {
    report: {
      file: path,
      valid: !diagnostics.some((d) => d.severity === "error"),
      cases,
      diagnostics,
    },
    targets,
  };
}

/** The diagnostics of a file-level failure. */
function loadFailure(path: string, e: unknown): Diagnostic[] {
  if (e instanceof EvalLoadError) return e.diagnostics;
  return [{
    severity: "error",
    file: path,
    message: `Internal error while loading the file: ${
      e instanceof Error ? e.message : String(e)
    }; expected a clean load; please report this as a bug with the file`,
  }];
}
