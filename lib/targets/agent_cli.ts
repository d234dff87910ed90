/**
 * Runs an agent CLI (`claude`, `codex`) for one case: spawns it in its own process group with a
 * scrubbed environment, writes the prompt to stdin when asked, and streams stdout line by line to
 * a parser as it arrives (the whole output is never buffered). Every stdout line is also appended,
 * redacted, to the case's log (`.agentv/logs/<run>/<case>.jsonl`); lines that are not JSON, and
 * stderr lines, are logged wrapped as `{"type":"agentv.non_json"|"agentv.stderr","text":…}` so
 * the log stays JSONL. A timeout or an abort kills the whole process group (SIGTERM, then SIGKILL
 * after a grace period); when the agent exits, whatever is left of its group (a background
 * command a tool started) is killed too. Agents run their tools in sessions of their own (Claude
 * Code's Bash tool calls `setsid`), out of reach of a group kill, so on Linux and macOS every
 * process that carries the run's marker variable (`AGENTV_AGENT_RUN`, inherited by everything
 * the agent starts) is killed as well (found with `ps`): when the agent ends, and when agentv
 * exits.
 *
 * @module
 */
import { dirname } from "node:path";
import { drain, signalTree, STDERR_TAIL_BYTES, trackProcessGroup } from "./shell.ts";
import { type SandboxedStart, startArgv } from "./sandbox_start.ts";

/** Default cap on an agent's stdout: 64 MiB (past it the agent is killed). */
export const DEFAULT_AGENT_OUTPUT_BYTES = 64 * 1024 * 1024;

/** How to run one agent CLI invocation. */
export interface AgentRunSpec {
  /** Executable (a name looked up on `env.PATH`, or a path). */
  command: string;
  /** Arguments. */
  args: string[];
  /** Working folder (the case's workspace). */
  cwd: string;
  /** The complete environment of the agent, already scrubbed (see `child_env.ts`). */
  env: Record<string, string>;
  /** Written to stdin, which is then closed (codex reads the prompt there); else stdin is null. */
  stdin?: string;
  /** Kills the process group after this many ms. */
  timeoutMs: number;
  /** Kills the process group when aborted. */
  signal: AbortSignal;
  /** Appends the raw stream here (redacted), one line per stdout line; parent folders are made. */
  logPath?: string;
  /** Redacts secrets from text written to the log and kept from stderr. */
  redact(text: string): string;
  /** Cap on stdout bytes (default {@link DEFAULT_AGENT_OUTPUT_BYTES}); past it the agent is killed. */
  maxOutputBytes?: number;
  /** Grace period between SIGTERM and SIGKILL, in ms (default 2000). */
  killGraceMs?: number;
  /**
   * Starts it inside this open sandbox (`sandbox_launch.ts`): its argv (ending with `command`
   * and `args`) and environment; its `stop` is called when the agent is killed.
   */
  sandbox?: SandboxedStart;
}

/** How an agent run ended. */
export interface AgentRunResult {
  /** Exit code; `null` when a signal ended it. */
  exitCode: number | null;
  /** The last 64 KiB of stderr, redacted. */
  stderr: string;
  /** Killed because `timeoutMs` passed. */
  timedOut: boolean;
  /** Killed because `signal` aborted. */
  aborted: boolean;
  /** Killed because stdout passed `maxOutputBytes`. */
  outputOverflow?: boolean;
  /** Wall time in ms. */
  durationMs?: number;
}

/**
 * Runs an agent CLI and streams its stdout, line by line, into `onLine` as it arrives. Kills the
 * process group on timeout or abort. Throws only when the executable cannot be started
 * (`Deno.errors.NotFound` when it does not exist).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runAgentCli } from "./agent_cli.ts";
 *
 * const lines: string[] = [];
 * const result = await runAgentCli({
 *   command: "sh", args: ["-c", "echo '{\"type\":\"a\"}'; echo done"], cwd: ".",
 *   env: { PATH: Deno.env.get("PATH") ?? "" }, timeoutMs: 10_000,
 *   signal: new AbortController().signal, redact: (t) => t,
 * }, (line) => lines.push(line));
 * assert.equal(result.exitCode, 0);
 * assert.deepEqual(lines, ['{"type":"a"}', "done"]);
 * ```
 */
