/**
 * Loading the eval files of a run: files and folders (searched as `agentv run` searches them),
 * each loaded in the sandbox of its dataset root (as `agentv run` loads them: a worker that may
 * read the root and nothing else, `lib/dataset/sandbox.ts`) unless the caller opts out, with
 * file-level load errors gathered into one {@link RunConfigError}.
 *
 * @module
 */
import { resolve } from "node:path";
import { discoverEvalFiles } from "../dataset/discover.ts";
import { EvalLoadError } from "../dataset/errors.ts";
import { loadEvalFile } from "../dataset/load_eval_file.ts";
import { Sandbox, sandboxRoot } from "../dataset/sandbox.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { RunConfigError, SandboxUnavailableError } from "./errors.ts";
import type { EvalFileLoader, LoadedEvalSet, RunEvalOptions } from "./run_options.ts";

/**
 * Loads `options.files` (folders expanded) with `options.load`, else in sandbox workers (one per
 * dataset root, closed once the files are loaded), else in this process with `sandbox: false`;
 * then appends `options.sets`. Throws {@link RunConfigError} naming every file that could not be
 * loaded (nothing ran), {@link SandboxUnavailableError} when a sandbox cannot start.
 *
 * @example
 * ```ts ignore
 * import { loadSets } from "./load_sets.ts";
 * const sets = await loadSets({ files: ["evals"], env: {}, cwd: Deno.cwd() });
 * ```
 */
export async function loadSets(
  options: Pick<RunEvalOptions, "files" | "sets" | "load" | "sandbox" | "cwd" | "signal"> & {
    root?: string | undefined;
    verbose?: boolean | undefined;
  },
): Promise<LoadedEvalSet[]> {
  const sandboxes = options.load || options.sandbox === false
    ? undefined
    : sandboxLoader(options.signal);
  const load: EvalFileLoader = options.load ?? sandboxes?.load ?? loadEvalFile;
  const sets: LoadedEvalSet[] = [];
  const fileErrors: Diagnostic[] = [];
  const root = options.root === undefined ? undefined : resolve(options.cwd, options.root);
  try {
    for (const path of await expandFolders(options.files ?? [], options.cwd, fileErrors)) {
      try {
        sets.push(await load(resolve(options.cwd, path), { root, verbose: options.verbose }));
      } catch (e) {
        const loadError = e instanceof EvalLoadError ||
          (!(e instanceof SandboxUnavailableError) &&
            (e as { diagnostics?: unknown })?.diagnostics);
        if (!loadError) throw e;
        const { diagnostics } = e as EvalLoadError;
        fileErrors.push(
          ...(diagnostics.length > 0
            ? diagnostics
            : [{ severity: "error" as const, file: path, message: (e as Error).message }]),
        );
      }
    }
  } finally {
    sandboxes?.close();
  }
  if (fileErrors.length > 0) {
    throw new RunConfigError(
      `Could not load ${new Set(fileErrors.map((d) => d.file)).size} eval file(s); nothing ran`,
      { diagnostics: fileErrors, hint: "fix the errors above (agentv validate shows them too)" },
    );
  }
  return [...sets, ...(options.sets ?? [])];
}

/** A loader that loads each file in the sandbox of its dataset root; `close` ends them all. */
function sandboxLoader(signal: AbortSignal | undefined): { load: EvalFileLoader; close(): void } {
  const sandboxes = new Map<string, Sandbox>();
  return {
    load: async (path, { root, verbose }) => {
      const fileRoot = await sandboxRoot(path, { root });
      let sandbox = sandboxes.get(fileRoot);
      if (!sandbox) sandboxes.set(fileRoot, sandbox = new Sandbox(fileRoot));
      try {
        return await sandbox.load(path, { verbose: verbose ?? false, signal });
      } catch (e) {
        // The worker could not start with its permissions (they must be the caller's too).
        if (e instanceof Deno.errors.NotCapable) throw new SandboxUnavailableError(fileRoot, e);
        throw e;
      }
    },
    close: () => {
      for (const sandbox of sandboxes.values()) sandbox.close();
    },
  };
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
