/**
 * Loading the eval files of a run: files and folders (searched as `agentv run` searches them),
 * with file-level load errors gathered into one {@link RunConfigError}.
 *
 * @module
 */
import { resolve } from "node:path";
import { discoverEvalFiles } from "../dataset/discover.ts";
import { EvalLoadError } from "../dataset/errors.ts";
import { loadEvalFile } from "../dataset/load_eval_file.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { RunConfigError } from "./errors.ts";
import type { EvalFileLoader, LoadedEvalSet, RunEvalOptions } from "./run_options.ts";

/**
 * Loads `options.files` (folders expanded) with `options.load` (default `loadEvalFile`), then
 * appends `options.sets`. Throws {@link RunConfigError} naming every file that could not be
 * loaded (nothing ran).
 *
 * @example
 * ```ts ignore
 * import { loadSets } from "./load_sets.ts";
 * const sets = await loadSets({ files: ["evals"], env: {}, cwd: Deno.cwd() });
 * ```
 */
export async function loadSets(
  options: Pick<RunEvalOptions, "files" | "sets" | "load" | "cwd"> & {
    root?: string | undefined;
    verbose?: boolean | undefined;
  },
): Promise<LoadedEvalSet[]> {
  const load: EvalFileLoader = options.load ?? loadEvalFile;
  const sets: LoadedEvalSet[] = [];
  const fileErrors: Diagnostic[] = [];
  const root = options.root === undefined ? undefined : resolve(options.cwd, options.root);
  for (const path of await expandFolders(options.files ?? [], options.cwd, fileErrors)) {
    try {
      sets.push(await load(resolve(options.cwd, path), { root, verbose: options.verbose }));
    } catch (e) {
      if (!(e instanceof EvalLoadError || (e as { diagnostics?: unknown })?.diagnostics)) throw e;
      const { diagnostics } = e as EvalLoadError;
      fileErrors.push(
        ...(diagnostics.length > 0
          ? diagnostics
          : [{ severity: "error" as const, file: path, message: (e as Error).message }]),
      );
    }
  }
  if (fileErrors.length > 0) {
    throw new RunConfigError(
      `Could not load ${new Set(fileErrors.map((d) => d.file)).size} eval file(s); nothing ran`,
      { diagnostics: fileErrors, hint: "fix the errors above (agentv validate shows them too)" },
    );
  }
  return [...sets, ...(options.sets ?? [])];
}

/**
 * `files` with every folder replaced by the eval files found in it (searched as `agentv run` and
 * `validate` search folders); a folder without eval files adds an error diagnostic.
 */
async function expandFolders(
  files: string[],
  cwd: string,
  errors: Diagnostic[],
): Promise<string[]> {
  const out: string[] = [];
  for (const path of files) {
    const abs = resolve(cwd, path);
    const isFolder = await Deno.stat(abs).then((info) => info.isDirectory, () => false);
    if (!isFolder) {
      out.push(path);
      continue;
    }
    const found = await discoverEvalFiles([abs], { cwd });
    for (const problem of found.problems) {
      errors.push({ severity: "error", file: path, message: problem });
    }
    out.push(...found.files);
  }
  return out;
}
