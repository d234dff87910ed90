/**
 * The messages between the CLI and its sandbox worker (`sandbox.ts` sends, `load_worker.ts`
 * answers), and the validation report they carry.
 *
 * @module
 */
import type { CaseTargetUse } from "./validate_eval_file.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { DatasetCommand, SourceHash } from "./dataset_commands.ts";

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
  targetOverride?: string;
  /** Paths in messages are shown relative to this folder. */
  cwd: string;
}

/** A request to the worker (see `load_worker.ts`). */
export type WorkerRequest = {
  id: number;
  op: "load" | "validate";
  kind: FileKind;
  path: string;
  root: string;
  /** Files outside the root the worker may read (a `--targets` file). */
  alsoRead: string[];
  verbose: boolean;
  check?: TargetCheck;
};

/** A worker's answer. */
export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | {
    id: number;
    ok: false;
    error: { name: string; message: string; stack?: string; diagnostics?: Diagnostic[] };
  };
