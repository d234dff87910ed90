/**
 * `loadEvalFile`: what the runner uses: the valid cases of one file plus every diagnostic, the
 * dataset root and the file's folder.
 *
 * @module
 */
import type { RunConfigSettings } from "../schema/config.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import type { CaseSite } from "./case_pipeline.ts";
import type { DatasetCommand, SourceHash } from "./dataset_commands.ts";
import { useCompiledCaseParser } from "../schema/eval_file.ts";
import { type LoadOptions, prepareLoad } from "./context.ts";
import { loadJsonlCases } from "./jsonl_file.ts";
import { loadYamlCases } from "./yaml_file.ts";

/** A loaded eval file. */
export interface LoadedEvalFile {
  /** Absolute path of the eval file. */
  file: string;
  /** The dataset root the load was confined to (absolute). */
  root: string;
  /** Folder of the eval file (absolute). */
  evalDir: string;
  /** The valid cases, in file order. */
  cases: EvalCase[];
  /** Where each valid case names its target (same order as `cases`). */
  sites?: CaseSite[];
  /** Warnings, and errors for the cases that were skipped. */
  diagnostics: Diagnostic[];
  /**
   * Run settings (`cache`, `cache_dir`, `budget_usd`) of the `.agentv/config.yaml` that applies
   * to the file (the nearest one up to the dataset root), when it sets any.
   */
  config?: RunConfigSettings;
  /** The eval file (and its sidecar) with the SHA-256 of the text parsed: what consent covers. */
  sources?: SourceHash[];
  /** The processes the file's evaluators start, each where it is written (see `dataset_commands.ts`). */
  commands?: DatasetCommand[];
}

/**
 * Loads one eval file (`.yaml`, `.yml` or `.jsonl`). Never throws for case-level problems (the
 * case is skipped and reported in `diagnostics`); throws `EvalLoadError` for file-level ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { loadEvalFile } from "./load_eval_file.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(join(dir, ".agentv")); // marks the dataset root
 * const file = join(dir, "dataset.yaml");
 * await Deno.writeTextFile(file, "evalcases:\n  - id: a\n    expected_outcome: Says hi\n    input: Hi\n");
 * const { cases, diagnostics, root } = await loadEvalFile(file);
 * assert.deepEqual([cases.length, diagnostics.length, root], [1, 0, await Deno.realPath(dir)]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadEvalFile(
  path: string,
  options: LoadOptions = {},
): Promise<LoadedEvalFile> {
  const diagnostics: Diagnostic[] = [];
  const report = (d: Diagnostic) => {
    diagnostics.push(d);
    options.onDiagnostic?.(d);
  };
  const setup = await prepareLoad(path, options);
  if (setup.large) useCompiledCaseParser();
  for (const d of setup.diagnostics) report(d);
  const loaded = setup.format === "yaml"
    ? await loadYamlCases(setup, report)
    : await loadJsonlCases(setup, { verbose: options.verbose ?? false, report });
  if (setup.onCase && setup.format === "yaml") {
    // A YAML document is in memory whole anyway: its cases are handed over once it is checked.
    loaded.cases.forEach((c, i) => setup.onCase!(c, loaded.sites[i]));
    loaded.cases = [];
    loaded.sites = [];
  }
  return {
    file: setup.absFile,
    root: setup.root,
    evalDir: setup.evalDir,
    cases: loaded.cases,
    sites: loaded.sites,
    diagnostics,
    ...(setup.runConfig !== undefined ? { config: setup.runConfig } : {}),
    sources: setup.needs.sources,
    commands: [...setup.needs.commands.values()],
  };
}
