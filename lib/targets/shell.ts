/**
 * Runs a shell command line (`sh -c` on POSIX, `cmd /d /s /c` on Windows) with a timeout and an
 * abort signal. On POSIX the command runs in its own process group, and timeouts and aborts kill
 * the whole group (SIGTERM, then SIGKILL after a grace period), so no grandchild keeps a pipe open.
 *
 * @module
 */

/** Options of {@link runShell}. */
export interface RunShellOptions {
  /** Working folder (default: inherited). */
  cwd?: string;
  /** Extra environment variables (the process environment is inherited). */
  env?: Readonly<Record<string, string>>;
  /** Kills the command after this many ms (default: no limit). */
  timeoutMs?: number;
  /** Kills the command when aborted. */
  signal?: AbortSignal;
  /** Grace period between SIGTERM and SIGKILL, in ms (default 2000). */
  killGraceMs?: number;
  /** Platform override for tests (default `Deno.build.os`). */
  os?: typeof Deno.build.os;
}

/** How a command ended. */
export interface ShellResult {
  /** Exit code (128 + n when killed by signal n on POSIX). */
  code: number;
  /** Whole standard output (UTF-8). */
  stdout: string;
  /** Whole standard error (UTF-8). */
  stderr: string;
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
 * import { runShell } from "./shell.ts";
 * const r = await runShell("echo hi", { timeoutMs: 5000 });
 * r.stdout; // "hi\n"
 * ```
 */
export async function runShell(
  command: string,
  options: RunShellOptions = {},
): Promise<ShellResult> {
  const windows = (options.os ?? Deno.build.os) === "windows";
  const started = performance.now();
  const child = new Deno.Command(windows ? "cmd" : "sh", {
    args: windows ? ["/d", "/s", "/c", command] : ["-c", command],
    ...(windows ? { windowsRawArguments: true } : { detached: true }),
    cwd: options.cwd,
    env: options.env ? { ...options.env } : undefined,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  let aborted = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
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
  try {
    const output = await child.output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      timedOut,
      aborted,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(killTimer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

function signalTree(child: Deno.ChildProcess, signal: Deno.Signal, windows: boolean): void {
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
