/**
 * The trust gate: a dataset runs no command the user did not allow. Before any case runs, the
 * runner collects the commands the selected cases would start — subprocess code judges (module
 * judges run in a permission-limited worker and need no trust) and `cli` targets and command
 * healthchecks defined in a targets file inside the dataset root — and asks the run's
 * {@link RunPermission} once per root. A targets file outside the root (e.g. `--targets
 * ~/targets.yaml`) is the user's own and needs no permission. A dry run starts nothing and is
 * never asked.
 *
 * @module
 */
import { resolve } from "node:path";
import { isInside } from "../loader/resolve.ts";
import {
  type CommandFile,
  type DatasetCommand,
  isModuleScript,
  scanEvalFileCommands,
  scanTargetsFileCommands,
} from "../loader/dataset_commands.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import { RunConfigError } from "./errors.ts";

/** What a {@link RunPermission} is asked: may the commands of this dataset root run? */
export interface RunPermissionRequest {
  /** The dataset root (absolute). */
  root: string;
  /** The files under the root that define the commands this run needs, with their hashes. */
  files: CommandFile[];
}

/**
 * Decides whether the commands of one dataset root may run (e.g. by looking the root and the
 * file hashes up in a trust store).
 */
export type RunPermission = (request: RunPermissionRequest) => boolean | Promise<boolean>;

/** One thing a run needs to start: a command-defining eval file or targets file, by root. */
export interface CommandNeed {
  /** Dataset root of the eval file. */
  root: string;
  /** An eval file whose selected cases use a subprocess code judge. */
  evalFile?: string;
  /** A targets file that defines a `cli` target the run uses. */
  targetsFile?: string;
}

/**
 * Thrown before anything runs when a dataset root's commands were not allowed. Its diagnostics
 * name every command with its file, line and column.
 */
export class UntrustedDatasetError extends RunConfigError {
  /** The roots that were refused, with their command files. */
  readonly requests: RunPermissionRequest[];

  /** Creates the error for the refused `requests`. */
  constructor(requests: RunPermissionRequest[], hint: string) {
    const commands = requests.flatMap((r) => r.files.flatMap((f) => f.commands));
    const roots = requests.map((r) => r.root);
    super(
      `The dataset ${roots.length === 1 ? "root" : "roots"} ${
        roots.map((r) => `'${r}'`).join(", ")
      } ${roots.length === 1 ? "defines" : "define"} ${commands.length} command${
        commands.length === 1 ? "" : "s"
      } that ${commands.length === 1 ? "runs" : "run"} only when you allow ${
        commands.length === 1 ? "it" : "them"
      }; nothing ran`,
      { diagnostics: commands.map(commandDiagnostic), hint },
    );
    this.name = "UntrustedDatasetError";
    this.requests = requests;
  }
}

const KIND_LABELS: Record<DatasetCommand["kind"], string> = {
  code_judge: "code_judge",
  cli_target: "cli target",
  agent_target: "agent target",
  healthcheck: "healthcheck of target",
};

/** A command as a diagnostic at its position. */
export function commandDiagnostic(command: DatasetCommand): Diagnostic {
  const shown = command.command.length > 200
    ? `${command.command.slice(0, 200)}…`
    : command.command;
  return {
    severity: "error",
    file: command.file,
    ...(command.line !== undefined ? { line: command.line } : {}),
    ...(command.column !== undefined ? { column: command.column } : {}),
    message: `${KIND_LABELS[command.kind]} '${command.name}' runs the command: ${
      JSON.stringify(shown)
    }`,
  };
}

/**
 * Whether an evaluator (or a composite's member or aggregator) starts a process: a `code_judge`
 * whose `script` is a command rather than a module.
 *
 * @example
 * ```ts
 * import { startsProcess } from "./run_permission.ts";
 * startsProcess({ type: "code_judge", name: "j", weight: 1, script: ["python3", "j.py"] }); // true
 * startsProcess({ type: "code_judge", name: "j", weight: 1, module: "./j.ts" }); // false
 * ```
 */
export function startsProcess(config: EvaluatorConfig): boolean {
  if (config.type === "code_judge") {
    return config.module === undefined && config.script !== undefined &&
      !isModuleScript(config.script);
  }
  if (config.type === "composite") {
    return config.aggregator.type === "code_judge" || config.evaluators.some(startsProcess);
  }
  return false;
}

async function realOr(path: string): Promise<string> {
  return await Deno.realPath(path).catch(() => resolve(path));
}

/** The default hint of {@link UntrustedDatasetError} (library callers). */
export const LIBRARY_TRUST_HINT =
  "review the commands above; pass `allowRun: true` to runEval to run them, or a function that decides per dataset root";

/**
 * Asks `allowRun` about every root whose commands the run needs; throws
 * {@link UntrustedDatasetError} listing the commands of the roots that were refused.
 *
 * @example
 * ```ts ignore
 * await checkRunPermission([{ root: "/repo", evalFile: "/repo/evals/a.yaml" }], false);
 * // throws UntrustedDatasetError naming the code judge's file:line:col
 * ```
 */
export async function checkRunPermission(
  needs: readonly CommandNeed[],
  allowRun: boolean | RunPermission,
  options: { hint?: string } = {},
): Promise<void> {
  if (allowRun === true || needs.length === 0) return;
  const byRoot = new Map<string, { evalFiles: Set<string>; targetsFiles: Set<string> }>();
  for (const need of needs) {
    const root = resolve(need.root);
    let entry = byRoot.get(root);
    if (!entry) byRoot.set(root, entry = { evalFiles: new Set(), targetsFiles: new Set() });
    if (need.evalFile !== undefined) entry.evalFiles.add(resolve(need.evalFile));
    if (need.targetsFile !== undefined) {
      // Only a targets file inside the root is the dataset's; outside it is the user's own.
      const file = await realOr(need.targetsFile);
      const realRoot = await realOr(root);
      if (isInside(file, realRoot) || isInside(resolve(need.targetsFile), root)) {
        entry.targetsFiles.add(resolve(need.targetsFile));
      }
    }
  }
  const refused: RunPermissionRequest[] = [];
  for (const [root, entry] of byRoot) {
    if (entry.evalFiles.size === 0 && entry.targetsFiles.size === 0) continue;
    const files: CommandFile[] = [];
    for (const file of entry.evalFiles) files.push(...await scanEvalFileCommands(file, { root }));
    for (const file of entry.targetsFiles) {
      const found = await scanTargetsFileCommands(file, { root });
      if (found) files.push(found);
    }
    if (files.length === 0) {
      // The commands could not be located (an unreadable file): name the files instead.
      for (const file of [...entry.evalFiles, ...entry.targetsFiles]) {
        files.push({
          file,
          sha256: "",
          commands: [{ file, kind: "code_judge", name: "(unknown)", command: "(see the file)" }],
        });
      }
    }
    const request: RunPermissionRequest = { root, files };
    const allowed = allowRun === false ? false : await allowRun(request);
    if (!allowed) refused.push(request);
  }
  if (refused.length > 0) {
    throw new UntrustedDatasetError(refused, options.hint ?? LIBRARY_TRUST_HINT);
  }
}
