/**
 * Workspaces from a repository at a pinned commit (`workspace_repo`). The repository is cloned
 * once into a bare mirror under `<root>/.agentv/cache/repos/` (keyed by its URL, or by the real
 * path of a local one) and fetched again only when the commit is missing. Each case then gets a
 * cheap checkout of its own: an empty repository that borrows the mirror's objects (git's
 * `alternates`, as `git clone --shared` does) with the commit checked out detached — no branch,
 * tag or remote of the mirror is visible in it. The setup commands run in the checkout
 * (`workspace_setup.ts`: the dataset's commands, in the case's sandbox), and the files as they
 * are after setup are what the agent's diff is compared with. From then on agentv reads the
 * checkout only through a bare repository of its own outside it ({@link privateRepo}), never
 * through the checkout's `.git`, which setup and the agent may rewrite.
 *
 * @module
 */
import { basename, join } from "node:path";
import { type RepoLocation, repoLocation } from "../dataset/workspace_settings.ts";
import { isInside, pathExists } from "../fs/resolve.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import { tail } from "../scoring/script_process.ts";
import { type GitRun, gitText, runGit } from "./git.ts";
import { RepoError, runSetup, type RunSetupOptions } from "./workspace_setup.ts";

/** How long a clone or fetch of a repository may take: 10 minutes. */
const FETCH_TIMEOUT_MS = 600_000;

/** Where repositories are cached, and what git runs with. */
export interface RepoCacheOptions {
  /** The cache folder (`<root>/.agentv/cache/repos`). */
  dir: string;
  /** The run's environment (git's PATH, HOME, proxies). */
  env: Readonly<Record<string, string>>;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
}

/** A repository to check out: where it is (checked) and the commit. */
export interface RepoSource {
  /** A local path (its real path, inside the root) or a remote URL. */
  location: Extract<RepoLocation, { kind: "local" | "remote" }>;
  /** The full commit SHA. */
  commit: string;
}

/** In-process: one preparation at a time per mirror (a clone, then fetches, never together). */
const chains = new Map<string, Promise<unknown>>();

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `<dir>/<hash of the URL or path>-<its name>.git`. */
async function mirrorPath(source: RepoSource, dir: string): Promise<string> {
  const where = source.location.kind === "local" ? source.location.path : source.location.url;
  const name = basename(where.replace(/[/\\]+$/, "")).replace(/\.git$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 40) || "repo";
  return join(dir, `${(await sha256Hex(where)).slice(0, 16)}-${name}.git`);
}

function failed(what: string, run: GitRun): RepoError {
  return new RepoError(
    `${what}: git exited with code ${run.code}${
      run.stderr === "" ? "" : `: ${tail(run.stderr, 1000)}`
    }`,
  );
}

