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
}

/** Creates a buffer IO; `cwd` defaults to the repository root. */
export function createBufferIO(
  options: { cwd?: string; color?: boolean; isTTY?: boolean; env?: Record<string, string> } = {},
): BufferIO {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const controller = new AbortController();
  const env = options.env ?? {};
  return {
    stdout: (text) => void stdout.push(text),
    stderr: (text) => void stderr.push(text),
    isTTY: options.isTTY ?? false,
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
