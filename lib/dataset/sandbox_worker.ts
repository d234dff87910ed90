/**
 * Starting the sandbox worker (see `sandbox.ts`), and starting it early. Creating a worker and
 * importing the loader in it is most of the time `agentv validate` takes on a small file, so the
 * commands that load datasets start one while their own modules are still being imported: the
 * dispatcher calls {@link prestartSandbox} with the command line, which guesses the dataset root
 * of the first path named (as `sandboxRoot` would find it) and starts a worker confined to it.
 * The first {@link Sandbox} whose root (and extra readable files) are exactly the ones guessed
 * adopts that worker; otherwise it is terminated unused. A wrong guess costs time, never access:
 * a worker is only ever used by a sandbox with the same permissions.
 *
 * This module is imported by the command registry, so it imports nothing (no `node:` module, no
 * npm package): path handling here is POSIX only, and nothing is guessed on Windows.
 *
 * @module
 */
import type { ResetMessage } from "./sandbox_protocol.ts"; // a type only: nothing is imported

/** Environment variables the worker may read (`npm:yaml` reads them at import). */
export const SANDBOX_ENV = ["LOG_TOKENS", "LOG_STREAM"];

const WORKER_URL = new URL("./load_worker.ts", import.meta.url);

/**
 * The Deno permissions of the sandbox worker: read access to `roots` only.
 *
 * @example
 * ```ts
 * const permissions = sandboxPermissions(["/data/evals"]);
 * // permissions.read = ["/data/evals"], permissions.net = false
 * ```
 */
export function sandboxPermissions(roots: string[]): Deno.PermissionOptionsObject {
  return {
    read: [...new Set(roots)],
    write: false,
    net: false,
    run: false,
    env: [...SANDBOX_ENV],
    ffi: false,
    sys: false,
    // Run from a URL (`deno run https://…/main.ts`), the worker's own modules come from agentv's
    // host; nothing else may be imported.
    import: WORKER_URL.protocol === "file:" ? false : [WORKER_URL.host],
  };
}

/**
 * What a sandbox worker imports as soon as it starts, before its first request: `loader` (the
 * loader and its schemas, what most requests need; the default), `jsonl` (nothing: a JSONL file
 * of plain cases is validated without the schemas, which are imported if a line needs them) or
 * `targets` (the targets file check, for a worker that only reads targets files). It changes
 * nothing but when modules load; the worker's name carries it.
 */
export type SandboxPreload = "loader" | "jsonl" | "targets";

/** The name of a worker that preloads `preload` (see `load_worker.ts`). */
function workerName(preload: SandboxPreload): string {
  return `agentv-sandbox-${preload}`;
}

/** A worker started early, waiting for the sandbox with its permissions. */
let prestarted: { key: string; worker: Worker; failed: boolean } | undefined;

/** Whether closed sandboxes lend their workers (see {@link lendSandboxWorkers}). */
let lending = false;

/** How many lent workers wait at most (the oldest is terminated for a newer one). */
const MAX_IDLE = 2;

/** Workers closed sandboxes lent, oldest first, each waiting for a sandbox with its permissions. */
const idle: { key: string; worker: Worker }[] = [];

/**
 * Makes a closed sandbox lend its worker to the next sandbox whose permissions (dataset root and
 * extra readable files) are exactly the same, instead of terminating it: a process that loads
 * the same datasets again and again (a test suite, a server) then pays for one isolate and one
 * loader instead of one per command. The worker forgets what it read (targets files, verdicts)
 * before it is lent; at most two wait at a time, and a waiting worker keeps the process alive, so
 * call `lendSandboxWorkers(false)` (which terminates it) before the process should end. Off by
 * default: each command's sandbox then starts and ends its own worker. Returns the setting before.
 *
 * @example
 * ```ts ignore
 * import { lendSandboxWorkers } from "./sandbox_worker.ts";
 * lendSandboxWorkers(true);
 * // … many validate / runEval calls over the same dataset root …
 * lendSandboxWorkers(false);
 * ```
 */
export function lendSandboxWorkers(on: boolean): boolean {
  const before = lending;
  lending = on;
  if (!on) { for (const { worker } of idle.splice(0)) worker.terminate(); }
  return before;
}

/**
 * Takes back the worker of a closed sandbox that could read `roots`, when workers are lent and it
 * has nothing pending: it is told to forget what it read and waits for the next sandbox with the
 * same permissions (the oldest waiting worker is terminated when too many wait). Returns false,
 * leaving the worker to the caller, when workers are not lent.
 */
