/**
 * Case workspaces: each case that needs one (its target or case names a `workspace_template` or a
 * `workspace_repo`, or its target is a coding agent) runs in its own fresh folder — a copy of the
 * template, a checkout of the repository's commit (`workspace_repo.ts`), or an empty folder — so
 * parallel cases never share files. The folder lives under the run's temp
 * folder and is deleted after the case, or under `<root>/.agentv/workspaces/<run>/<case>` and
 * kept with `--keep-workspaces`. A run's temp folder is named after its process id, so the next
 * run removes what a crashed run left behind.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isInside, pathExists } from "../fs/resolve.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import { AGENT_PROVIDERS } from "../schema/targets.ts";
import type { WorkspaceChanges } from "../schema/workspace.ts";
import type { Target } from "../targets/types.ts";
import type { ConsentGrant } from "../targets/consent.ts";
import type { SandboxPolicy } from "../targets/sandbox_policy.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import { processBaseEnv } from "../targets/child_env.ts";
import { diffWorkspace, snapshotWorkspace, type WorkspaceSnapshot } from "./workspace_diff.ts";
import { materialiseRepo, type RepoSpec, type RepoWorkspace } from "./workspace_repo.ts";
import { removeQuietly } from "./workspace_files.ts";

/** Providers whose cases always run in a workspace (an empty one without a template). */
export const WORKSPACE_PROVIDERS: ReadonlySet<string> = new Set(AGENT_PROVIDERS);

/** Prefix of a run's temp folder: `agentv-ws-<pid>-<random>`. */
const TEMP_PREFIX = "agentv-ws-";

