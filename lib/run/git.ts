/**
 * agentv's own `git` (not a dataset's command): it clones and fetches a case's repository into a
 * cache, checks commits out into workspaces and reads the files a diff compares with. Every call
 * runs the `git` on the run environment's `PATH`, with a scrubbed environment, no prompts, no
 * hooks, no fsmonitor and no command-running transports (`ext::`, `fd::`), and is killed past its
 * time limit or when the run is interrupted.
 *
 * @module
 */

/** Environment names git gets from the run's environment (for remote fetches and its config). */
const GIT_ENV_NAMES = [
  "PATH",
  "HOME",
  "USERPROFILE",
  "SYSTEMROOT",
  "TMPDIR",
  "LANG",
  "XDG_CONFIG_HOME",
  "SSH_AUTH_SOCK",
  "GIT_SSH_COMMAND",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
];

/** Settings every git call runs with (before its own arguments). */
const GIT_SETTINGS = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  // Only transports that fetch: never `ext::` or `fd::`, which run commands.
  "-c",
  "protocol.allow=never",
  ...["https", "http", "ssh", "git", "file"].flatMap((p) => ["-c", `protocol.${p}.allow=always`]),
  "-c",
  "advice.detachedHead=false",
  "-c",
  "init.defaultBranch=main",
];

/** How a git call ended. */
export interface GitRun {
  /** Exit code (`-1` when git could not start). */
  code: number;
  /** Standard output (cut at `maxOutputBytes`). */
  stdout: Uint8Array;
  /** Standard error, decoded (the last 4 KiB). */
  stderr: string;
  /** Whether stdout was cut at `maxOutputBytes`. */
  cut: boolean;
}

/** Options of {@link runGit}. */
export interface RunGitOptions {
  /** The run's environment (git gets PATH, HOME, proxies and SSH settings from it). */
  env: Readonly<Record<string, string>>;
  /** Working folder. */
  cwd?: string;
  /** Extra environment (e.g. `GIT_INDEX_FILE`). */
  extraEnv?: Record<string, string>;
  /** Kill git after this many ms (default 120 s). */
  timeoutMs?: number;
  /** Kill git when this aborts. */
  signal?: AbortSignal;
  /** Keep at most this many bytes of stdout, then stop git (default 1 MiB). */
  maxOutputBytes?: number;
}

/** The environment git runs with. */
function gitEnv(options: RunGitOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of GIT_ENV_NAMES) {
    const value = options.env[name];
    if (value !== undefined) out[name] = value;
  }
  return { ...out, GIT_TERMINAL_PROMPT: "0", ...options.extraEnv };
}

/** Reads a stream, keeping at most `cap` bytes; reports whether more came. */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of stream) {
    if (cut) continue;
    const room = cap - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = cap;
      cut = true;
      continue;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  return { bytes, cut };
}

/**
 * Runs `git <args>` (after agentv's fixed settings). Never throws: a git that cannot start is
 * code `-1` with the reason in `stderr`.
 *
 * @example
 * ```ts ignore
 * const run = await runGit(["rev-parse", "HEAD"], { env: { PATH: "/usr/bin" }, cwd: "/repo" });
 * new TextDecoder().decode(run.stdout).trim(); // the commit
 * ```
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<GitRun> {
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 120_000)];
  if (options.signal !== undefined) signals.push(options.signal);
  const signal = AbortSignal.any(signals);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args: [...GIT_SETTINGS, ...args],
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      env: gitEnv(options),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal,
    }).spawn();
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { code: -1, stdout: new Uint8Array(), stderr: reason, cut: false };
  }
  const cap = options.maxOutputBytes ?? 1024 * 1024;
  const [out, err, status] = await Promise.all([
    readCapped(child.stdout, cap),
    readCapped(child.stderr, 64 * 1024),
    child.status,
  ]);
  const stderr = new TextDecoder().decode(err.bytes).trim();
  const why = signal.aborted
    ? (options.signal?.aborted ? "interrupted" : `git timed out and was killed`)
    : "";
  return {
    code: status.code,
    stdout: out.bytes,
    stderr: why === "" ? stderr.slice(-4096) : `${why}${stderr === "" ? "" : `: ${stderr}`}`,
    cut: out.cut,
  };
}

/** Git's stdout as trimmed text. */
export function gitText(run: GitRun): string {
  return new TextDecoder().decode(run.stdout).trim();
}
