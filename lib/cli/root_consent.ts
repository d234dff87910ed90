/**
 * Everything a dataset root asks consent for, found the way a run finds it (`agentv trust`,
 * `agentv trust --list` and `agentv validate` list it): the evaluator commands of every eval file,
 * as the loader found them inside the sandbox (with the hash of the text it parsed), and the needs
 * of every target defined in the root's targets files, resolved with the environment as a run
 * resolves them. The needs themselves come from the one definition the runner's gate uses
 * (`dataset/dataset_commands.ts`, `targets/target_needs.ts`), collected by its `NeedCollector`,
 * so what is listed and trusted here is what a run asks for.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { discoverEvalFiles } from "../dataset/discover.ts";
import {
  type CollectedNeeds,
  commandDiagnostic,
  describeNeeds,
  type EvalNeedSource,
  NeedCollector,
} from "../run/run_permission.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { ConsentGrant } from "../targets/consent.ts";
import { loadDotEnv, mergeEnv } from "../dataset/env.ts";
import { canonicalProvider } from "../schema/target_providers.ts";
import {
  discoverTargetsFile,
  readTargetDefinitions,
  type TargetDefinitions,
  TARGETS_FILE_NAMES,
} from "../dataset/targets_discovery.ts";
import type { CommandIO } from "./command.ts";
import { renderDiagnostics } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import { Sandbox } from "../dataset/sandbox.ts";

/** Options of {@link rootConsent}. */
export interface RootConsentOptions {
  /** The environment targets are resolved with (the process environment; `.env` files below). */
  env: Record<string, string>;
  /** A targets file used for every eval file (`--targets`); default the discovered ones. */
  targetsFile?: string;
  /**
   * The eval files, already loaded (validate's reports); default: every eval file under the root,
   * loaded in a sandbox.
   */
  evalFiles?: EvalNeedSource[];
  /** Where the targets files are read (default: each read now); see {@link TargetsReads}. */
  reads?: TargetsReads;
}

/**
 * Each targets file read (and parsed) once, so a caller can start reading them before the eval
 * files are loaded (`validate` does, while its workers check the cases: {@link readTargetsAhead})
 * and {@link rootConsent} finds them read.
 */
export class TargetsReads {
  #reads = new Map<string, Promise<TargetDefinitions | undefined>>();