export async function runAgentCli(
  spec: AgentRunSpec,
  onLine: (line: string) => void,
): Promise<AgentRunResult> {
  const windows = Deno.build.os === "windows";
  const started = performance.now();
  const log = spec.logPath !== undefined ? await openLog(spec.logPath) : undefined;
  const marker = crypto.randomUUID();
  let child: Deno.ChildProcess;
  try {
    const [program, ...args] = startArgv(spec.sandbox, [spec.command, ...spec.args]);
    child = new Deno.Command(program, {
      args,
      cwd: spec.cwd,
      env: { ...(spec.sandbox?.env ?? spec.env), [MARKER_VARIABLE]: marker },
      clearEnv: true,
      ...(windows ? {} : { detached: true }),
      stdin: spec.stdin !== undefined ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    await log?.close();
    throw error;
  }
  trackProcessGroup(child.pid);
  liveMarkers.add(marker);
  let timedOut = false;
  let aborted = false;
  let overflowed = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
    spec.sandbox?.stop();
    signalTree(child, "SIGTERM", windows);
    killTimer ??= setTimeout(() => signalTree(child, "SIGKILL", windows), spec.killGraceMs ?? 2000);
  };
  const onAbort = () => {
    aborted = true;
    kill();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, spec.timeoutMs);
  if (spec.signal.aborted) onAbort();
  else spec.signal.addEventListener("abort", onAbort, { once: true });

  const limit = spec.maxOutputBytes ?? DEFAULT_AGENT_OUTPUT_BYTES;
  let stdoutBytes = 0;
  const stdout = readLines(child.stdout, (line) => {
    log?.write(
      isJsonLine(line) ? spec.redact(line) : wrapped("agentv.non_json", spec.redact(line)),
    );
    onLine(line);
  }, (n) => {
    stdoutBytes += n;
    if (stdoutBytes > limit && !overflowed) {
      overflowed = true;
      spec.sandbox?.stop();
      signalTree(child, "SIGKILL", windows);
    }
    return !overflowed;
  });
  const stderrTail: string[] = [];
  let stderrSize = 0;
  const stderr = readLines(child.stderr, (line) => {
    log?.write(wrapped("agentv.stderr", spec.redact(line)));
    stderrTail.push(line);
    stderrSize += line.length + 1;
    while (stderrTail.length > 1 && stderrSize > STDERR_TAIL_BYTES) {
      stderrSize -= stderrTail.shift()!.length + 1;
    }
  }, () => true);
  const fed = spec.stdin !== undefined ? writeStdin(child, spec.stdin) : Promise.resolve();
  try {
    const status = await child.status;
    clearTimeout(timer);
    if (!windows) signalTree(child, "SIGKILL", windows);
    trackProcessGroup(child.pid, false);
    await killMarked(new Set([marker]));
    liveMarkers.delete(marker);
    await Promise.all([fed, drain([stdout, stderr], 2000)]);
    return {
      exitCode: status.signal !== null ? null : status.code,
      stderr: spec.redact(stderrTail.join("\n")),
      timedOut,
      aborted,
      outputOverflow: overflowed,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(killTimer);
    spec.signal.removeEventListener("abort", onAbort);
    await log?.close();
  }
}

/** The variable that marks every process of one agent run (value: a random id per run). */
export const MARKER_VARIABLE = "AGENTV_AGENT_RUN";

/** Markers of agent runs still going: their processes are killed if agentv exits first. */
const liveMarkers = new Set<string>();
globalThis.addEventListener?.("unload", () => killMarkedSync(liveMarkers));

/**
 * `ps` arguments that list every process with its environment after its command line, one per
 * line (`pid command VAR=value …`); undefined where agentv does not sweep (Windows).
 */
function psArgs(): string[] | undefined {
  switch (Deno.build.os) {
    case "linux":
      return ["-e", "e", "-ww", "-o", "pid=,args="];
    case "darwin":
    case "freebsd":
      return ["-a", "-x", "-e", "-ww", "-o", "pid=,command="];
    default:
      return undefined;
  }
}

/** Pids of the processes in a `ps` listing ({@link psArgs}) that carry one of `markers`. */
export function markedPids(listing: string, markers: ReadonlySet<string>): number[] {
  const needles = [...markers].map((m) => `${MARKER_VARIABLE}=${m}`);
  const pids: number[] = [];
  for (const line of listing.split("\n")) {
    if (!needles.some((n) => line.includes(n))) continue;
    const pid = Number.parseInt(line.trim(), 10);
    if (Number.isInteger(pid) && pid > 1 && pid !== Deno.pid) pids.push(pid);
  }
  return pids;
}

function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* already gone */ }
  }
}

