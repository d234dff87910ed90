/**
 * Runs the CLI (or a script) in a subprocess that is killed if it has not finished after a
 * generous limit, so a test of "this must not hang" fails instead of hanging the suite.
 *
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

/** What a bounded subprocess did. */
export interface BoundedRun {
  /** Exit code (meaningless when `killed`). */
  code: number;
  /** Whether the limit was reached and the process was killed. */
  killed: boolean;
  /** Decoded stdout. */
  out: string;
  /** Decoded stderr. */
  err: string;
}

/** Generous limit: only a hang reaches it, never a slow machine. */
export const HANG_LIMIT_MS = 120_000;

/**
 * Runs `deno run -A main.ts ...args` in `cwd`; kills it after `limitMs` (default
 * {@link HANG_LIMIT_MS}).
 */
export function runMainBounded(
  args: string[],
  cwd: string,
  limitMs = HANG_LIMIT_MS,
): Promise<BoundedRun> {
  return runDenoBounded(["run", "-A", join(REPO_ROOT, "main.ts"), ...args], cwd, limitMs);
}

/** Runs `deno ...args` in `cwd`; kills it after `limitMs` (default {@link HANG_LIMIT_MS}). */
export function runDenoBounded(
  args: string[],
  cwd: string,
  limitMs = HANG_LIMIT_MS,
): Promise<BoundedRun> {
  return runBounded(Deno.execPath(), args, cwd, limitMs);
}

async function runBounded(
  command: string,
  args: string[],
  cwd: string,
  limitMs: number,
): Promise<BoundedRun> {
  const child = new Deno.Command(command, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, limitMs);
  try {
    const { code, stdout, stderr } = await child.output();
    const decoder = new TextDecoder();
    return { code, killed, out: decoder.decode(stdout), err: decoder.decode(stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `deno run -A main.ts ...args` in `cwd` with its data memory capped (the shell's
 * `ulimit -d`, in MiB) and killed after `limitMs`: an attack that would block forever or fill
 * memory ends the process (killed, or a non-zero exit from a failed allocation) instead of
 * hanging the suite or the machine.
 */
export function runMainCapped(
  args: string[],
  cwd: string,
  options: { limitMs?: number; memoryMb: number },
): Promise<BoundedRun> {
  const quoted = [Deno.execPath(), "run", "-A", join(REPO_ROOT, "main.ts"), ...args]
    .map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  return runBounded(
    "sh",
    ["-c", `ulimit -d ${options.memoryMb * 1024} && exec ${quoted}`],
    cwd,
    options.limitMs ?? HANG_LIMIT_MS,
  );
}