export function returnSandboxWorker(roots: string[], worker: Worker): boolean {
  if (!lending) return false;
  worker.onmessage = null;
  worker.onmessageerror = null;
  const key = JSON.stringify(roots);
  worker.onerror = (event: ErrorEvent) => {
    // One that fails while it waits is dropped; the next sandbox starts its own.
    event.preventDefault();
    worker.terminate();
    const at = idle.findIndex((w) => w.worker === worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.postMessage({ op: "reset" } satisfies ResetMessage);
  idle.push({ key, worker });
  while (idle.length > MAX_IDLE) idle.shift()!.worker.terminate();
  return true;
}

/**
 * Starts a sandbox worker that may read `roots` (the dataset root first, then files outside it
 * the user named, then the root's real path when it differs), or adopts the prestarted one when
 * it was started for exactly these roots (whatever it preloads).
 *
 * @example
 * ```ts ignore
 * const worker = startSandboxWorker(["/repo"]);
 * ```
 */
export function startSandboxWorker(
  roots: string[],
  options: { preload?: SandboxPreload } = {},
): Worker {
  const key = JSON.stringify(roots);
  const waiting = idle.findLastIndex((w) => w.key === key);
  if (waiting >= 0) {
    const [{ worker }] = idle.splice(waiting, 1);
    worker.onerror = null;
    return worker;
  }
  if (prestarted?.key === key) {
    const { worker, failed } = prestarted;
    prestarted = undefined;
    worker.onerror = null;
    // One that failed before it was adopted is replaced: the new one fails where it is watched.
    if (!failed) return worker;
    worker.terminate();
  }
  return new Worker(WORKER_URL.href, {
    type: "module",
    name: workerName(options.preload ?? "loader"),
    deno: { permissions: sandboxPermissions(roots) },
  });
}

/**
 * Guesses the dataset root of the first existing path in `args` (else of `cwd`), as
 * `sandboxRoot` finds it, and starts a sandbox worker for it now. `--root DIR` and, with
 * `alsoReadFlag`, that flag's file are honoured; with `jsonlFirst`, a worker whose first path
 * is a `.jsonl` file preloads nothing (see {@link SandboxPreload}). Returns a function that
 * terminates the worker if no sandbox adopted it. Does nothing on Windows or when anything is
 * unclear.
 *
 * @example
 * ```ts ignore
 * const discard = prestartSandbox(["evals/", "--workers", "8"], Deno.cwd());
 * try { await runTheCommand(); } finally { discard(); }
 * ```
 */
export function prestartSandbox(
  args: readonly string[],
  cwd: string,
  options: {
    /** A flag naming a file outside the root the sandbox may read too (`validate --targets`). */
    alsoReadFlag?: string;
    /** Told the permission roots of the worker started and what it preloads (for tests). */
    onStart?: (roots: readonly string[], preload: SandboxPreload) => void;
    /** Preload nothing when the first path named is a `.jsonl` file (`validate`). */
    jsonlFirst?: boolean;
  } = {},
): () => void {
  const discard = () => {
    prestarted?.worker.terminate();
    prestarted = undefined;
  };
  try {
    if (Deno.build.os === "windows" || prestarted !== undefined || !cwd.startsWith("/")) {
      return () => {};
    }
    const flag = (name: string): string | undefined => {
      for (let i = 0; i < args.length; i++) {
        if (args[i] === `--${name}`) return args[i + 1];
        if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
      }
      return undefined;
    };
    const rootFlag = flag("root");
    const named = args.find((a) => !a.startsWith("-") && statOrUndefined(absolute(a, cwd)));
    let root: string;
    if (rootFlag !== undefined) root = absolute(rootFlag, cwd);
    else {
      const path = absolute(named ?? ".", cwd);
      const start = statOrUndefined(path)?.isDirectory ? path : parentOf(path);
      root = datasetRootFrom(start);
    }
    const roots = [root];
    const alsoRead = options.alsoReadFlag === undefined ? undefined : flag(options.alsoReadFlag);
    if (alsoRead !== undefined) roots.push(absolute(alsoRead, cwd));
    let real = root;
    try {
      real = Deno.realPathSync(root);
    } catch {
      // as `realPathOr` in sandbox.ts: the path itself
    }
    if (real !== root) roots.push(real);
    const jsonl = options.jsonlFirst === true && named?.toLowerCase().endsWith(".jsonl") === true;
    const preload: SandboxPreload = jsonl ? "jsonl" : "loader";
    const worker = startSandboxWorker(roots, { preload });
    const entry = { key: JSON.stringify(roots), worker, failed: false };
    // Until a sandbox adopts it (and watches it), an error is only noted.
    worker.onerror = (event) => {
      event.preventDefault();
      entry.failed = true;
    };
    prestarted = entry;
    options.onStart?.(roots, preload);
    return discard;
  } catch {
    return discard;
  }
}

/** The nearest folder from `start` up holding `.agentv` or `.git`, else `start`. */
function datasetRootFrom(start: string): string {
  for (let dir = start;;) {
    if (statOrUndefined(`${dir === "/" ? "" : dir}/.agentv`)) return dir;
    if (statOrUndefined(`${dir === "/" ? "" : dir}/.git`)) return dir;
    const parent = parentOf(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

function statOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** `path` made absolute against `cwd` and normalised (`.`, `..`, repeated and trailing `/`). */
function absolute(path: string, cwd: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${cwd}/${path}`).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}
