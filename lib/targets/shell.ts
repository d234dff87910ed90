/**
 * Runs a shell command line (`sh -c` on POSIX, `cmd /d /s /c` on Windows) with a timeout, an
 * abort signal and bounded output. On POSIX the command runs in its own process group: timeouts and
 * aborts kill the whole group (SIGTERM, then SIGKILL after a grace period), and when the command
 * itself exits whatever is left of its group is killed (SIGKILL), so a background child can neither
 * hold the pipes open (turning an immediate answer into a timeout) nor outlive the run.
 *
 * @module
 */
import { type SandboxedStart, startArgv } from "./sandbox_start.ts";

/** Options of {@link runShell}. */
export interface RunShellOptions {
  /** Working folder (default: inherited). */
  cwd?: string;
  /** Extra environment variables (the process environment is inherited unless `clearEnv`). */
  env?: Readonly<Record<string, string>>;
  /** Start from an empty environment: the command sees only `env` (default false). */
  clearEnv?: boolean;
  /** Kills the command after this many ms (default: no limit). */
  timeoutMs?: number;
  /** Kills the command when aborted. */
  signal?: AbortSignal;
  /** Grace period between SIGTERM and SIGKILL, in ms (default 2000). */
  killGraceMs?: number;
  /**
   * Most bytes of stdout kept (default {@link DEFAULT_MAX_OUTPUT_BYTES}). Past it, `"fail"` (the
   * default) kills the command and sets `stdoutOverflow`; `"tail"` keeps the last bytes.
   */
  maxStdoutBytes?: number;
  /** What passing `maxStdoutBytes` does (default `"fail"`). */
  stdoutOverflow?: "fail" | "tail";
  /** Platform override for tests (default `Deno.build.os`). */
  os?: typeof Deno.build.os;
  /**
   * After the command exits, how long to wait for its pipes to close before closing them from
   * this side, in ms (default 2000). Only a process that left the group can hold them that long.
   */
  drainMs?: number;
  /**
   * Runs the shell inside this open sandbox (`sandbox_launch.ts`, opened for
   * `["sh", "-c", command]`): its argv and environment replace the shell's; its `stop` is called
   * when the command is killed.
   */
  sandbox?: SandboxedStart;
}

/** How a command ended. */
export interface ShellResult {
  /** Exit code (128 + n when killed by signal n on POSIX). */
  code: number;
  /** Standard output (UTF-8), at most `maxStdoutBytes` bytes of it. */
  stdout: string;
  /** The last {@link STDERR_TAIL_BYTES} bytes of standard error (UTF-8). */
  stderr: string;
  /** Killed because stdout passed `maxStdoutBytes` (with `stdoutOverflow: "fail"`). */
  stdoutOverflow: boolean;
  /** Killed because `timeoutMs` passed. */
  timedOut: boolean;
  /** Killed because `signal` aborted. */
  aborted: boolean;
  /** Wall time in ms. */
  durationMs: number;
}

/**
 * Runs `command` through the platform shell and collects its output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runShell } from "./shell.ts";
 * const r = await runShell("echo hi", { timeoutMs: 5000 });
 * assert.equal(r.stdout, "hi\n");
 * ```
 */
