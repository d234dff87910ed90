/**
 * The trust gate: a dataset starts no command and sends no environment value to a host nobody
 * approved unless the user allowed it. Before any case runs, the runner collects the needs (see
 * `dataset/dataset_commands.ts`) of the selected cases — from their loaded, normalised evaluators —
 * and of the targets and judges they resolved — from `targets/target_needs.ts` — with a
 * {@link NeedCollector}, and asks the run's {@link RunPermission} once per dataset root. The
 * request names every file consent covers with the SHA-256 of its content: the eval files as the
 * loader parsed them, the targets files, and every file a command names. A targets file outside
 * the root (e.g. `--targets ~/targets.yaml`) is the user's own: its needs are granted without a
 * question. The needs allowed are what the run's consent grant (`targets/consent.ts`) holds,
 * and nothing else can start. A dry run starts nothing and is never asked.
 *
 * @module
 */
import { dirname, relative, resolve } from "node:path";
import {
  type CommandFile,
  type DatasetCommand,
  evaluatorCommands,
  setupCommands,
  type SourceHash,
} from "../dataset/dataset_commands.ts";
import { isInside } from "../fs/resolve.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { Position } from "../fs/decode.ts";
import type { PathKey } from "../dataset/yaml_source.ts";
import type { TargetNeed } from "../targets/target_needs.ts";
import { RunConfigError } from "./errors.ts";

/** What a {@link RunPermission} is asked: may this dataset root's needs be acted on? */
export interface RunPermissionRequest {
  /** The dataset root (absolute). */
  root: string;
  /**
   * Every file under the root that consent covers, with its SHA-256: the files that define the
   * needs (each with its needs) and the files their commands name (with none).
   */
  files: CommandFile[];
}

/**
 * Decides whether the needs of one dataset root may be acted on (e.g. by looking the root, the
 * file hashes and the need keys up in a trust store).
 */
export type RunPermission = (request: RunPermissionRequest) => boolean | Promise<boolean>;

/** An eval file's part of a run's consent. */
export interface EvalNeedSource {
  /** Absolute path of the eval file. */
  file: string;
  /** Its dataset root. */
  root: string;
  /** Its folder. */
  evalDir: string;
  /** The files the loader parsed, with their hashes (absent: nothing can be trusted by hash). */
  sources?: SourceHash[];
  /** The loader's table of its evaluator commands, each where it is written. */
  commands?: DatasetCommand[];
}

/** A resolved target's part of a run's consent. */
export interface TargetNeedSource {
  /** Target name. */
  name: string;
  /** Dataset root of the eval files that use it. */
  root: string;
  /** The targets file that defines it (absolute). */
  targetsFile: string;
  /** Hex SHA-256 of the targets file's text as parsed. */
  sha256?: string;
  /** Where a setting of the target is written. */
  locate?: (path: readonly PathKey[]) => Position | undefined;
  /** Its needs (`Target.needs`). */
  needs: readonly TargetNeed[];
  /** Folders of the eval files that use it (where its commands may run). */
  evalDirs: readonly string[];
}

/** What {@link NeedCollector.collect} found. */
export interface CollectedNeeds {
  /** One request per dataset root that has needs. */
  requests: RunPermissionRequest[];
  /** Needs of the user's own targets files (outside every root): granted without a question. */
  own: DatasetCommand[];
}

const KIND_LABELS: Record<DatasetCommand["kind"], string> = {
  code_judge: "code_judge",
  aggregator: "code_judge aggregator of composite",
  cli_target: "cli target",
  agent_target: "agent target",
  healthcheck: "healthcheck of target",
  workspace_setup: "setup of workspace_repo",
  env_host: "target",
};

/** How a need is listed: `code_judge 'x' runs the command: "…"`, `target 'x' → host, reads A`. */
export function needMessage(command: DatasetCommand, options: { root?: string } = {}): string {
  const label = `${KIND_LABELS[command.kind]} '${command.name}'`;
  if (command.kind === "env_host") {
    return `${label} → ${command.host ?? command.command}, reads ${command.reads.join(", ")}`;
  }
  const shown = command.command.length > 200
    ? `${command.command.slice(0, 200)}…`
    : command.command;
  const reads = command.reads.length > 0 ? `; it reads ${command.reads.join(", ")}` : "";
  const names = command.names !== undefined && command.names.length > 0
    ? `; it names ${
      command.names.map((f) => options.root ? relative(options.root, f) : f).join(", ")
    }`
    : "";
  return `${label} runs the command: ${JSON.stringify(shown)}${reads}${names}`;
}

/** A need as a diagnostic at its position. */
export function commandDiagnostic(
  command: DatasetCommand,
  options: { root?: string } = {},
): Diagnostic {
  return {
    severity: "error",
    file: command.file,
    ...(command.line !== undefined ? { line: command.line } : {}),
    ...(command.column !== undefined ? { column: command.column } : {}),
    message: needMessage(command, options),
  };
}

