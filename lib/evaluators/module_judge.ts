/**
 * Module code judges: a TypeScript/JavaScript file inside the dataset root whose default export
 * scores the answer. It runs in a Deno Worker that may read the dataset root and nothing else
 * (no write, network, environment, subprocess, FFI or system access), so it needs no trust.
 * `--timeout` (or `timeout_seconds`) terminates the worker.
 *
 * Deno checks read permission on the path as given, not on a symlink's target, so a root that
 * holds a symlink leading outside it would let a judge read through it: such roots are refused.
 *
 * Needs `--unstable-worker-options`; `module_judge_worker.ts` is a worker entry (compile tasks
 * `--include` it).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { isInside } from "../loader/resolve.ts";
import { pathToFileURL } from "node:url";
import { isModuleScript } from "../loader/dataset_commands.ts";
import type { ModuleJudgeRequest, ModuleJudgeResponse } from "./module_judge_worker.ts";

/** How a module judge run ended. */
export type ModuleJudgeRun =
  | { ok: true; value: unknown; logs: string }
  | { ok: false; error: string; logs: string; timedOut?: boolean; aborted?: boolean };

/** Options of {@link runModuleJudge}. */
export interface RunModuleJudgeOptions {
  /** Dataset root: the only folder the worker may read. */
  root: string;
  /** Terminate the worker after this many ms. */
  timeoutMs: number;
  /** Terminates the worker when aborted. */
  signal?: AbortSignal;
  /**
   * The case's workspace: the worker may read it too (refused, like the root, when it holds a
   * symlink leading outside it).
   */
  workspace?: string;
}

/**
 * The module path named by a code judge: `module`, or a `script` that is a single
 * `.ts`/`.mts`/`.js`/`.mjs` path (a string without spaces, or a one-item list).
 *
 * @example
 * ```ts
 * import { judgeModulePath } from "./module_judge.ts";
 * judgeModulePath({ script: "./judges/len.ts" }); // "./judges/len.ts"
 * judgeModulePath({ script: ["python3", "j.py"] }); // undefined
 * ```
 */
export function judgeModulePath(
  config: { module?: string; script?: string | readonly string[] },
): string | undefined {
  if (config.module !== undefined) return config.module;
  const s = config.script;
  if (s === undefined || !isModuleScript(s)) return undefined;
  return typeof s === "string" ? s.trim() : s[0];
}

/**
 * Resolves a judge module path against the eval file's folder: it must exist, be a regular file
 * and (symlinks resolved) lie inside the dataset root. Throws with a message naming the fix.
 */
export async function resolveJudgeModule(
  path: string,
  options: { evalDir: string; root: string },
): Promise<string> {
  const wanted = resolve(options.evalDir, path);
  const root = await Deno.realPath(options.root).catch(() => resolve(options.root));
  let real: string;
  try {
    real = await Deno.realPath(wanted);
  } catch {
    throw new Error(`module '${path}' not found (resolved to ${wanted}); check the path`);
  }
  if (
    !isInside(wanted, resolve(options.root)) && !isInside(wanted, root) || !isInside(real, root)
  ) {
    throw new Error(
      `module '${path}' resolves to ${real}, outside the dataset root ${root}; ` +
        "put the judge inside the root",
    );
  }
  const info = await Deno.stat(real);
  if (!info.isFile) throw new Error(`module '${path}' is not a regular file (${real})`);
  return real;
}

const outwardLinks = new Map<string, Promise<string[]>>();

/** Symlinks under `root` that lead outside it (memoised per root for the process). */
export function symlinksLeavingRoot(root: string): Promise<string[]> {
  let p = outwardLinks.get(root);
  if (!p) {
    p = scanLinks(root);
    outwardLinks.set(root, p);
    // A failed scan is retried next time.
    p.catch(() => outwardLinks.delete(root));
  }
  return p;
}

async function scanLinks(root: string): Promise<string[]> {
  const realRoot = await Deno.realPath(root);
  const found: string[] = [];
  const stack = [realRoot];
  while (stack.length > 0 && found.length < 5) {
    const dir = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) stack.push(path);
      else if (entry.isSymlink) {
        const target = await Deno.realPath(path).catch(() => undefined);
        if (target !== undefined && !isInside(target, realRoot)) found.push(`${path} -> ${target}`);
      }
    }
  }
  return found;
}

/** The Deno permissions of a judge worker: read `roots`, nothing else. */
export function moduleJudgePermissions(roots: string[]): Deno.PermissionOptionsObject {
  return {
    read: [...new Set(roots)],
    write: false,
    net: false,
    env: false,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  };
}

/**
 * Runs the judge module at `path` (absolute, already resolved) with `payload` in a fresh worker.
 * Never throws: failures, timeouts and aborts come back as `{ok: false}`.
 *
 * @example
 * ```ts ignore
 * const run = await runModuleJudge("/data/judges/len.ts", payload, {
 *   root: "/data", timeoutMs: 5000,
 * });
 * if (run.ok) console.log(run.value);
 * ```
 */
export async function runModuleJudge(
  path: string,
  payload: unknown,
  options: RunModuleJudgeOptions,
): Promise<ModuleJudgeRun> {
  const realRoot = await Deno.realPath(options.root).catch(() => resolve(options.root));
  const links = await symlinksLeavingRoot(options.root).catch(() => []);
  if (links.length > 0) {
    return {
      ok: false,
      logs: "",
      error: `the dataset root holds symlinks that lead outside it (${
        links.join(", ")
      }), which a module judge could read through; remove them or move the dataset`,
    };
  }
  const readable = [resolve(options.root), realRoot];
  if (options.workspace !== undefined) {
    // Not memoised: the target has just changed the workspace.
    const realWorkspace = await Deno.realPath(options.workspace);
    const leaving = await scanLinks(realWorkspace).catch(() => []);
    if (leaving.length > 0) {
      return {
        ok: false,
        logs: "",
        error: `the workspace holds symlinks that lead outside it (${
          leaving.join(", ")
        }), which a module judge could read through; use a script code judge for this case`,
      };
    }
    readable.push(resolve(options.workspace), realWorkspace);
  }
  if (options.signal?.aborted) return { ok: false, error: "interrupted", logs: "", aborted: true };
  const worker = new Worker(new URL("./module_judge_worker.ts", import.meta.url).href, {
    type: "module",
    name: "agentv-module-judge",
    deno: { permissions: moduleJudgePermissions(readable) },
  });
  const { promise, resolve: settle } = Promise.withResolvers<ModuleJudgeRun>();
  const timer = setTimeout(() => {
    settle({
      ok: false,
      error: `Code judge timed out after ${options.timeoutMs}ms and was stopped`,
      logs: "",
      timedOut: true,
    });
  }, options.timeoutMs);
  const onAbort = () => settle({ ok: false, error: "interrupted", logs: "", aborted: true });
  options.signal?.addEventListener("abort", onAbort, { once: true });
  worker.onmessage = (event: MessageEvent<ModuleJudgeResponse>) => settle(event.data);
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    settle({ ok: false, error: event.message, logs: "" });
  };
  worker.onmessageerror = () => {
    settle({ ok: false, error: "the judge's reply could not be read", logs: "" });
  };
  const request: ModuleJudgeRequest = { url: pathToFileURL(path).href, payload };
  worker.postMessage(request);
  try {
    return await promise;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    worker.terminate();
  }
}
