/**
 * `validateEvalFile`: a report of one eval file that never throws for problems in the file.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import type { CaseSite } from "./case_pipeline.ts";
import { EvalLoadError } from "./errors.ts";
import { loadEvalFile } from "./load_eval_file.ts";
import type { DatasetCommand, SourceHash } from "./dataset_commands.ts";

/** A valid case's target and where the case names it (for checking it against targets files). */
export type CaseTargetUse = CaseSite & {
  /** Case id. */
  id: string;
  /** The target name the case runs against (case, file or sidecar `execution.target`). */
  target: string;
};

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
  options: {
    verbose?: boolean;
    root?: string;
    /**
     * Receives, once the file is loaded, the processes its valid cases' evaluators start and the
     * files parsed with their hashes (what `agentv trust` and `validate` list).
     */
    onNeeds?: (needs: { commands: DatasetCommand[]; sources: SourceHash[] }) => void;
  } = {},
): Promise<EvalFileReport> {
  const diagnostics: Diagnostic[] = [];
  let cases = 0;
  let targets: CaseTargetUse[] = [];
  try {
    // Cases are counted as they are validated, never kept: only their targets are.
    const loaded = await loadEvalFile(path, {
      verbose: options.verbose,
      root: options.root,
      onDiagnostic: (d) => diagnostics.push(d),
      sites: true,
      onCase: (c, site) => {
        cases++;
        targets.push({
          ...site,
          path: site?.path ?? "",
          ownTarget: site?.ownTarget ?? false,
          id: c.id,
          target: c.execution.target,
        });
      },
    });
    options.onNeeds?.({ commands: loaded.commands ?? [], sources: loaded.sources ?? [] });
  } catch (e) {
    if (e instanceof EvalLoadError) {
      diagnostics.push(...e.diagnostics);
    } else {
      diagnostics.push({
        severity: "error",
        file: path,
        message: `Internal error while loading the file: ${
          e instanceof Error ? e.message : String(e)
        }; expected a clean load; please report this as a bug with the file`,
      });
    }
    cases = 0;
    targets = [];
  }
  return {
    file: path,
    valid: !diagnostics.some((d) => d.severity === "error"),
    cases,
    diagnostics,
    targets,
  };
}
