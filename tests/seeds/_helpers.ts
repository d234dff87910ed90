/**
 * Shared helpers of the seed scenario tests: fixture paths and a loader that collects
 * diagnostics.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import type { Diagnostic, EvalCase } from "../../lib/schema/eval_case.ts";

/** Absolute path of a file under `fixtures/seeds/`. */
export function seed(path: string): string {
  return fileURLToPath(new URL(`../../fixtures/seeds/${path}`, import.meta.url));
}

/** Loads a seed fixture and returns its cases plus every diagnostic reported. */
export async function load(
  path: string,
  options: { verbose?: boolean } = {},
): Promise<{ cases: EvalCase[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const cases = await loadEvalCases(seed(path), {
    verbose: options.verbose,
    onDiagnostic: (d) => diagnostics.push(d),
  });
  return { cases, diagnostics };
}

/** The only case of a fixture (fails when there is not exactly one, or any error). */
export async function only(path: string): Promise<EvalCase> {
  const { cases, diagnostics } = await load(path);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || cases.length !== 1) {
    throw new Error(`expected one valid case in ${path}: ${JSON.stringify(diagnostics)}`);
  }
  return cases[0];
}
