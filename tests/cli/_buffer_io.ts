/**
 * A {@link CommandIO} that records output in memory, for whole-CLI tests, plus output
 * normalisation (absolute paths, ANSI codes, CRLF).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { CommandIO } from "../../lib/cli/command.ts";

/** The repository root (resolved from this file, never the cwd). */
export const REPO_ROOT: string = fileURLToPath(new URL("../../", import.meta.url)).replace(
  /\/$/,
  "",
);

/** A buffer IO and what was written to it. */
export interface BufferIO extends CommandIO {
  /** Everything written to stdout. */
  out(): string;
  /** Everything written to stderr. */
  err(): string;
  /** Aborts `signal`, as a first Ctrl-C would. */
  interrupt(): void;
  /**
   * Resolves once stdout plus stderr (written so far or later) matches `pattern`: tests wait on
   * a marker line instead of a timer.
   */
  waitFor(pattern: RegExp): Promise<void>;
}

/** Options of {@link createBufferIO}. */
export interface BufferIOOptions {
  /** Working directory (default: the repository root). */
  cwd?: string;
  /** Whether colours are allowed (default false). */
  color?: boolean;
  /** Whether stdout is a terminal (default false). */
  isTTY?: boolean;
  /** Whether stderr is a terminal (default false). */
  stderrIsTTY?: boolean;
  /** The environment (default empty). */
  env?: Record<string, string>;
  /** The clock: a fixed time in ms, or a function such as {@link steppingClock} (default `Date.now`). */
  now?: number | (() => number);
}

/** A clock that starts at `start` ms and advances `stepMs` on every reading. */
export function steppingClock(start: number, stepMs: number): () => number {
  let next = start;
  return () => {
    const value = next;
    next += stepMs;
    return value;
  };
}

/** Creates a buffer IO; `cwd` defaults to the repository root. */
export function createBufferIO(options: BufferIOOptions = {}): BufferIO {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const controller = new AbortController();
  const env = options.env ?? {};
  const clock = options.now;
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const all = () => stdout.join("") + stderr.join("");
  const check = () => {
    if (waiters.length === 0) return;
    const text = all();
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  return {
    stdout: (text) => {
      stdout.push(text);
      check();
    },
    stderr: (text) => {
      stderr.push(text);
      check();
    },
    now: typeof clock === "number" ? () => clock : clock ?? Date.now,
    waitFor: (pattern) =>
      new Promise<void>((resolve) => {
        waiters.push({ pattern, resolve });
        check();
      }),
    isTTY: options.isTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    color: options.color ?? false,
    env: (name) => env[name],
    envAll: () => ({ ...env }),
    cwd: options.cwd ?? REPO_ROOT,
    signal: controller.signal,
    out: () => stdout.join(""),
    err: () => stderr.join(""),
    interrupt: () => controller.abort(new DOMException("Interrupted", "AbortError")),
  };
}

/** Output with ANSI codes removed, CRLF as LF and `dir` replaced by `<dir>`. */
export function normalize(text: string, dirs: Record<string, string> = {}): string {
  // deno-lint-ignore no-control-regex
  let out = text.replace(/\x1b\[[0-9;]*m/g, "").replaceAll("\r\n", "\n");
  for (const [name, dir] of Object.entries(dirs)) out = out.replaceAll(dir, `<${name}>`);
  return out;
}
