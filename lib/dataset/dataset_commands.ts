/**
 * What a dataset asks consent for, and the one definition of which evaluators start a process.
 *
 * A _need_ ({@link DatasetCommand}) is something a run does only with the user's consent: a
 * process it starts from the dataset (a script code judge, a code aggregator of a `composite`, a
 * `cli` target's `command_template`, an agent target's executable, a command healthcheck, a setup
 * command of a `workspace_repo`), or an
 * environment value it sends to a host nobody approved (`env_host`, see
 * `targets/target_needs.ts`). Every need has a {@link DatasetCommand.key}: the runner's consent
 * grant (`targets/consent.ts`) starts only what the gate listed, by key, and `agentv trust`
 * stores the keys.
 *
 * Evaluator needs are computed from the loaded, normalised configs by
 * {@link evaluatorCommands}: the loader records where each one is written, the gate lists them
 * for the selected cases, and the code judge and aggregator run exactly the argv of their need.
 *
 * @module
 */
import { extname, resolve } from "node:path";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import type { PathKey } from "./yaml_source.ts";

/** What kind of consent a dataset needs. */
export type DatasetCommandKind =
  | "code_judge"
  | "aggregator"
  | "cli_target"
  | "agent_target"
  | "healthcheck"
  | "workspace_setup"
  | "env_host";

/** One thing a dataset does only with consent: a command it starts, or values it sends. */
export interface DatasetCommand {
  /** The file that defines it (absolute). */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
  /** What it is. */
  kind: DatasetCommandKind;
  /** The evaluator's or target's name. */
  name: string;
  /** The command as written (argv joined by spaces); for `env_host`, the origin values go to. */
  command: string;
  /** The command as written, word by word (`${{ VAR }}` references unresolved). */
  written?: string[];
  /**
   * What starts, exactly: the argv of a code judge, aggregator or agent (`sh -c TEXT` for a
   * command string); the command template of a `cli` target or healthcheck (run by the shell).
   * It may hold environment values: it is never shown, stored or part of the key.
   */
  argv?: string[];
  /** The working folder, when it is fixed by the definition (code judges; absolute). */
  cwd?: string;
  /** Names of the environment variables whose values it gets or sends (sorted). */
  reads: string[];
  /** `env_host`: the origin (`scheme://host[:port]`) the values are sent to. */
  host?: string;
  /**
   * Files the command names that exist inside the dataset root (absolute): argv paths, the
   * script of a template, an executable. Filled in by the gate, which hashes them.
   */
  names?: string[];
  /** Identity of the need: equal keys start or send the same thing (see {@link needKey}). */
  key: string;
}

/** A file that consent covers, with the SHA-256 of its content, and the needs it defines. */
export interface CommandFile {
  /** Absolute path. */
  file: string;
  /** Hex SHA-256 of the text the loader parsed (or of the bytes of a named file). */
  sha256: string;
  /** The needs it defines (none for a file a command only names). */
  commands: DatasetCommand[];
}

/** A file the loader parsed, with the hex SHA-256 of the text it parsed. */
export interface SourceHash {
  /** Absolute path. */
  file: string;
  /** Hex SHA-256 of the UTF-8 text parsed. */
  sha256: string;
}

/** The identity fields of a need (what {@link needKey} hashes together). */
export type NeedIdentity = Pick<
  DatasetCommand,
  "kind" | "name" | "command" | "written" | "cwd" | "reads" | "host"
>;

/**
 * The key of a need: its kind, name, command as written, working folder, the variables it reads
 * and the host it sends to. Neither where it is written nor the values of the variables are
 * part of it.
 *
 * @example
 * ```ts
 * import { needKey } from "./dataset_commands.ts";
 * needKey({ kind: "env_host", name: "t", command: "http://127.0.0.1:8080", reads: ["KEY"] });
 * ```
 */
export function needKey(need: NeedIdentity): string {
  return JSON.stringify([
    need.kind,
    need.name,
    need.command,
    need.written ?? null,
    need.cwd ?? null,
    [...need.reads].sort(),
    need.host ?? null,
  ]);
}

const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];

/** Whether a code judge `script` is a module path (run in a worker, not a command). */
export function isModuleScript(script: unknown): boolean {
  const single = typeof script === "string"
    ? (/\s/.test(script.trim()) ? undefined : script.trim())
    : Array.isArray(script) && script.length === 1 && typeof script[0] === "string"
    ? script[0]
    : undefined;
  return single !== undefined && MODULE_EXTENSIONS.includes(extname(single).toLowerCase());
}