  /** Takes `file` as what {@link read} of `path` and `root` gives (it was read elsewhere). */
  receive(path: string, root: string | undefined, file: TargetDefinitions): void {
    const key = `${path}\0${root ?? ""}`;
    if (!this.#reads.has(key)) this.#reads.set(key, Promise.resolve(file));
  }

  /** The targets file at `path`, confined to `root` when given (see `readTargetDefinitions`). */
  read(path: string, root: string | undefined): Promise<TargetDefinitions | undefined> {
    const key = `${path}\0${root ?? ""}`;
    let read = this.#reads.get(key);
    if (!read) {
      read = readTargetDefinitions(path, root !== undefined ? { root } : {});
      this.#reads.set(key, read);
    }
    return read;
  }
}

/**
 * Starts reading what {@link rootConsent} of `root` will read for `evalFiles` (absolute paths):
 * each targets file they use, and the target registry when one defines a target that is not a
 * mock. Nothing is reported here: failures are met again where {@link rootConsent} reads.
 *
 * @example
 * ```ts ignore
 * const reads = new TargetsReads();
 * await readTargetsAhead("/repo", ["/repo/evals/a.jsonl"], { reads });
 * ```
 */
export async function readTargetsAhead(
  root: string,
  evalFiles: readonly string[],
  options: { reads: TargetsReads; targetsFile?: string },
): Promise<void> {
  const files = evalFiles.map((file) => ({ file, evalDir: dirname(file) }));
  const uses = await targetsFilesUsed(root, files, options.targetsFile);
  const own = options.targetsFile !== undefined;
  const read = await Promise.all(
    [...uses.keys()].map((path) => options.reads.read(path, own ? undefined : root)),
  );
  const resolves = read.some((file) =>
    file?.targets.some((t) => canonicalProvider(String(t.provider ?? "")) !== "mock")
  );
  if (resolves) await import("../targets/registry.ts");
}

/** What {@link rootConsent} found. */
export interface RootConsent extends CollectedNeeds {
  /** Eval files that could not be loaded (their commands are not listed). */
  unloaded: string[];
}

/** Every eval file under `root`, loaded in a sandbox confined to it (reports only, no cases). */
async function loadRootFiles(
  root: string,
): Promise<{ files: EvalNeedSource[]; unloaded: string[] }> {
  const { files: found } = await discoverEvalFiles([root], { cwd: root });
  const files: EvalNeedSource[] = [];
  const unloaded: string[] = [];
  if (found.length === 0) return { files, unloaded };
  using sandbox = new Sandbox(root);
  for (const file of found) {
    const abs = resolve(root, file);
    const report = await sandbox.validate(abs).catch(() => undefined);
    if (report === undefined || (report.sources ?? []).length === 0) {
      unloaded.push(abs);
      continue;
    }
    files.push({
      file: abs,
      root,
      evalDir: dirname(abs),
      sources: report.sources ?? [],
      commands: report.commands ?? [],
    });
  }
  return { files, unloaded };
}

/**
 * Everything `root` asks consent for (see the module doc).
 *
 * @example
 * ```ts ignore
 * const consent = await rootConsent("/repo", { env: Deno.env.toObject() });
 * consent.requests[0]?.files.flatMap((f) => f.commands).length;
 * ```
 */
export async function rootConsent(root: string, options: RootConsentOptions): Promise<RootConsent> {
  const loaded = options.evalFiles !== undefined
    ? { files: options.evalFiles, unloaded: [] }
    : await loadRootFiles(root);
  const collector = new NeedCollector();
  for (const file of loaded.files) collector.addEvalFile(file);
  const uses = await targetsFilesUsed(root, loaded.files, options.targetsFile);
  for (const [targetsFile, evalDirs] of uses) {
    await addTargetNeeds(collector, {
      root,
      targetsFile,
      evalDirs,
      env: options.env,
      ownFile: options.targetsFile !== undefined,
      reads: options.reads ?? new TargetsReads(),
    });
  }
  const collected = await collector.collect();
  return { ...collected, unloaded: loaded.unloaded };
}

/**
 * The targets files a run of `files` would use (the explicit one, else each file's discovered
 * one) and the root's own `.agentv/targets.*`, each with the eval folders that use it.
 */
async function targetsFilesUsed(
  root: string,
  files: readonly Pick<EvalNeedSource, "file" | "evalDir">[],
  explicit: string | undefined,
): Promise<Map<string, Set<string>>> {
  const uses = new Map<string, Set<string>>();
  const use = (targets: string, evalDir: string) => {
    let dirs = uses.get(targets);
    if (!dirs) uses.set(targets, dirs = new Set());
    dirs.add(evalDir);
  };
  if (explicit !== undefined) {
    for (const f of files) use(explicit, f.evalDir);
    if (files.length === 0) use(explicit, root);
    return uses;
  }
  for (const f of files) {
    const found = await discoverTargetsFile(f.file, { root }).catch(() => undefined);
    if (found !== undefined) use(found, f.evalDir);
  }
  for (const name of TARGETS_FILE_NAMES) {
    const path = join(root, ".agentv", name);
    if (await Deno.lstat(path).then(() => true, () => false)) use(path, root);
  }
  return uses;
}

/**
 * Adds the needs of every target of one targets file, resolved as a run in each of `evalDirs`
 * would resolve it (its `.env` files, then `env`).
 */
async function addTargetNeeds(
  collector: NeedCollector,
  options: {
    root: string;
    targetsFile: string;
    evalDirs: Iterable<string>;
    env: Record<string, string>;
    /** A `--targets` file: read where it is (a run reads it so too). */
    ownFile: boolean;
    reads: TargetsReads;
  },
): Promise<void> {
  const { root, targetsFile } = options;
  // Parsed, not checked: a definition a run would refuse fails to resolve below (or is listed
  // needlessly); a file that cannot be read or parsed is one a run cannot use either.
  const file = await options.reads.read(targetsFile, options.ownFile ? undefined : root);
  if (file === undefined) return;
  // A mock target needs nothing (by the one definition, whatever its settings): a file of mock
  // targets is not resolved, and the registry (and zod) are not loaded for it.
  const definitions = file.targets.filter((t) =>
    canonicalProvider(String(t.provider ?? "")) !== "mock"
  );
  if (definitions.length === 0) return;
  const { resolveTarget } = await import("../targets/registry.ts");
  for (const evalDir of options.evalDirs) {
    const env = mergeEnv(await loadDotEnv(evalDir, root).catch(() => ({})), options.env);
    for (const { name } of definitions) {
      let needs;
      try {
        needs = resolveTarget(file, name, { env, consent: ConsentGrant.none() }).needs ?? [];
      } catch {
        continue; // unusable (a variable is not set): a run cannot use it either
      }
      collector.addTarget({
        name,
        root,
        targetsFile,
        ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
        ...(file.locateTarget ? { locate: (path) => file.locateTarget!(name, path) } : {}),
        needs,
        evalDirs: [evalDir],
      });
    }
  }
}

/** Every need of a root's requests, in file order. */
export function consentNeeds(consent: CollectedNeeds) {
  return consent.requests.flatMap((r) => r.files.flatMap((f) => f.commands));
}

/**
 * The listing of what a root asks consent for: each need as a warning at its `file:line:col`
 * with its source line (the same for `validate` and `agentv trust --list`).
 */
export function renderConsent(consent: CollectedNeeds, io: CommandIO): string {
  const diagnostics: Diagnostic[] = consent.requests.flatMap((r) =>
    r.files.flatMap((f) =>
      f.commands.map((c) => ({ ...commandDiagnostic(c, { root: r.root }), severity: "warning" }))
    )
  ) as Diagnostic[];
  return renderDiagnostics(diagnostics, { cwd: io.cwd, color: io.color });
}

/** `3 commands and 1 environment-to-host send in 2 files`. */
export function consentSummary(consent: CollectedNeeds): string {
  const files = consent.requests.reduce((n, r) => n + r.files.length, 0);
  return `${describeNeeds(consentNeeds(consent))} in ${files} file${files === 1 ? "" : "s"}`;
}

/** Whether the user's trust store covers every request of `consent` (files, needs, includes). */
export type TrustCheck = (request: CollectedNeeds["requests"][number]) => Promise<boolean>;

/**
 * The section `validate` and `agentv trust --list` print for a root: a heading with the counts and
 * whether the trust store covers it, then {@link renderConsent}. Empty when the root needs none.
 */
export async function consentSection(
  root: string,
  consent: CollectedNeeds,
  options: { io: CommandIO; trusted: TrustCheck },
): Promise<string> {
  if (consentNeeds(consent).length === 0) return "";
  const trusted = (await Promise.all(consent.requests.map(options.trusted))).every(Boolean);
  const { io } = options;
  return `What ${displayPath(root, io.cwd) || "."} asks consent for (${consentSummary(consent)}; ${
    trusted
      ? "trusted with agentv trust"
      : "not trusted: agentv run needs --allow-run or agentv trust"
  }):\n${renderConsent(consent, io)}\n`;
}
