/**
 * The files a recorded run read, for the commands that write after a run (`report --out`,
 * `merge -o`): like `agentv run --out`, they must never write over one. The run record beside a
 * results file names the run's eval files; they are loaded here as `agentv run` loads them (in
 * the sandbox) when they are here unchanged, so the inputs are those of `runInputs` (eval files,
 * sidecars, targets, config and `.env` files up to the dataset root, guidelines, attached files,
 * judge prompts and code judges). When they cannot be loaded, the inputs are what the record
 * names: the eval files, their sidecars, the targets files, and the targets, config and `.env`
 * files of each folder from an eval file up to its dataset root.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { readRunRecord, runRecordPath, sha256File } from "../results/run_record.ts";
import type { RunRecord } from "../schema/run_record.ts";
import type { LoadedEvalSet } from "../run/run_eval.ts";
import type { CommandIO } from "./command.ts";
import { displayPath } from "../fs/display_path.ts";
import {
  type OutputRefusalOptions,
  refuseOutputOverInput,
  type RunInput,
  runInputs,
} from "./run_inputs.ts";

/** The eval files of a recorded run: loaded, or named only (no cases), with why. */
export type RecordedSets =
  | { loaded: true; sets: LoadedEvalSet[] }
  | { loaded: false; sets: LoadedEvalSet[]; note: string };

/**
 * Loads the eval files a run record names, in the sandbox, when each is readable here and has
 * the content the record hashed; otherwise gives each as a set without cases (its root found as
 * `agentv run` finds it) and says why in `note`.
 *
 * @example
 * ```ts ignore
 * const recorded = await loadRecordedSets(record, io);
 * if (!recorded.loaded) io.stderr(`note: ${recorded.note}\n`);
 * ```
 */
export async function loadRecordedSets(record: RunRecord, io: CommandIO): Promise<RecordedSets> {
  const { Sandbox, sandboxRoot } = await import("../dataset/sandbox.ts");
  const rootOf = (path: string) =>
    sandboxRoot(path, record.options.root ? { root: record.options.root } : {});
  const unloaded = async (note: string): Promise<RecordedSets> => ({
    loaded: false,
    note,
    sets: await Promise.all(record.datasets.map(async (d) => ({
      file: d.path,
      root: await rootOf(d.path),
      evalDir: dirname(d.path),
      cases: [],
    }))),
  });
  for (const d of record.datasets) {
    const shown = displayPath(d.path, io.cwd);
    const sha = await sha256File(d.path).catch(() => undefined);
    if (sha === undefined) return await unloaded(`the eval file ${shown} is not readable here`);
    if (d.sha256 !== null && sha !== d.sha256) {
      return await unloaded(`the eval file ${shown} changed since the run`);
    }
  }
  const sandboxes = new Map<string, InstanceType<typeof Sandbox>>();
  try {
    const sets: LoadedEvalSet[] = [];
    for (const d of record.datasets) {
      const root = await rootOf(d.path);
      let sandbox = sandboxes.get(root);
      if (!sandbox) sandboxes.set(root, sandbox = new Sandbox(root));
      sets.push(await sandbox.load(d.path, { signal: io.signal }));
    }
    return { loaded: true, sets };
  } catch (e) {
    return await unloaded(`the eval files could not be loaded here (${(e as Error).message})`);
  } finally {
    for (const sandbox of sandboxes.values()) sandbox.close();
  }
}

/**
 * Every file a recorded run read (see the module doc), with the results file itself and its run
 * record first.
 *
 * @example
 * ```ts ignore
 * const inputs = recordedRunInputs(resultsPath, record, await loadRecordedSets(record, io));
 * await refuseOutputOverInput(out, inputs, { flag: "--out", shown: outArg });
 * ```
 */
export async function recordedRunInputs(
  results: { path: string; recordPath: string },
  record: RunRecord | undefined,
  sets: readonly LoadedEvalSet[],
): Promise<RunInput[]> {
  const own: RunInput[] = [
    { path: resolve(results.path), what: "results file" },
    { path: resolve(results.recordPath), what: "run record" },
  ];
  if (record === undefined) return own;
  const targets = record.options.targets_file;
  const inputs = await runInputs(sets, targets === null ? {} : { targets });
  for (const t of record.targets) {
    if (t.targets_file !== null) {
      inputs.push({ path: resolve(t.targets_file), what: "targets file" });
    }
  }
  return [...own, ...inputs];
}

/**
 * Refuses (a `UsageError`, before anything is written) an output of a command that writes after
 * a run (`report --out`, `merge -o`) when it is a file that run read (see the module doc): the
 * run of `resultsPath`, as its run record tells, or only the results file and its record when
 * there is no record.
 *
 * @example
 * ```ts ignore
 * await refuseOutputOverRecordedRun("/p/.agentv/targets.yaml", "/p/out.jsonl", io, {
 *   shown: ".agentv/targets.yaml",
 *   writes: "the report replaces the file",
 * });
 * ```
 */
export async function refuseOutputOverRecordedRun(
  out: string,
  resultsPath: string,
  io: CommandIO,
  options: OutputRefusalOptions,
): Promise<void> {
  const recordPath = runRecordPath(resultsPath);
  const record = await readRunRecord(recordPath).catch(() => undefined);
  const sets = record === undefined ? [] : (await loadRecordedSets(record, io)).sets;
  const inputs = await recordedRunInputs({ path: resultsPath, recordPath }, record, sets);
  await refuseOutputOverInput(out, inputs, options);
}