/**
 * The argv a script runs as: an array as is (no shell); a string through the platform shell
 * (`sh -c`, `cmd /c` on Windows).
 *
 * @example
 * ```ts
 * import { scriptArgv } from "./dataset_commands.ts";
 * scriptArgv("python3 j.py", "linux"); // ["sh", "-c", "python3 j.py"]
 * scriptArgv(["python3", "j.py"], "linux"); // ["python3", "j.py"]
 * ```
 */
export function scriptArgv(
  script: string | readonly string[],
  os: typeof Deno.build.os = Deno.build.os,
): string[] {
  if (typeof script !== "string") return [...script];
  return os === "windows" ? ["cmd", "/c", script] : ["sh", "-c", script];
}

/** Hex SHA-256 of `text` (UTF-8). */
export async function sha256Hex(text: string | Uint8Array): Promise<string> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** An evaluator need before it is placed in a file, with its path inside the evaluator list. */
export interface EvaluatorCommand {
  /** The need, without its file and position. */
  need: Omit<DatasetCommand, "file" | "line" | "column">;
  /** Where it is written, relative to the list: `[2, "script"]`, `[0, "aggregator", "path"]`. */
  path: PathKey[];
}

/** Options of {@link evaluatorCommands} and {@link evaluatorCommand}. */
export interface EvaluatorCommandOptions {
  /** The eval file's folder: base of a relative `cwd` (absolute). */
  evalDir: string;
  /** Platform (default `Deno.build.os`): how a command string is run. */
  os?: typeof Deno.build.os;
}

/**
 * The process one evaluator config starts itself (not its members): a code judge's `script`
 * when it is not a module, or a composite's `code_judge` aggregator. `undefined` when it starts
 * none. The code judge and the aggregator run the `argv` of this need, nothing else.
 *
 * @example
 * ```ts
 * import { evaluatorCommand } from "./dataset_commands.ts";
 * const found = evaluatorCommand(
 *   { type: "code_judge", name: "j", weight: 1, script: ["python3", "j.py"] },
 *   { evalDir: "/repo/evals", os: "linux" },
 * );
 * found?.need.argv; // ["python3", "j.py"]
 * ```
 */
export function evaluatorCommand(
  config: EvaluatorConfig,
  options: EvaluatorCommandOptions,
): EvaluatorCommand | undefined {
  const os = options.os ?? Deno.build.os;
  if (config.type === "code_judge") {
    if (config.module !== undefined || config.script === undefined) return undefined;
    if (isModuleScript(config.script)) return undefined;
    return command({
      kind: "code_judge",
      name: config.name,
      script: config.script,
      cwd: resolve(options.evalDir, config.cwd ?? "."),
      reads: config.env ?? [],
      os,
    }, ["script"]);
  }
  if (config.type === "composite" && config.aggregator.type === "code_judge") {
    const aggregator = config.aggregator;
    const key = aggregator.script !== undefined ? "script" : "path";
    const script = aggregator.script ?? aggregator.path;
    // Without a command the aggregator is an error row; nothing starts.
    if (script === undefined) return undefined;
    return command({
      kind: "aggregator",
      name: config.name,
      script,
      cwd: resolve(options.evalDir, aggregator.cwd ?? "."),
      reads: [],
      os,
    }, ["aggregator", key]);
  }
  return undefined;
}

function command(
  spec: {
    kind: "code_judge" | "aggregator";
    name: string;
    script: string | readonly string[];
    cwd: string;
    reads: readonly string[];
    os: typeof Deno.build.os;
  },
  path: PathKey[],
): EvaluatorCommand {
  const identity: NeedIdentity = {
    kind: spec.kind,
    name: spec.name,
    command: typeof spec.script === "string" ? spec.script : spec.script.join(" "),
    written: typeof spec.script === "string" ? [spec.script] : [...spec.script],
    cwd: spec.cwd,
    reads: [...new Set(spec.reads)].sort(),
  };
  const argv = scriptArgv(spec.script, spec.os);
  return { need: { ...identity, argv, key: needKey(identity) }, path };
}

