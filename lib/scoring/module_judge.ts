/**
 * Module code judges: a TypeScript/JavaScript file inside the dataset root whose default export
 * scores the answer. It runs in a Deno Worker inside a judge host process (`judge_host.ts`)
 * whose memory is bounded (`max_memory_mb`, default 512), that may read the dataset root less
 * `.env*`, `.agentv/cache/` and `.agentv/targets.*` (`judge_read_scope.ts`) and nothing else (no
 * write, network, environment, subprocess, FFI or system access), and that imports only files
 * inside the root (`module_judge_imports.ts`), so it needs no trust. `--timeout` (or
 * `timeout_seconds`) kills the host.
 *
 * Deno checks read permission on the path as given, not on a symlink's target, so a root that
 * holds a symlink leading outside it would let a judge read through it: such roots are refused.
 *
 * Needs `--allow-run` (to start the host) and `--unstable-worker-options`;
 * `module_judge_worker.ts` is a worker entry (compile tasks `--include` it).
 *
 * @module
 */
import { resolve } from "node:path";
import { isInside } from "../fs/resolve.ts";
import { pathToFileURL } from "node:url";
import { isModuleScript } from "../dataset/dataset_commands.ts";
import { DEFAULT_MAX_MEMORY_MB, type JudgeHostRun, type JudgeHostSpec } from "./judge_host.ts";
import { JudgeHostPool } from "./judge_host_pool.ts";
import { isDeniedPath, judgeReadScope, type ReadScope } from "./judge_read_scope.ts";
import { checkJudgeImports } from "./module_judge_imports.ts";

/** How a module judge run ended. */
export type ModuleJudgeRun = JudgeHostRun;

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
  /** Memory limit of the judge in MB (default {@link DEFAULT_MAX_MEMORY_MB}). */
  maxMemoryMb?: number;
  /** The run's judge hosts (default: a host for this call alone, stopped after it). */
  hosts?: JudgeHostPool;
  /** The run's environment: the host gets `DENO_DIR` and `NPM_CONFIG_REGISTRY` from it. */
  env?: Readonly<Record<string, string>>;
}

/**
 * The module path named by a code judge: `module`, or a `script` that is a single
 * `.ts`/`.mts`/`.js`/`.mjs` path (a string without spaces, or a one-item list).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeModulePath } from "./module_judge.ts";
 * assert.equal(judgeModulePath({ script: "./judges/len.ts" }), "./judges/len.ts");
 * assert.equal(judgeModulePath({ script: ["python3", "j.py"] }), undefined);
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

/** Read scopes of dataset roots, kept per pool (per run), or per call without one. */
const rootScopes = new WeakMap<JudgeHostPool, Map<string, Promise<ReadScope>>>();

function rootScope(root: string, pool: JudgeHostPool | undefined): Promise<ReadScope> {
  if (pool === undefined) return judgeReadScope(root);
  let scopes = rootScopes.get(pool);
  if (scopes === undefined) rootScopes.set(pool, scopes = new Map());
  let scope = scopes.get(root);
  if (scope === undefined) {
    scope = judgeReadScope(root);
    scopes.set(root, scope);
    scope.catch(() => scopes.delete(root));
  }
  return scope;
}

function leavingError(where: string, links: string[], fix: string): ModuleJudgeRun {
  return {
    ok: false,
    logs: "",
    error: `${where} holds symlinks that lead outside it (${
      links.join(", ")
    }), which a module judge could read through; ${fix}`,
  };
}

/** The scopes the judge reads, or why it may not run. */
async function scopesOf(
  options: RunModuleJudgeOptions,
): Promise<{ scopes: ReadScope[] } | { refused: ModuleJudgeRun }> {
  const root = await rootScope(options.root, options.hosts);
  if (root.leaving.length > 0) {
    return {
      refused: leavingError("the dataset root", root.leaving, "remove them or move the dataset"),
    };
  }
  if (options.workspace === undefined) return { scopes: [root] };
  // Not kept: the target has just changed the workspace.
  const workspace = await judgeReadScope(options.workspace);
  if (workspace.leaving.length > 0) {
    return {
      refused: leavingError(
        "the workspace",
        workspace.leaving,
        "use a script code judge for this case",
      ),
    };
  }
  return { scopes: [root, workspace] };
}

/**
 * Runs the judge module at `path` (absolute, already resolved) with `payload` in a judge host
 * process (`judge_host.ts`): a fresh Worker there that may read the root (and the workspace)
 * less the denied paths. Its imports are checked first (`module_judge_imports.ts`). Never
 * throws: failures, refusals, timeouts, aborts and memory exhaustion come back as `{ok: false}`.
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
  const found = await scopesOf(options);
  if ("refused" in found) return found.refused;
  const denied = found.scopes.flatMap((s) => s.denied);
  const refused = await checkJudgeImports(path, {
    root: found.scopes[0].root,
    isDenied: (p) => isDeniedPath(p) || denied.some((d) => isInside(p, d)),
  });
  if (refused !== undefined) return { ok: false, error: refused, logs: "" };
  if (options.signal?.aborted) return { ok: false, error: "interrupted", logs: "", aborted: true };
  const spec: JudgeHostSpec = {
    maxMemoryMb: options.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB,
    read: found.scopes.map((s) => s.root),
    deny: denied,
    ...(options.env !== undefined ? { env: options.env } : {}),
  };
  const pool = options.hosts ?? new JudgeHostPool();
  const lent = pool.acquire(path, spec);
  let run: ModuleJudgeRun | undefined;
  try {
    run = await lent.host.call({
      url: pathToFileURL(path).href,
      payload,
      read: found.scopes.flatMap((s) => s.allow),
    }, { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    return run;
  } finally {
    // A host that saw a workspace is not reused: no other case has that workspace.
    await lent.release(options.workspace === undefined && run?.ok !== undefined);
    if (options.hosts === undefined) await pool.close();
  }
}