/** A workspace that could not be prepared (bad template): the case becomes an error row. */
export class WorkspaceError extends Error {
  /** Creates a workspace error. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "WorkspaceError";
  }
}

/** One case's workspace. */
export interface CaseWorkspace {
  /** Absolute path of the folder (the target's `cwd`). */
  readonly path: string;
  /** Absolute path of the template copied in, when there was one. */
  readonly template?: string;
  /** Whether the folder is kept after the case (`--keep-workspaces`). */
  readonly kept: boolean;
  /** Folders it borrows from (a checkout's repository mirror): a sandboxed target reads them. */
  readonly borrowed?: readonly string[];
  /** What changed since the workspace was prepared (call after the target finished). */
  changes(): Promise<WorkspaceChanges>;
  /** Deletes the folder unless kept; safe to call twice. */
  dispose(): Promise<void>;
}

/** Options of {@link createWorkspaceManager}. */
export interface WorkspaceManagerOptions {
  /** Id of the run (names the kept folder `<root>/.agentv/workspaces/<run>`). */
  runId: string;
  /** Keep every workspace under the dataset root instead of deleting it (default false). */
  keep?: boolean;
  /** Folder holding the runs' temp folders (default the OS temp folder). */
  tempDir?: string;
  /** Cap of each row's diff in bytes (default 256 KiB). */
  maxDiffBytes?: number;
}

/** What {@link WorkspaceManager.open} needs about a case. */
export interface WorkspaceRequest {
  /** The case. */
  evalCase: EvalCase;
  /** Its target (`workspaceTemplate`, `workspaceRepo`, `provider`). */
  target: Pick<Target, "provider" | "workspaceTemplate" | "workspaceRepo">;
  /** Folder of the eval file (base of a case's relative `workspace_template`). */
  evalDir: string;
  /** Dataset root: a template must lie inside it. */
  root: string;
  /** What the run's trust gate allowed (a repository's setup commands need it). */
  consent?: ConsentGrant;
  /** The run's environment (git and setup commands; default PATH, HOME, LANG, TMPDIR). */
  env?: Readonly<Record<string, string>>;
  /** Each setup command is killed after this many ms (default 120 s). */
  timeoutMs?: number;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
  /** A dry run: a repository is neither fetched nor checked out, nor set up (default false). */
  dryRun?: boolean;
  /** The sandbox a repository's setup commands run in (the case's; absent: unsandboxed). */
  setupSandbox?: SandboxPolicy;
}

/** Creates and removes the workspaces of one run. */
export interface WorkspaceManager {
  /**
   * The case's workspace, or `undefined` when the case needs none. Throws
   * {@link WorkspaceError} when the template is missing, not a folder or outside the root.
   */
  open(request: WorkspaceRequest): Promise<CaseWorkspace | undefined>;
  /** Removes the run's temp folder (every workspace not kept). */
  close(): Promise<void>;
}

/**
 * The template a case runs with: the case's `execution.workspace_template` (relative to its eval
 * file's folder), else its target's; `undefined` when neither names one.
 *
 * @example
 * ```ts ignore
 * workspaceTemplateOf(evalCase, target, "/repo/evals"); // "/repo/evals/workspaces/calc"
 * ```
 */
export function workspaceTemplateOf(
  evalCase: EvalCase,
  target: Pick<Target, "workspaceTemplate">,
  evalDir: string,
): string | undefined {
  const own = evalCase.execution.workspace_template;
  if (typeof own === "string" && own !== "") return resolve(evalDir, own);
  if (evalCase.execution.workspace_repo !== undefined) return undefined;
  return target.workspaceTemplate;
}

/**
 * The repository a case runs in: the case's `execution.workspace_repo` (its `url` relative to the
 * eval file), else its target's, unless the case names a `workspace_template` of its own (a
 * case's workspace, of either kind, wins over its target's); `undefined` when there is none.
 *
 * @example
 * ```ts ignore
 * workspaceRepoOf(evalCase, target, "/repo/evals"); // { repo: {url, commit, setup}, baseDir }
 * ```
 */
export function workspaceRepoOf(
  evalCase: EvalCase,
  target: Pick<Target, "workspaceRepo">,
  evalDir: string,
): RepoSpec | undefined {
  const own = evalCase.execution.workspace_repo as WorkspaceRepo | undefined;
  if (own !== undefined) return { repo: own, baseDir: evalDir };
  const template = evalCase.execution.workspace_template;
  if (typeof template === "string" && template !== "") return undefined;
  return target.workspaceRepo;
}

/** What checking a repository out needs from the request. */
function repoOptions(request: WorkspaceRequest, gitDir: string) {
  return {
    root: request.root,
    gitDir,
    env: request.env ?? processBaseEnv(),
    timeoutMs: request.timeoutMs ?? 120_000,
    ...(request.consent !== undefined ? { consent: request.consent } : {}),
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
    ...(request.setupSandbox !== undefined ? { sandbox: { policy: request.setupSandbox } } : {}),
  };
}

/** A file-system-safe folder name for a case id. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 100) || "case";
}

/** The template's real path, checked: a folder inside the dataset root. */
async function checkTemplate(template: string, root: string): Promise<string> {
  let real: string;
  try {
    real = await Deno.realPath(template);
  } catch {
    throw new WorkspaceError(
      `workspace_template '${template}' does not exist; create the folder or fix the path ` +
        "(a case's path is relative to its eval file, a target's to its targets file)",
    );
  }
  const realRoot = await Deno.realPath(root);
  if (!isInside(real, realRoot)) {
    throw new WorkspaceError(
      `workspace_template '${template}' lies outside the dataset root '${root}'; ` +
        "move the template inside the root (or run from a root that holds it)",
    );
  }
  if (!(await Deno.stat(real)).isDirectory) {
    throw new WorkspaceError(`workspace_template '${template}' is not a folder; name a folder`);
  }
  return real;
}

/**
 * Copies `from` into the empty folder `to`: folders, regular files (with their mode) and symlinks
 * that stay inside the template (a link leading out of it is refused).
 */
async function copyTree(from: string, to: string, top = from): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isSymlink) {
      const link = await Deno.readLink(source);
      const dest = resolve(dirname(source), link);
      if (isAbsolute(link) || !isInside(dest, top)) {
        throw new WorkspaceError(
          `workspace_template holds a link that leads outside it (or is absolute, so the copy would point back into the template): ${
            relative(top, source)
          } -> ${link}; replace it by a relative link inside the template or by a copy`,
        );
      }
      await Deno.symlink(link, target);
    } else if (entry.isDirectory) {
      await Deno.mkdir(target);
      await copyTree(source, target, top);
    } else if (entry.isFile) {
      await Deno.copyFile(source, target);
    }
  }
}

/**
 * Whether process `pid` is alive. `SIGURG` is ignored by default, so probing with it disturbs
 * nothing; only "no such process" counts as dead (no permission to signal, or to probe at all,
 * counts as alive).
 */
function processAlive(pid: number): boolean {
  if (Deno.build.os === "windows") return true;
  try {
    Deno.kill(pid, "SIGURG");
    return true;
  } catch (e) {
    return !(e instanceof Deno.errors.NotFound);
  }
}

/**
 * Removes the temp workspace folders (`agentv-ws-<pid>-*`) of runs whose process is gone (a
 * crash, `kill -9`). Returns the folders removed.
 *
 * @example
 * ```ts ignore
 * await removeStaleWorkspaces("/tmp"); // ["/tmp/agentv-ws-4242-abc123"]
 * ```
 */
