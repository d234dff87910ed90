/**
 * The messages between the CLI and its sandbox worker (`sandbox.ts` sends, `load_worker.ts`
 * answers), and the validation report they carry.
 *
 * @module
 */
import type { CaseTargetUse } from "./validate_eval_file.ts";
import type { TargetsVerdict } from "./check_case_targets.ts";
import { EvalLoadError } from "./errors.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { DatasetCommand, SourceHash } from "./dataset_commands.ts";
import type { PostedTargetDefinitions } from "./targets_discovery.ts";

export type { TargetsVerdict };

/** What a file is: an eval dataset, a `.agentv/targets.*` file or a `.agentv/config.yaml`. */
export type FileKind = "eval" | "targets" | "config";

/** The validation report of one file. */
export interface FileReport {
  /** Absolute path of the file. */
  file: string;
  /**
   * What kind of file it was validated as; `env`: a `.env` file that `run` would refuse to read
   * (validate reports only those).
   */
  kind: FileKind | "env";
  /** False when any diagnostic is an error. */
  valid: boolean;
  /** Number of valid cases (eval files; 0 for targets and config files). */
  cases: number;
  /** Everything found, errors and warnings. */
  diagnostics: Diagnostic[];
  /** Eval files: each valid case's target and where the case names it. */
  targets?: CaseTargetUse[];
  /** Eval files: the processes the valid cases' evaluators start, each where it is written. */
  commands?: DatasetCommand[];
  /** Eval files: the files parsed (the eval file, its sidecar) with the SHA-256 of their text. */
  sources?: SourceHash[];
}

/**
 * With `validate`: check each valid case's target against the targets file that applies, as
 * `run` will (the nearest `.agentv/targets.*` in the root, or `targetsFile`).
 */
export interface TargetCheck {
  /** Targets file (absolute; `--targets`) for every eval file; the sandbox may read it. */
  targetsFile?: string;
  /** Target for every case instead of its own (`--target`). */
  targetOverride?: string | string[];
  /** Judge target for every case instead of its target's `judge_target` (`--judge-target`). */
  judgeOverride?: string;
  /** Paths in messages are shown relative to this folder. */
  cwd: string;
}

/**
 * A request to the worker (see `load_worker.ts`): load or validate a file, or (`targets`) read
 * the targets file that applies to eval file `path` into a {@link TargetsVerdict}.
 */
export type WorkerRequest = {
  id: number;
  op: "load" | "validate" | "targets";
  kind: FileKind;
  path: string;
  root: string;
  /** Files outside the root the worker may read (a `--targets` file). */
  alsoRead: string[];
  verbose: boolean;
  check?: TargetCheck;
  /**
   * With `check` on a `validate`: the verdict on the targets file comes in a later
   * {@link VerdictMessage} (read by another sandbox worker meanwhile) instead of being read here.
   */
  verdictFollows?: boolean;
};

/**
 * What a `targets` request gives: the verdict on the targets file that applies, and its
 * definitions as the consent listing reads them (absent: no such file, or not parsed).
 */
export interface TargetsReading {
  /** See {@link TargetsVerdict}. */
  verdict: TargetsVerdict;
  /** See `PostedTargetDefinitions`. */
  definitions?: PostedTargetDefinitions;
}

/**
 * The verdict for the `validate` request `id` that said `verdictFollows`; without `verdict` (it
 * could not be read elsewhere) the worker reads the targets file itself.
 */
export type VerdictMessage = { op: "verdict"; id: number; verdict?: TargetsVerdict };

/**
 * Sent to a worker lent to the next sandbox with the same permissions (see
 * `lendSandboxWorkers`): it forgets what it read for the last one (targets files, verdicts).
 */
export type ResetMessage = { op: "reset" };

/** A worker's answer. */
export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | {
    id: number;
    ok: false;
    error: { name: string; message: string; stack?: string; diagnostics?: Diagnostic[] };
  };

/**
 * Rebuilds an error thrown in the worker: `EvalLoadError` keeps its class and diagnostics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reviveWorkerError } from "./sandbox_protocol.ts";
 * assert.equal(reviveWorkerError({ name: "TypeError", message: "boom" }).name, "TypeError");
 * ```
 */
export function reviveWorkerError(error: Extract<WorkerResponse, { ok: false }>["error"]): Error {
  if (error.name === "EvalLoadError" && error.diagnostics) {
    return new EvalLoadError(error.message, error.diagnostics);
  }
  const revived = new Error(error.message);
  revived.name = error.name;
  if (error.stack) revived.stack = `${error.stack}\n    (in the sandbox worker)`;
  return revived;
}