/**
 * Kills (SIGKILL) every process whose environment carries one of `markers`, found with `ps`
 * (reading `/proc/<pid>/environ` would need more than `--allow-run`). Nothing happens on Windows
 * or when `ps` cannot run.
 */
async function killMarked(markers: ReadonlySet<string>): Promise<void> {
  const args = psArgs();
  if (args === undefined || markers.size === 0) return;
  try {
    const out = await new Deno.Command("ps", { args, stdout: "piped", stderr: "null" }).output();
    killPids(markedPids(new TextDecoder().decode(out.stdout), markers));
  } catch { /* no ps: only the process group was killed */ }
}

/** {@link killMarked} for the `unload` handler, which cannot wait. */
function killMarkedSync(markers: ReadonlySet<string>): void {
  const args = psArgs();
  if (args === undefined || markers.size === 0) return;
  try {
    const out = new Deno.Command("ps", { args, stdout: "piped", stderr: "null" }).outputSync();
    killPids(markedPids(new TextDecoder().decode(out.stdout), markers));
  } catch { /* no ps */ }
}

function isJsonLine(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

function wrapped(type: string, text: string): string {
  return JSON.stringify({ type, text });
}

interface LineReader {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  done: Promise<void>;
}

/**
 * Reads `stream`, calling `onLine` for each complete line (trailing `\r` removed) and for a last
 * unterminated line. `onBytes` sees every chunk's size first; when it returns false, reading stops.
 */
function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
  onBytes: (n: number) => boolean,
): LineReader {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const done = (async () => {
    let pending = "";
    const emit = (line: string) => {
      try {
        onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
      } catch { /* a parser bug must not stop the stream */ }
    };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!onBytes(value.length)) break;
        pending += decoder.decode(value, { stream: true });
        let nl = pending.indexOf("\n");
        while (nl >= 0) {
          emit(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
          nl = pending.indexOf("\n");
        }
      }
      pending += decoder.decode();
    } catch {
      // cancelled, or the pipe broke: keep what was read
    } finally {
      if (pending !== "") emit(pending);
      reader.releaseLock();
    }
  })();
  return { reader, done };
}

async function writeStdin(child: Deno.ChildProcess, text: string): Promise<void> {
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // the agent exited without reading all of it
    await writer.abort().catch(() => {});
  }
}

interface LogFile {
  write(line: string): void;
  close(): Promise<void>;
}

/** Opens `path` for appending; writes are queued in order; a failing write disables the log. */
async function openLog(path: string): Promise<LogFile> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const file = await Deno.open(path, { create: true, append: true });
  const encoder = new TextEncoder();
  let queue = Promise.resolve();
  let failed = false;
  return {
    write(line: string) {
      if (failed) return;
      const bytes = encoder.encode(`${line}\n`);
      queue = queue.then(async () => {
        if (failed) return;
        try {
          let offset = 0;
          while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
        } catch {
          failed = true;
        }
      });
    },
    async close() {
      await queue;
      file.close();
    },
  };
}