/** `3 commands and 1 environment-to-host send`. */
export function describeNeeds(commands: readonly DatasetCommand[]): string {
  const sends = commands.filter((c) => c.kind === "env_host").length;
  const runs = commands.length - sends;
  const parts = [
    ...(runs > 0 || sends === 0 ? [`${runs} command${runs === 1 ? "" : "s"}`] : []),
    ...(sends > 0 ? [`${sends} environment-to-host send${sends === 1 ? "" : "s"}`] : []),
  ];
  return parts.join(" and ");
}

/**
 * Thrown before anything runs when a dataset root's needs were not allowed. Its diagnostics name
 * every need with its file, line and column.
 */
export class UntrustedDatasetError extends RunConfigError {
  /** The roots that were refused, with the files consent covers. */
  readonly requests: RunPermissionRequest[];

  /** Creates the error for the refused `requests`. */
  constructor(requests: RunPermissionRequest[], hint: string) {
    const commands = requests.flatMap((r) => r.files.flatMap((f) => f.commands));
    const roots = requests.map((r) => r.root);
    const one = commands.length === 1;
    const sends = commands.some((c) => c.kind === "env_host");
    super(
      `The dataset ${roots.length === 1 ? "root" : "roots"} ${
        roots.map((r) => `'${r}'`).join(", ")
      } ${roots.length === 1 ? "defines" : "define"} ${describeNeeds(commands)} that ${
        sends ? (one ? "happens" : "happen") : one ? "runs" : "run"
      } only when you allow ${one ? "it" : "them"}; nothing ran`,
      {
        diagnostics: requests.flatMap((r) =>
          r.files.flatMap((f) => f.commands.map((c) => commandDiagnostic(c, { root: r.root })))
        ),
        hint,
        code: "untrusted_dataset",
      },
    );
    this.name = "UntrustedDatasetError";
    this.requests = requests;
  }
}

/** The default hint of {@link UntrustedDatasetError} (library callers). */
export const LIBRARY_TRUST_HINT =
  "review the commands above; pass `allowRun: true` to runEval to run them, or a function that decides per dataset root";

interface RootEntry {
  files: Map<string, CommandFile>;
  /** Folders each command need may run in (named files are looked for there). */
  bases: Map<DatasetCommand, string[]>;
}

/**
 * Collects a run's needs from loaded eval files, their selected cases and the resolved targets,
 * then hashes the files the commands name. One collector per run (or per `agentv trust`).
 *
 * @example
 * ```ts ignore
 * const collector = new NeedCollector();
 * collector.addCases(set, set.cases.map(caseEvaluators));
 * const { requests } = await collector.collect();
 * ```
 */
export class NeedCollector {
  #roots = new Map<string, RootEntry>();
  #own = new Map<string, DatasetCommand>();
  #realRoots = new Map<string, Promise<string>>();
  #targets: TargetNeedSource[] = [];