async function hasCommit(mirror: string, commit: string, options: RepoCacheOptions) {
  const run = await runGit(["cat-file", "-e", `${commit}^{commit}`], {
    env: options.env,
    cwd: mirror,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return run.code === 0;
}

/** Clones the mirror (into a temp folder renamed into place, so a crash leaves no half mirror). */
async function cloneMirror(source: RepoSource, mirror: string, options: RepoCacheOptions) {
  await Deno.mkdir(options.dir, { recursive: true });
  const temp = await Deno.makeTempDir({ dir: options.dir, prefix: ".clone-" });
  const from = source.location.kind === "local" ? source.location.path : source.location.url;
  try {
    const run = await runGit(["clone", "--mirror", "--no-local", "--quiet", "--", from, temp], {
      env: options.env,
      timeoutMs: FETCH_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (run.code !== 0) throw failed(`Could not clone workspace_repo '${from}'`, run);
    await Deno.rename(temp, mirror).catch(async (e) => {
      if (!(await pathExists(mirror))) throw e; // another agentv put it there first: use that one
    });
  } finally {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
}

/** Fetches into the mirror until it holds `commit` (every ref, then the commit by its SHA). */
async function fetchCommit(source: RepoSource, mirror: string, options: RepoCacheOptions) {
  const from = source.location.kind === "local" ? source.location.path : source.location.url;
  const fetch = (extra: string[]) =>
    runGit(["fetch", "--quiet", "--prune", "--", from, ...extra], {
      env: options.env,
      cwd: mirror,
      timeoutMs: FETCH_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const all = await fetch(["+refs/*:refs/*"]);
  if (await hasCommit(mirror, source.commit, options)) return;
  // Servers that allow it hand out a commit no ref names.
  await fetch([source.commit]);
  if (await hasCommit(mirror, source.commit, options)) return;
  throw new RepoError(
    `Commit ${source.commit} is not in workspace_repo '${from}'${
      all.code !== 0 ? ` (fetching failed: ${tail(all.stderr, 500)})` : " (fetched every ref)"
    }; check the SHA (git rev-parse <ref> in the repository) and that it was pushed`,
  );
}

/**
 * The mirror of `source` holding its commit: cloned on first use, fetched only when the commit
 * is missing. Concurrent cases of one run share one preparation.
 */
export async function prepareMirror(source: RepoSource, options: RepoCacheOptions) {
  const mirror = await mirrorPath(source, options.dir);
  const ready = (chains.get(mirror) ?? Promise.resolve()).catch(() => {}).then(async () => {
    if (!(await pathExists(mirror))) await cloneMirror(source, mirror, options);
    if (!(await hasCommit(mirror, source.commit, options))) {
      await fetchCommit(source, mirror, options);
    }
  });
  chains.set(mirror, ready);
  await ready;
  return mirror;
}

/**
 * Checks `commit` of `mirror` out into the empty folder `path`: a repository of its own that
 * borrows the mirror's objects, HEAD detached at the commit, no other ref.
 */
export async function checkoutCommit(
  path: string,
  mirror: string,
  commit: string,
  options: RepoCacheOptions,
): Promise<void> {
  const git = (args: string[]) =>
    runGit(args, { env: options.env, ...(options.signal ? { signal: options.signal } : {}) });
  const init = await git(["init", "--quiet", "--template=", "--", path]);
  if (init.code !== 0) throw failed("Could not make the workspace repository", init);
  await Deno.mkdir(join(path, ".git", "objects", "info"), { recursive: true });
  await Deno.writeTextFile(
    join(path, ".git", "objects", "info", "alternates"),
    `${join(mirror, "objects")}\n`,
  );
  const checkout = await git(["-C", path, "checkout", "--quiet", "--detach", commit]);
  if (checkout.code !== 0) throw failed(`Could not check out ${commit}`, checkout);
}

/**
 * Makes agentv's own repository for reading a checkout once dataset code ran in it (its setup
 * commands, the agent): a bare repository at `gitDir`, outside the workspace, that borrows the
 * mirror's objects. git then never reads the workspace's `.git`, whose config that code may have
 * rewritten to make git run a command (a clean filter, an ssh command for a lazy fetch) outside
 * the case's sandbox.
 */
export async function privateRepo(
  gitDir: string,
  mirror: string,
  options: RepoCacheOptions,
): Promise<void> {
  const init = await runGit(["init", "--quiet", "--bare", "--template=", "--", gitDir], {
    env: options.env,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (init.code !== 0) throw failed("Could not make agentv's repository of the workspace", init);
  await Deno.mkdir(join(gitDir, "objects", "info"), { recursive: true });
  await Deno.writeTextFile(
    join(gitDir, "objects", "info", "alternates"),
    `${join(mirror, "objects")}\n`,
  );
}

/**
 * The tree of the checkout at `path` as it is now (the commit's files, and the untracked ones
 * that are not ignored), written through agentv's repository `gitDir` ({@link privateRepo}): what
 * the agent's diff is compared with after setup commands changed files.
 */
export async function writeBaselineTree(
  path: string,
  gitDir: string,
  commit: string,
  options: RepoCacheOptions,
): Promise<string> {
  const git = (args: string[]) =>
    runGit([`--git-dir=${gitDir}`, `--work-tree=${path}`, ...args], {
      env: options.env,
      extraEnv: { GIT_INDEX_FILE: join(gitDir, "baseline.index") },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  for (const step of [["read-tree", commit], ["add", "--all"]]) {
    const run = await git(step);
    if (run.code !== 0) throw failed("Could not record the workspace after setup", run);
  }
  const tree = await git(["write-tree"]);
  if (tree.code !== 0) throw failed("Could not record the workspace after setup", tree);
  return gitText(tree);
}

/**
 * The content of `rel` in `treeish`, read through agentv's repository `gitDir`
 * ({@link privateRepo}), or `undefined` when it is not there (cut past `maxBytes`: the diff then
 * names the file without its lines).
 */
export async function readFromTree(
  gitDir: string,
  treeish: string,
  rel: string,
  options: RepoCacheOptions & { maxBytes: number },
): Promise<Uint8Array | undefined> {
  const run = await runGit([`--git-dir=${gitDir}`, "cat-file", "blob", `${treeish}:${rel}`], {
    env: options.env,
    maxOutputBytes: options.maxBytes + 1,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return run.code === 0 || run.cut ? run.stdout : undefined;
}

/** A `workspace_repo` as a case or target names it, with the folder its `url` is relative to. */
export interface RepoSpec {
  /** The settings as written. */
  repo: WorkspaceRepo;
  /** The folder of the file that names it (the eval file's, or the targets file's). */
  baseDir: string;
}

/** A checked-out, set-up workspace repository. */
export interface RepoWorkspace {
  /** What the row records: the URL as written and the commit. */
  record: { url: string; commit: string };
  /** The mirror the checkout borrows its objects from (`git` in the checkout reads it). */
  mirror: string;
  /** The content of a file as it was after setup (what the agent's diff compares with). */
  readBefore(rel: string, maxBytes: number): Promise<Uint8Array | undefined>;
}

/** Options of {@link materialiseRepo}. */
export interface MaterialiseRepoOptions extends Omit<RunSetupOptions, "env"> {
  /** The dataset root: a local repository must lie inside it; the cache is under it. */
  root: string;
  /** The run's environment (git and the setup commands take their variables from it). */
  env: Readonly<Record<string, string>>;
  /**
   * An empty or missing folder outside the workspace for agentv's own repository of it
   * ({@link privateRepo}); the caller removes it with the workspace.
   */
  gitDir: string;
}

/** The checked location of a repository: a local one by its real path, inside the root. */
async function sourceOf(spec: RepoSpec, root: string): Promise<RepoSource> {
  const location = repoLocation(spec.repo.url, spec.baseDir);
  if (location.kind === "refused") {
    throw new RepoError(`workspace_repo url '${spec.repo.url}' is refused: ${location.reason}`);
  }
  const commit = spec.repo.commit.toLowerCase();
  if (location.kind === "remote") return { location, commit };
  let real: string;
  try {
    real = await Deno.realPath(location.path);
  } catch {
    throw new RepoError(
      `workspace_repo '${spec.repo.url}' does not exist (resolved to ${location.path}); ` +
        "fix the path (relative to the file that names it) or name a remote URL",
    );
  }
  if (!isInside(real, await Deno.realPath(root))) {
    throw new RepoError(
      `workspace_repo '${spec.repo.url}' resolves to ${real}, outside the dataset root ${root}; ` +
        "keep the repository inside the root or name its remote URL",
    );
  }
  return { location: { kind: "local", path: real }, commit };
}

/**
 * Fills the empty folder `path` from a repository: the mirror in the cache (cloned or fetched as
 * needed), the commit checked out, the setup commands run; then records the files as they are
 * (the baseline of the agent's diff: the commit itself when there is no setup).
 *
 * @example
 * ```ts ignore
 * const ws = await materialiseRepo(path, { repo, baseDir: evalDir }, {
 *   root, env, consent, timeoutMs: 120_000,
 * });
 * await ws.readBefore("src/calc.ts", 1024 * 1024); // the file at the commit
 * ```
 */
export async function materialiseRepo(
  path: string,
  spec: RepoSpec,
  options: MaterialiseRepoOptions,
): Promise<RepoWorkspace> {
  const source = await sourceOf(spec, options.root);
  const cache: RepoCacheOptions = {
    dir: join(options.root, ".agentv", "cache", "repos"),
    env: options.env,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const mirror = await prepareMirror(source, cache);
  await checkoutCommit(path, mirror, source.commit, cache);
  await privateRepo(options.gitDir, mirror, cache);
  const setup = spec.repo.setup ?? [];
  if (setup.length > 0) {
    const sandbox = options.sandbox && { ...options.sandbox, mirror };
    await runSetup(path, spec.repo, { ...options, ...(sandbox ? { sandbox } : {}) });
  }
  const baseline = setup.length > 0
    ? await writeBaselineTree(path, options.gitDir, source.commit, cache)
    : source.commit;
  return {
    record: { url: spec.repo.url, commit: source.commit },
    mirror,
    readBefore: (rel, maxBytes) =>
      readFromTree(options.gitDir, baseline, rel, { ...cache, maxBytes }),
  };
}