export async function runShell(
  command: string,
  options: RunShellOptions = {},
): Promise<ShellResult> {
  const windows = (options.os ?? Deno.build.os) === "windows";
  const started = performance.now();
  const [program, ...args] = startArgv(
    options.sandbox,
    windows ? ["cmd", "/d", "/s", "/c", command] : ["sh", "-c", command],
  );
  const env = options.sandbox?.env ?? options.env;
  const child = new Deno.Command(program, {
    args,
    ...(windows ? { windowsRawArguments: true } : { detached: true }),
    cwd: options.cwd,
    env: env ? { ...env } : undefined,
    ...(options.clearEnv ? { clearEnv: true } : {}),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (!windows) liveGroups.add(child.pid);
  const stdoutLimit = options.maxStdoutBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const failOnOverflow = (options.stdoutOverflow ?? "fail") === "fail";
  let timedOut = false;
  let aborted = false;
  let overflowed = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
    options.sandbox?.stop();
    signalTree(child, "SIGTERM", windows);
    killTimer ??= setTimeout(
      () => signalTree(child, "SIGKILL", windows),
      options.killGraceMs ?? 2000,
    );
  };
  const onAbort = () => {
    aborted = true;
    kill();
  };
  const timer = options.timeoutMs !== undefined
    ? setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs)
    : undefined;
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const stdout = pump(child.stdout, new ByteSink(stdoutLimit, !failOnOverflow), () => {
    if (!failOnOverflow || overflowed) return;
    overflowed = true;
    options.sandbox?.stop();
    signalTree(child, "SIGKILL", windows);
  });
  const stderr = pump(child.stderr, new ByteSink(STDERR_TAIL_BYTES, true), () => {});
  try {
    // The answer is taken when the command itself exits, not when every holder of its pipes has
    // closed them: what is left of its group is killed, then the pipes are drained.
    const status = await child.status;
    clearTimeout(timer);
    if (!windows) {
      signalTree(child, "SIGKILL", windows);
      liveGroups.delete(child.pid);
    }
    await drain([stdout, stderr], options.drainMs ?? 2000);
    return {
      code: status.code,
      stdout: stdout.sink.text(),
      stderr: stderr.sink.text(),
      timedOut,
      aborted,
      stdoutOverflow: overflowed,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(killTimer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Process groups of commands still running. agentv may exit before a command it interrupted has
 * ended (Ctrl-C exits once the run is recorded, without waiting for the SIGKILL grace period):
 * every group still here is killed when the process exits, so no command outlives the run.
 */
const liveGroups = new Set<number>();

/**
 * Registers (or with `false` forgets) the process group of a detached child started elsewhere
 * (agent CLIs, `agent_cli.ts`), so it is killed when agentv exits like the shell commands here.
 */
export function trackProcessGroup(pid: number, live = true): void {
  if (Deno.build.os === "windows") return;
  if (live) liveGroups.add(pid);
  else liveGroups.delete(pid);
}
globalThis.addEventListener?.("unload", () => {
  for (const pid of liveGroups) {
    try {
      Deno.kill(-pid, "SIGKILL");
    } catch { /* already gone */ }
  }
});

/** Default of `maxStdoutBytes` and of a `cli` target's `max_output_bytes`: 16 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** How much of stderr (the end of it) is kept for messages: 64 KiB. */
export const STDERR_TAIL_BYTES = 64 * 1024;

/** Bytes read from a pipe, bounded: the first `limit` bytes, or (with `keepTail`) the last. */
class ByteSink {
  #chunks: Uint8Array[] = [];
  #size = 0;
  constructor(readonly limit: number, readonly keepTail: boolean) {}

  /** Adds a chunk; false when it did not fit (the excess is dropped). */
  push(chunk: Uint8Array): boolean {
    if (this.keepTail) {
      this.#chunks.push(chunk);
      this.#size += chunk.length;
      while (this.#chunks.length > 1 && this.#size - this.#chunks[0].length >= this.limit) {
        this.#size -= this.#chunks.shift()!.length;
      }
      return this.#size <= this.limit;
    }
    const room = this.limit - this.#size;
    if (room > 0) {
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.#chunks.push(kept);
      this.#size += kept.length;
    }
    return chunk.length <= room;
  }

  /** The kept bytes as UTF-8 text. */
  text(): string {
    const all = new Uint8Array(this.#size);
    let offset = 0;
    for (const c of this.#chunks) {
      all.set(c, offset);
      offset += c.length;
    }
    const bytes = all.length > this.limit ? all.subarray(all.length - this.limit) : all;
    return new TextDecoder().decode(bytes);
  }
}

interface Pump {
  sink: ByteSink;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  done: Promise<void>;
}

/** Reads `stream` into `sink` until it ends or is cancelled; `onOverflow` when a chunk does not fit. */
function pump(stream: ReadableStream<Uint8Array>, sink: ByteSink, onOverflow: () => void): Pump {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        if (!sink.push(value)) onOverflow();
      }
    } catch {
      // cancelled, or the pipe broke: keep what was read
    } finally {
      reader.releaseLock();
    }
  })();
  return { sink, reader, done };
}

/**
 * Waits until every pipe is at its end; a pipe still open after `ms` (held by a process that left
 * the group, or any process on Windows) is closed from this side.
 */
export async function drain(
  pumps: readonly { reader: { cancel(): Promise<void> }; done: Promise<unknown> }[],
  ms: number,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const all = Promise.all(pumps.map((p) => p.done));
  const expired = new Promise<"expired">((resolve) => timer = setTimeout(resolve, ms, "expired"));
  try {
    if (await Promise.race([all, expired]) === "expired") {
      await Promise.all(pumps.map((p) => p.reader.cancel().catch(() => {})));
      await all;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `signal` to the child's whole process group (POSIX), or to the child (Windows). */
export function signalTree(
  child: Deno.ChildProcess,
  signal: Deno.Signal,
  windows: boolean = Deno.build.os === "windows",
): void {
  try {
    if (windows) child.kill(signal);
    else Deno.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch { /* already gone */ }
  }
}

/**
 * Quotes `value` as one shell word: POSIX single quotes (`'` becomes `'"'"'`, empty is `''`);
 * on Windows `cmd` double quotes with `"` doubled.
 */
export function quoteShellArg(value: string, os: typeof Deno.build.os = Deno.build.os): string {
  if (os === "windows") return `"${value.replace(/"/g, '""')}"`;
  return `'${value.replace(/'/g, `'"'"'`)}'`;
}

/** The last `maxChars` characters of `text`, trimmed, prefixed with `…` when cut. */
export function tail(text: string, maxChars = 2000): string {
  const trimmed = text.trim();
  return trimmed.length > maxChars ? `…${trimmed.slice(-maxChars)}` : trimmed;
}