/**
 * Every process a list of evaluator configs starts, members of composites (at any depth)
 * included, each with its path inside the list. The one definition used by the loader (where
 * they are written), the trust gate and `agentv trust` (what is listed), and the code judges
 * (what runs).
 *
 * @example
 * ```ts
 * import { evaluatorCommands } from "./dataset_commands.ts";
 * const found = evaluatorCommands([
 *   { type: "is_json", name: "json", weight: 1 },
 *   { type: "code_judge", name: "j", weight: 1, script: "id" },
 * ], { evalDir: "/repo/evals", os: "linux" });
 * found.map((c) => c.path); // [[1, "script"]]
 * ```
 */
export function evaluatorCommands(
  configs: readonly EvaluatorConfig[],
  options: EvaluatorCommandOptions,
): EvaluatorCommand[] {
  const out: EvaluatorCommand[] = [];
  const walk = (list: readonly EvaluatorConfig[], prefix: PathKey[], depth: number) => {
    if (depth > 64) return;
    list.forEach((config, i) => {
      const own = evaluatorCommand(config, options);
      if (own) out.push({ need: own.need, path: [...prefix, i, ...own.path] });
      if (config.type === "composite") {
        walk(config.evaluators, [...prefix, i, "evaluators"], depth + 1);
      }
    });
  };
  walk(configs, [], 0);
  return out;
}

/** The needs one eval file defines and the hashes of the text the loader parsed. */
export interface FileNeeds {
  /** The eval file and its sidecar, as parsed. */
  sources: SourceHash[];
  /** Every evaluator need of a valid case or of the file's defaults, by key (first place wins). */
  commands: Map<string, DatasetCommand>;
}

/**
 * Records the processes a list of evaluators starts in `needs`, placed with `locate` (a path
 * inside the list → its position in `file`). A need already recorded keeps its first place.
 */
export function recordEvaluatorCommands(
  needs: FileNeeds,
  list: readonly EvaluatorConfig[],
  options: {
    file: string;
    evalDir: string;
    locate: (path: readonly PathKey[]) => { line: number; column: number } | undefined;
  },
): void {
  for (const { need, path } of evaluatorCommands(list, { evalDir: options.evalDir })) {
    if (needs.commands.has(need.key)) continue;
    const position = options.locate(path);
    needs.commands.set(need.key, {
      file: options.file,
      ...(position ? { line: position.line, column: position.column } : {}),
      ...need,
    });
  }
}

/** A setup command of a `workspace_repo`, with its index in `setup`. */
export interface SetupCommand {
  /** The need, without its file and position. */
  need: Omit<DatasetCommand, "file" | "line" | "column">;
  /** Its index in `setup`. */
  index: number;
}

/**
 * The setup commands of a `workspace_repo`: one `workspace_setup` need per command, named after
 * the repository and its commit (`url@commit`, as written), so consent covers the command in
 * that checkout and a new commit asks again. Each runs its argv as written (no shell) in the
 * case's fresh checkout. The one definition the loader (where they are written), the gate (what
 * is listed) and the workspace (what runs) use.
 *
 * @example
 * ```ts
 * import { setupCommands } from "./dataset_commands.ts";
 * const [first] = setupCommands({ url: "../repo", commit: "a".repeat(40), setup: [["npm", "ci"]] });
 * first.need.argv; // ["npm", "ci"]
 * first.need.name; // "../repo@aaaa…" (the full commit)
 * ```
 */
export function setupCommands(repo: WorkspaceRepo | undefined): SetupCommand[] {
  if (repo === undefined) return [];
  const name = `${repo.url}@${repo.commit.toLowerCase()}`;
  return (repo.setup ?? []).map((argv, index) => {
    const identity: NeedIdentity = {
      kind: "workspace_setup",
      name,
      command: argv.join(" "),
      written: [...argv],
      reads: [],
    };
    return { need: { ...identity, argv: [...argv], key: needKey(identity) }, index };
  });
}

/**
 * Records the setup commands of a `workspace_repo` in `needs`, placed with `locate` (a path
 * inside `setup` → its position in `file`). A need already recorded keeps its first place.
 */
export function recordSetupCommands(
  needs: FileNeeds,
  repo: WorkspaceRepo | undefined,
  options: {
    file: string;
    locate: (path: readonly PathKey[]) => { line: number; column: number } | undefined;
  },
): void {
  for (const { need, index } of setupCommands(repo)) {
    if (needs.commands.has(need.key)) continue;
    const position = options.locate([index]);
    needs.commands.set(need.key, {
      file: options.file,
      ...(position ? { line: position.line, column: position.column } : {}),
      ...need,
    });
  }
}
