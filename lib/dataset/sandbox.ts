/**
 * The runtime sandbox for untrusted datasets. Eval, targets and config files are loaded inside a
 * Worker whose Deno permissions allow reading the dataset root and nothing else: no writes, no
 * network, no subprocesses, no FFI, no dynamic imports, and only the two environment variables
 * `npm:yaml` reads at import (`LOG_TOKENS`, `LOG_STREAM`). Even if a path check in the loader were
 * wrong, the runtime refuses to read outside the root.
 *
 * Deno checks read permission on the path as given, not on a symlink's target; symlinks that
 * leave the root are refused by the loader's realpath check (and the eval file itself by
 * {@link Sandbox}).
 *
 * Needs `--unstable-worker-options`.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { findDatasetRoot } from "../fs/resolve.ts";
import { EvalLoadError } from "./errors.ts";
import { checkConfinedFile } from "../fs/read_confined.ts";
import type { LoadedEvalFile } from "./load_eval_file.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import {
  type FileKind,
  type FileReport,
  reviveWorkerError,
  type TargetCheck,
  type TargetsReading,
  type TargetsVerdict,
  type VerdictMessage,
  type WorkerRequest,
  type WorkerResponse,
} from "./sandbox_protocol.ts";
import {
  returnSandboxWorker,
  SANDBOX_ENV,
  sandboxPermissions,
  type SandboxPreload,
  startSandboxWorker,
} from "./sandbox_worker.ts";

/** Request ids, unique in the process: a lent worker never sees an id twice. */
let nextRequestId = 1;

/** The worker protocol and the validation report (defined in `sandbox_protocol.ts`). */
export type {
  FileKind,
  FileReport,
  TargetCheck,
  TargetsReading,
  TargetsVerdict,
  VerdictMessage,
  WorkerRequest,
  WorkerResponse,
};

/** A loaded eval file (the loader's shape, which the runner consumes). */
export type { LoadedEvalFile };

/** Options for the sandboxed operations. */
export interface SandboxOptions {
  /** Dataset root (widens the default: nearest folder with `.agentv/` or `.git`). */
  root?: string;
  /** Report verbose-only warnings (e.g. a missing JSONL sidecar). Default false. */
  verbose?: boolean;
  /** Base for a relative `path` (default: the process's working directory). */
  cwd?: string;
  /** Aborting terminates the worker and rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/** The worker's permissions and start (defined in `sandbox_worker.ts`). */
export { SANDBOX_ENV, sandboxPermissions };

type Pending = { resolve(value: unknown): void; reject(error: unknown): void };

/**
 * A sandbox worker confined to one dataset root; reuse it for every file under that root and
 * `close()` it when done.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.writeTextFile(
 *   join(root, "dataset.yaml"),
 *   "evalcases:\n  - id: a\n    expected_outcome: Says hi\n    input: Hi\n",
 * );
 * const sandbox = new Sandbox(root);
 * try {
 *   const loaded = await sandbox.load(join(root, "dataset.yaml"));
 *   console.log(loaded.cases.length); // 1
 * } finally {
 *   sandbox.close();
 *   await Deno.remove(root, { recursive: true });
 * }
 * ```
 */
export class Sandbox {
  /** The dataset root the worker may read. */
  readonly root: string;
  #realRoot: string | undefined;
  #worker: Worker | undefined;
  #failure: Error | undefined;
  #pending = new Map<number, Pending>();
  #roots: string[] = [];
  #alsoRead: string[];
  #preload: SandboxPreload | undefined;

  /**
   * Creates a sandbox for `root` (an absolute path); the worker starts on first use.
   * `alsoRead` lists files outside the root that the user named (a `--targets` file); `preload`
   * says what its worker imports before the first request (see `SandboxPreload`).
   */
  constructor(root: string, options: { alsoRead?: string[]; preload?: SandboxPreload } = {}) {
    this.root = root;
    this.#alsoRead = [...options.alsoRead ?? []];
    this.#preload = options.preload;
  }

  /**
   * Loads an eval file inside the sandbox. Throws {@link EvalLoadError} for file-level problems
   * (as `loadEvalFile` does), including a file that lies outside the root.
   */
  async load(
    path: string,
    options: { verbose?: boolean; signal?: AbortSignal } = {},
  ): Promise<LoadedEvalFile> {
    const outside = this.#outsideRoot(path);
    if (outside) throw new EvalLoadError(outside.message, [outside]);
    return await this.#call({ op: "load", kind: "eval", path, verbose: options.verbose }, options)
      .then((value) => value as LoadedEvalFile);
  }

