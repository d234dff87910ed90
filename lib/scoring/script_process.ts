/**
 * Runs a judge script as a subprocess: payload on stdin, stdout/stderr captured, killed (with
 * its whole process group on POSIX) on timeout or abort.
 *
 * @module
 */
import type { CommandPermit } from "../targets/consent.ts";
import { type SandboxedStart, startArgv } from "../targets/sandbox_start.ts";

/** How a script run ended. */
export interface ScriptRun {
  /** Exit code (`-1` when it could not start). */
  code: number;
  /** The signal that ended it, if any. */
  signal?: string;
  /** Captured stdout (CRLF → LF; at most the last 4 MiB). */
  stdout: string;
  /** Captured stderr (CRLF → LF; at most the last 64 KiB). */
  stderr: string;
  /** True when it was killed because the timeout elapsed. */
  timedOut: boolean;
  /** True when it was killed because the signal aborted. */
  aborted: boolean;
  /** Why it could not be started (e.g. program not found). */
  spawnError?: string;
}

/** Options of {@link runScript}. */
export interface RunScriptOptions {
  /** Working directory. */
  cwd: string;
  /** Text written to stdin (then stdin is closed). */
  stdin: string;
  /** Kill the script after this many milliseconds. */
  timeoutMs: number;
  /** Kill the script when this aborts. */
  signal?: AbortSignal;
  /** Extra environment variables (added to the parent environment unless `clearEnv`). */
  env?: Record<string, string>;
  /** Start from an empty environment: the script sees only `env` (default false). */
  clearEnv?: boolean;
  /**
   * Runs the script inside this open sandbox (`targets/sandbox_launch.ts`, opened for the
   * permit's argv): its argv and environment replace the script's; `stop` is called on a kill.
   */
  sandbox?: SandboxedStart;
}

const STDOUT_CAP = 4 * 1024 * 1024;
const STDERR_CAP = 64 * 1024;

/** The last `max` characters of `text`, prefixed with a note when it was cut. */
export function tail(text: string, max: number): string {
  return text.length <= max ? text : `...(truncated, last ${max} chars)\n${text.slice(-max)}`;
}

/** Reads a stream to the end, keeping at most the last `cap` bytes. */
async function collect(stream: ReadableStream<Uint8Array>, cap: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    while (size - chunks[0].length >= cap) size -= chunks.shift()!.length;
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.length;
  }
  const bytes = all.length > cap ? all.subarray(all.length - cap) : all;
  return new TextDecoder().decode(bytes).replaceAll("\r\n", "\n");
}

/** The run of a script that could not be started (`reason` says why). */
export function spawnFailure(reason: string): ScriptRun {
  return { code: -1, stdout: "", stderr: "", timedOut: false, aborted: false, spawnError: reason };
}

/**
 * Runs the argv of `permit` (no shell; see `targets/consent.ts`: only the run's consent makes a
 * permit, for a need its gate listed) with `stdin`, returning its exit status and output. Never
 * throws: a spawn failure is reported in `spawnError`. On POSIX the script gets its own process group,
 * which is killed on timeout/abort and after the script exits (so stray children cannot keep
 * the pipes open).
 *
 * @example
 * ```ts ignore
 * const run = await runScript(consent.permit(need), { cwd: ".", stdin: "hi", timeoutMs: 5000 });
 * run.stdout; // "hi"
 * ```
 */
export async function runScript(
  permit: CommandPermit,
  options: RunScriptOptions,
): Promise<ScriptRun> {
  const posix = Deno.build.os !== "windows";
  let child: Deno.ChildProcess;
  try {
    const argv = startArgv(options.sandbox, permit.argv);
    const env = options.sandbox?.env ?? options.env;
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: options.cwd,
      ...(env !== undefined ? { env: { ...env } } : {}),
      ...(options.clearEnv ? { clearEnv: true } : {}),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: posix,
    }).spawn();
  } catch (e) {
    return spawnFailure(e instanceof Error ? e.message : String(e));
  }
  const killAll = () => {
    try {
      if (posix) Deno.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    options.sandbox?.stop();
    killAll();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    options.sandbox?.stop();
    killAll();
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort);

  const stdout = collect(child.stdout, STDOUT_CAP);
  const stderr = collect(child.stderr, STDERR_CAP);
  const writer = child.stdin.getWriter();
  const written = writer.write(new TextEncoder().encode(options.stdin))
    .then(() => writer.close())
    .catch(() => {/* the script exited without reading all of stdin */});

  const status = await child.status;
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  if (posix) killAll(); // reap leftovers of the group that could hold the pipes open
  await written;
  return {
    code: status.code,
    ...(status.signal !== null ? { signal: status.signal } : {}),
    stdout: await stdout,
    stderr: await stderr,
    timedOut,
    aborted,
  };
}