export async function removeStaleWorkspaces(tempDir: string): Promise<string[]> {
  const removed: string[] = [];
  let entries: AsyncIterable<Deno.DirEntry>;
  try {
    entries = Deno.readDir(tempDir);
  } catch {
    return removed;
  }
  try {
    for await (const entry of entries) {
      const m = /^agentv-ws-(\d+)-/.exec(entry.name);
      if (!m || !entry.isDirectory) continue;
      const pid = Number(m[1]);
      if (pid === Deno.pid || processAlive(pid)) continue;
      const path = join(tempDir, entry.name);
      await removeQuietly(path);
      if (!(await pathExists(path))) removed.push(path);
    }
  } catch {
    // The temp folder cannot be listed: nothing to clean.
  }
  return removed;
}

/**
 * Creates the workspace manager of one run.
 *
 * @example
 * ```ts ignore
 * const workspaces = createWorkspaceManager({ runId, keep: false });
 * const ws = await workspaces.open({ evalCase, target, evalDir, root });
 * // ... run the target with cwd: ws?.path, then:
 * const changes = await ws?.changes();
 * await ws?.dispose();
 * await workspaces.close();
 * ```
 */
export function createWorkspaceManager(options: WorkspaceManagerOptions): WorkspaceManager {
  let runTemp: Promise<string> | undefined;
  const used = new Set<string>();
  let counter = 0;

  const tempFolder = () => {
    runTemp ??= (async () => {
      const dir = await Deno.makeTempDir({
        prefix: `${TEMP_PREFIX}${Deno.pid}-`,
        ...(options.tempDir !== undefined ? { dir: options.tempDir } : {}),
      });
      await removeStaleWorkspaces(dirname(dir));
      return dir;
    })();
    return runTemp;
  };

  const keptFolder = async (root: string, id: string) => {
    const base = join(root, ".agentv", "workspaces", safeName(options.runId));
    let name = safeName(id);
    for (let n = 2; used.has(join(base, name)); n++) name = `${safeName(id)}-${n}`;
    const path = join(base, name);
    used.add(path);
    await Deno.mkdir(path, { recursive: true });
    return path;
  };

  return {
    async open(request) {
      const template = workspaceTemplateOf(request.evalCase, request.target, request.evalDir);
      const repo = workspaceRepoOf(request.evalCase, request.target, request.evalDir);
      if (
        template === undefined && repo === undefined &&
        !WORKSPACE_PROVIDERS.has(request.target.provider)
      ) {
        return undefined;
      }
      const real = template === undefined ? undefined : await checkTemplate(template, request.root);
      const keep = options.keep ?? false;
      const path = keep
        ? await keptFolder(request.root, request.evalCase.id)
        : join(await tempFolder(), `${++counter}-${safeName(request.evalCase.id)}`);
      if (!keep) await Deno.mkdir(path);
      let snapshot: WorkspaceSnapshot;
      let checkout: RepoWorkspace | undefined;
      // agentv's own repository of a checkout, outside it (see `privateRepo`).
      const gitDir = repo !== undefined && request.dryRun !== true
        ? join(await tempFolder(), `git-${++counter}`)
        : undefined;
      try {
        if (real !== undefined) await copyTree(real, path);
        if (repo !== undefined && gitDir !== undefined) {
          checkout = await materialiseRepo(path, repo, repoOptions(request, gitDir));
        }
        snapshot = await snapshotWorkspace(path);
      } catch (e) {
        if (gitDir !== undefined) await removeQuietly(gitDir);
        if (!keep) await removeQuietly(path);
        if (e instanceof WorkspaceError) throw e;
        const what = repo !== undefined
          ? `Could not prepare workspace_repo '${repo.repo.url}'`
          : `Could not copy workspace_template '${template}'`;
        throw new WorkspaceError(`${what}: ${(e as Error).message}`, { cause: e });
      }
      let disposed = false;
      return {
        path,
        ...(template !== undefined ? { template } : {}),
        kept: keep,
        ...(checkout !== undefined ? { borrowed: [checkout.mirror] } : {}),
        async changes() {
          const changes = await diffWorkspace(path, {
            ...(real !== undefined ? { before: real } : {}),
            ...(checkout !== undefined ? { readBefore: checkout.readBefore } : {}),
            snapshot,
            ...(options.maxDiffBytes !== undefined ? { maxDiffBytes: options.maxDiffBytes } : {}),
          });
          return {
            ...changes,
            template: template ?? null,
            path: keep ? path : null,
            ...(checkout !== undefined ? { repo: checkout.record } : {}),
          };
        },
        async dispose() {
          if (disposed || keep) return;
          disposed = true;
          await removeQuietly(path);
          if (gitDir !== undefined) await removeQuietly(gitDir);
        },
      };
    },
    async close() {
      if (runTemp === undefined) return;
      const dir = await runTemp.catch(() => undefined);
      if (dir !== undefined && basename(dir).startsWith(TEMP_PREFIX)) await removeQuietly(dir);
    },
  };
}