  /**
   * Validates a file inside the sandbox; problems in the file never throw. With `check`, an eval
   * file's cases are also checked against their targets (the report then has no `targets`):
   * against `verdict` when given (read by another sandbox meanwhile, see {@link readTargets};
   * if it fails, this worker reads the targets file itself).
   */
  async validate(
    path: string,
    options: {
      kind?: FileKind;
      verbose?: boolean;
      signal?: AbortSignal;
      check?: TargetCheck;
      verdict?: Promise<TargetsVerdict>;
    } = {},
  ): Promise<FileReport> {
    const kind = options.kind ?? "eval";
    if (kind !== "eval") {
      // The checks `run` applies to config-like files, with the same message (links leading
      // outside the root, FIFOs, devices, files over 1 MiB).
      const label = kind === "targets" ? "targets file" : "config file";
      const checked = await checkConfinedFile(path, { label, root: this.root });
      if (!checked.ok && checked.reason !== "missing") {
        return { file: path, kind, valid: false, cases: 0, diagnostics: [checked.diagnostic] };
      }
    }
    const outside = this.#outsideRoot(path);
    if (outside) return { file: path, kind, valid: false, cases: 0, diagnostics: [outside] };
    const { check, verdict } = options;
    const request = { op: "validate" as const, kind, path, verbose: options.verbose };
    const value = await this.#call(
      check ? { ...request, check, ...(verdict ? { verdict } : {}) } : request,
      options,
    );
    return value as FileReport;
  }

  /**
   * Reads, inside the sandbox, the targets file that applies to eval file `path` (or
   * `check.targetsFile`) into a verdict that {@link validate} can use, and its definitions as
   * the consent listing reads them.
   */
  async readTargets(
    path: string,
    check: TargetCheck,
    options: { signal?: AbortSignal } = {},
  ): Promise<TargetsReading> {
    const outside = this.#outsideRoot(path);
    if (outside) throw new EvalLoadError(outside.message, [outside]);
    const value = await this.#call({ op: "targets", kind: "eval", path, check }, options);
    return value as TargetsReading;
  }

  /**
   * Starts the worker now (it starts on first use otherwise): the worker imports the loader on
   * its own thread, so a caller can start it first and import what it needs meanwhile.
   */
  start(): void {
    this.#realRoot ??= realPathOr(this.root);
    this.#start();
  }

  /**
   * Terminates the worker (or, with nothing pending, lends it to the next sandbox with the same
   * permissions when the process asked for that: see `lendSandboxWorkers`); pending requests
   * are rejected. Safe to call twice.
   */
  close(): void {
    const worker = this.#worker;
    if (worker && this.#pending.size === 0 && returnSandboxWorker(this.#roots, worker)) {
      this.#worker = undefined;
    }
    this.#fail(new Error("The sandbox was closed"));
  }