  #root(root: string): RootEntry {
    const key = resolve(root);
    let entry = this.#roots.get(key);
    if (!entry) this.#roots.set(key, entry = { files: new Map(), bases: new Map() });
    return entry;
  }

  #add(entry: RootEntry, file: string, sha256: string, need?: DatasetCommand, bases?: string[]) {
    let found = entry.files.get(file);
    if (!found) entry.files.set(file, found = { file, sha256, commands: [] });
    if (need && !found.commands.some((c) => c.key === need.key)) {
      found.commands.push(need);
      if (bases) entry.bases.set(need, bases);
    }
  }

  /** The files of an eval set that has needs: every source the loader parsed. */
  #addSources(entry: RootEntry, set: EvalNeedSource): void {
    if (set.sources === undefined || set.sources.length === 0) {
      this.#add(entry, set.file, "");
      return;
    }
    for (const s of set.sources) this.#add(entry, s.file, s.sha256);
  }

  #addEvalNeed(entry: RootEntry, set: EvalNeedSource, need: Omit<DatasetCommand, "file">) {
    const placed = set.commands?.find((c) => c.key === need.key);
    const command: DatasetCommand = placed ? { ...need, ...placed } : { ...need, file: set.file };
    const sha = set.sources?.find((s) => s.file === command.file)?.sha256 ?? "";
    this.#add(entry, command.file, sha, command, [command.cwd ?? set.evalDir]);
  }

  /**
   * Adds what the selected cases' evaluators start (each case's evaluator list as the runner runs
   * it; one definition: `evaluatorCommands`), placed where the loader found them.
   */
  addCases(set: EvalNeedSource, evaluatorLists: Iterable<readonly EvaluatorConfig[]>) {
    let entry: RootEntry | undefined;
    const seen = new Set<readonly EvaluatorConfig[]>();
    for (const list of evaluatorLists) {
      if (seen.has(list)) continue;
      seen.add(list);
      for (const { need } of evaluatorCommands(list, { evalDir: set.evalDir })) {
        if (!entry) this.#addSources(entry = this.#root(set.root), set);
        this.#addEvalNeed(entry, set, need);
      }
    }
  }

  /**
   * Adds the setup commands of the selected cases' `workspace_repo` (one definition:
   * `setupCommands`), placed where the loader found them.
   */
  addWorkspaceSetups(set: EvalNeedSource, cases: Iterable<EvalCase>): void {
    let entry: RootEntry | undefined;
    for (const evalCase of cases) {
      const repo = evalCase.execution.workspace_repo as WorkspaceRepo | undefined;
      for (const { need } of setupCommands(repo)) {
        if (!entry) this.#addSources(entry = this.#root(set.root), set);
        this.#addEvalNeed(entry, set, need);
      }
    }
  }

  /** Adds every evaluator command the loader found in an eval file (trust, validate). */
  addEvalFile(set: EvalNeedSource): void {
    const commands = set.commands ?? [];
    if (commands.length === 0) return;
    const entry = this.#root(set.root);
    this.#addSources(entry, set);
    for (const need of commands) this.#addEvalNeed(entry, set, need);
  }

  /** Adds a resolved target's needs (placed once {@link collect} knows the file is the root's). */
  addTarget(target: TargetNeedSource): void {
    if (target.needs.length > 0) this.#targets.push(target);
  }

  async #inside(file: string, root: string): Promise<boolean> {
    const realOr = (path: string) => Deno.realPath(path).catch(() => resolve(path));
    let realRoot = this.#realRoots.get(root);
    if (!realRoot) this.#realRoots.set(root, realRoot = realOr(root));
    return isInside(await realOr(file), await realRoot) || isInside(resolve(file), root);
  }

  async #placeTargets(): Promise<void> {
    for (const t of this.#targets) {
      const root = resolve(t.root);
      // Only a targets file inside the root is the dataset's; outside it is the user's own.
      const inside = await this.#inside(t.targetsFile, root);
      for (const { need, at } of t.needs) {
        const position = t.locate?.(at);
        const command: DatasetCommand = {
          file: t.targetsFile,
          ...(position ? { line: position.line, column: position.column } : {}),
          ...need,
        };
        if (!inside) {
          this.#own.set(command.key, command);
          continue;
        }
        const bases = need.cwd !== undefined
          ? [need.cwd]
          : [...new Set([...t.evalDirs, dirname(t.targetsFile)])];
        this.#add(this.#root(root), t.targetsFile, t.sha256 ?? "", command, bases);
      }
    }
    this.#targets = [];
  }

  /** The requests per root, with the files each command names hashed; and the user's own needs. */
  async collect(): Promise<CollectedNeeds> {
    await this.#placeTargets();
    const requests: RunPermissionRequest[] = [];
    for (const [root, entry] of this.#roots) {
      const needs = [...entry.files.values()].flatMap((f) => f.commands);
      if (needs.length === 0) continue;
      for (const need of needs) {
        const bases = entry.bases.get(need);
        if (need.kind === "env_host" || bases === undefined) continue;
        // Loaded only when a command needs consent (it hashes with node:crypto).
        const { namedFiles } = await import("./named_files.ts");
        const named = await namedFiles(need, { root, bases });
        need.names = named.map((n) => n.file);
        for (const n of named) this.#add(entry, n.file, n.sha256);
      }
      const files = [...entry.files.values()].sort((a, b) => a.file.localeCompare(b.file));
      for (const f of files) f.commands.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
      requests.push({ root, files });
    }
    return { requests, own: [...this.#own.values()] };
  }
}

/**
 * Asks `allowRun` about every root that has needs; throws {@link UntrustedDatasetError} listing
 * the needs of the roots that were refused. Resolves to every need allowed (those of the user's
 * own targets files included): what the run's consent grant may hold.
 *
 * @example
 * ```ts ignore
 * const granted = await checkRunPermission(await collector.collect(), false);
 * // throws UntrustedDatasetError naming each command's file:line:col
 * ```
 */
export async function checkRunPermission(
  collected: CollectedNeeds,
  allowRun: boolean | RunPermission,
  options: { hint?: string } = {},
): Promise<DatasetCommand[]> {
  const refused: RunPermissionRequest[] = [];
  for (const request of collected.requests) {
    const allowed = allowRun === true || (allowRun !== false && await allowRun(request));
    if (!allowed) refused.push(request);
  }
  if (refused.length > 0) {
    throw new UntrustedDatasetError(refused, options.hint ?? LIBRARY_TRUST_HINT);
  }
  return [
    ...collected.requests.flatMap((r) => r.files.flatMap((f) => f.commands)),
    ...collected.own,
  ];
}
