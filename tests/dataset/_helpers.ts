/**
 * Helpers for loader tests: temp datasets, loading with collected diagnostics, small case builders.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Diagnostic, type EvalCase, EvalLoadError, loadEvalCases } from "../../mod.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

/** The fixtures folder of these tests. */
export const FIXTURES = fileURLToPath(new URL("../../fixtures/loader/", import.meta.url));

/** The YAML/JSONL equivalence fixture. */
export const EQUIV = join(FIXTURES, "equiv");

/** The agentv examples corpus. */
export const CORPUS = join(REPO_ROOT, "fixtures/corpus/agentv-examples");

/** A temporary dataset (with `.git`, so it is its own root) holding `files`. */
export function dataset(
  files: Record<string, string | Uint8Array>,
  options: { git?: boolean } = {},
): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-loader-", git: options.git !== false });
}

/** Loads a file collecting diagnostics. */
export async function load(
  path: string,
  options: { verbose?: boolean; root?: string } = {},
): Promise<{ cases: EvalCase[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const cases = await loadEvalCases(path, { ...options, onDiagnostic: (d) => diagnostics.push(d) });
  return { cases, diagnostics };
}

/** Loads `path` expecting an `EvalLoadError` with diagnostics, and returns it. */
export async function loadError(
  path: string,
  options: { root?: string } = {},
): Promise<EvalLoadError> {
  try {
    await loadEvalCases(path, options);
  } catch (e) {
    assert.ok(e instanceof EvalLoadError, `expected EvalLoadError, got ${e}`);
    assert.ok(e.diagnostics.length > 0);
    return e;
  }
  assert.fail(`expected ${path} to throw EvalLoadError`);
}

/** One YAML case with `id` plus `extra` lines. */
export const yamlCase = (id: string, extra = "") =>
  `  - id: ${id}\n    expected_outcome: Goal\n    input: Query\n${extra}`;

/** One JSONL line. */
export const line = (value: Record<string, unknown>) => JSON.stringify(value);