  /** Same as {@link close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  /**
   * A diagnostic when `path` (after resolving symlinks) is not inside the root. Synchronous on
   * purpose: `load` and `validate` post their request before they return, so a caller that goes
   * on to import a large module graph (`run` imports the runner while the files load; evaluating
   * it holds this thread's event loop for ~200 ms) does not hold the request back.
   */
  #outsideRoot(path: string): Diagnostic | undefined {
    this.#realRoot ??= realPathOr(this.root);
    const real = realPathOr(path);
    if (isInside(path, this.root) && isInside(real, this.#realRoot)) return undefined;
    return {
      severity: "error",
      file: path,
      message: `File is outside the dataset root '${this.root}'${
        real !== path ? ` (it resolves to '${real}')` : ""
      }; expected a file inside the root; pass --root with a folder that contains it`,
    };
  }

  #start(): Worker {
    if (this.#failure) throw this.#failure;
    if (this.#worker) return this.#worker;
    const roots = [this.root, ...this.#alsoRead];
    if (this.#realRoot && this.#realRoot !== this.root) roots.push(this.#realRoot);
    const worker = startSandboxWorker(roots, this.#preload ? { preload: this.#preload } : {});
    this.#roots = roots;
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const message = event.data;
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(reviveWorkerError(message.error));
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(new Error(`The sandbox worker crashed: ${event.message}`));
    };
    worker.onmessageerror = () => {
      this.#fail(new Error("The sandbox worker sent a message that could not be read"));
    };
    this.#worker = worker;
    return worker;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#worker?.terminate();
    this.#worker = undefined;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #call(
    request: {
      op: WorkerRequest["op"];
      kind: FileKind;
      path: string;
      verbose?: boolean;
      check?: TargetCheck;
      /** Sent on to the worker once it resolves (see `WorkerRequest.verdictFollows`). */
      verdict?: Promise<TargetsVerdict>;
    },
    options: { signal?: AbortSignal },
  ): Promise<unknown> {
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const worker = this.#start();
    const id = nextRequestId++;
    return new Promise((resolvePromise, rejectPromise) => {
      const onAbort = () => this.#fail(abortError(signal!));
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal?.removeEventListener("abort", onAbort);
      this.#pending.set(id, {
        resolve: (value) => {
          settle();
          resolvePromise(value);
        },
        reject: (error) => {
          settle();
          rejectPromise(error);
        },
      });
      const message: WorkerRequest = {
        id,
        op: request.op,
        kind: request.kind,
        path: request.path,
        root: this.root,
        alsoRead: this.#alsoRead,
        verbose: request.verbose ?? false,
        ...(request.check ? { check: request.check } : {}),
        ...(request.verdict ? { verdictFollows: true } : {}),
      };
      worker.postMessage(message);
      const send = (verdict?: TargetsVerdict) => {
        const follow: VerdictMessage = { op: "verdict", id, ...(verdict ? { verdict } : {}) };
        if (this.#worker === worker) worker.postMessage(follow);
      };
      request.verdict?.then(send, () => send());
    });
  }
}

/**
 * The dataset root of `path` (absolute): `options.root` when given, else the nearest folder
 * above the file holding `.agentv/` or `.git`, else the file's folder.
 *
 * @example
 * ```ts
 * const root = await sandboxRoot("/repo/evals/dataset.yaml"); // "/repo" when /repo/.git exists
 * ```
 */
export async function sandboxRoot(path: string, options: { root?: string } = {}): Promise<string> {
  const root = await findDatasetRoot(path, { root: options.root });
  return resolve(root);
}

/**
 * Validates one file (eval, targets or config) in a fresh sandbox confined to its dataset root.
 * Never throws for problems in the file: they come back as diagnostics.
 *
 * @example
 * ```ts
 * const report = await sandboxedValidate("evals/dataset.yaml", { verbose: true });
 * if (!report.valid) console.error(report.diagnostics);
 * ```
 */
export async function sandboxedValidate(
  path: string,
  options: SandboxOptions & { kind?: FileKind } = {},
): Promise<FileReport> {
  const file = absolutePath(path, options.cwd);
  const root = await sandboxRoot(file, {
    root: options.root && absolutePath(options.root, options.cwd),
  });
  using sandbox = new Sandbox(root);
  return await sandbox.validate(file, options);
}

/**
 * Loads one eval file in a fresh sandbox confined to its dataset root. Throws `EvalLoadError`
 * (with `.diagnostics`) for file-level problems, like `loadEvalFile`.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(join(dir, ".agentv")); // marks the dataset root
 * await Deno.writeTextFile(
 *   join(dir, "dataset.yaml"),
 *   "evalcases:\n  - id: a\n    expected_outcome: Says hi\n    input: Hi\n",
 * );
 * const { cases, diagnostics } = await sandboxedLoad("dataset.yaml", { cwd: dir });
 * console.log(cases.length, diagnostics.length); // 1 0
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function sandboxedLoad(
  path: string,
  options: SandboxOptions = {},
): Promise<LoadedEvalFile> {
  const file = absolutePath(path, options.cwd);
  const root = await sandboxRoot(file, {
    root: options.root && absolutePath(options.root, options.cwd),
  });
  using sandbox = new Sandbox(root);
  return await sandbox.load(file, options);
}

/** `path` made absolute against `cwd` (default: the process's working directory). */
function absolutePath(path: string, cwd: string | undefined): string {
  return isAbsolute(path) ? resolve(path) : cwd ? resolve(cwd, path) : resolve(path);
}

/** Whether `path` is `dir` or below it. */
function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The real path, or (when it does not exist) the real path of its folder joined with the name. */
function realPathOr(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    try {
      return join(Deno.realPathSync(dirname(path)), path.slice(dirname(path).length + 1));
    } catch {
      return path;
    }
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException("The operation was aborted", "AbortError");
}
