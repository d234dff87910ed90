/**
 * Starting and talking to judge hosts (`module_judge_host.ts`) from agentv's side, and the
 * run's pool of them.
 *
 * A host is a subprocess whose memory is bounded: V8's old space is capped at the judge's
 * `max_memory_mb` (`--v8-flags=--max-old-space-size`), and on Linux its data segment
 * (`ulimit -d`) at that plus {@link DATA_HEADROOM_MB}, which bounds what V8's flag does not
 * (array buffers) and is the only bound in a compiled agentv (whose runtime ignores V8 flags
 * from outside). It may read the dataset root and the case's workspace, less the denied paths
 * (`--allow-read`, `--deny-read`), and nothing else; it cannot fetch (`--no-remote --no-npm`).
 *
 * A host serves one call at a time and is reused for the next call of the same judge file with
 * the same limits (a pool per run, {@link JudgeHostPool}); one that crashed, timed out or was
 * interrupted is killed and never reused. Measured on this project's 2-core machine: a fresh
 * subprocess per call costs ~36 ms, a call in a reused host ~10 ms (a fresh Worker), the same as
 * the in-process Worker it replaces.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { ownModuleRun } from "../fs/own_module_run.ts";
import { stripAnsi } from "../text/strip_ansi.ts";
import { JUDGE_HOST_ARG, type JudgeHostRequest } from "./module_judge_host.ts";
import type { ModuleJudgeResponse } from "./module_judge_worker.ts";

/** Default memory limit of a module judge, in MB (`max_memory_mb`). */
export const DEFAULT_MAX_MEMORY_MB = 512;
/**
 * What a host needs of its data segment before the judge allocates anything: measured at
 * ~1,090 MB (V8 reserves ~536 MB per isolate), plus the stacks of the threads Deno starts on
 * demand (more on a loaded machine: with 1,536 MB a busy test run once saw "unable to create
 * worker threads" at start-up), with margin.
 */
export const DATA_HEADROOM_MB = 3072;

const REPLY_CAP = 8 * 1024 * 1024;
const STDERR_CAP = 64 * 1024;

/** How a judge call in a host ended. */
export type JudgeHostRun =
  | { ok: true; value: unknown; logs: string }
  | { ok: false; error: string; logs: string; timedOut?: boolean; aborted?: boolean };

/** What a host is started with. */
export interface JudgeHostSpec {
  /** Memory limit in MB. */
  maxMemoryMb: number;
  /** Paths the host process may read (the root, the workspace). */
  read: string[];
  /** Paths it may not read. */
  deny: string[];
  /**
   * The run's environment: the host gets `PATH`, and `DENO_DIR` and `NPM_CONFIG_REGISTRY`
   * (where Deno caches and would fetch), nothing else.
   */
  env?: Readonly<Record<string, string>>;
}

/** Deno's permission lists are comma-separated; a comma in a path is written twice. */
const list = (paths: readonly string[]) => paths.map((p) => p.replaceAll(",", ",,")).join(",");

/** The command that starts a host: `deno run …` from source, the agentv binary when compiled. */
export function judgeHostCommand(spec: JudgeHostSpec): { program: string; args: string[] } {
  const here = new URL("./module_judge_host.ts", import.meta.url);
  let args: string[];
  if (Deno.build.standalone) args = [JUDGE_HOST_ARG];
  else {
    const own = here.protocol === "file:"
      ? ["module_judge_host.ts", "module_judge_worker.ts", "result_bounds.ts"]
        .map((name) => fileURLToPath(new URL(`./${name}`, here)))
      : [];
    args = [
      // agentv itself loaded from JSR loads its host and worker from there too; the judge's
      // own remote imports are still refused (its worker has `import: false`).
      ...ownModuleRun(here),
      "--unstable-worker-options",
      `--v8-flags=--max-old-space-size=${spec.maxMemoryMb}`,
      `--allow-read=${list([...spec.read, ...own])}`,
      ...(spec.deny.length > 0 ? [`--deny-read=${list(spec.deny)}`] : []),
      here.href,
    ];
  }
  if (Deno.build.os !== "linux") return { program: Deno.execPath(), args };
  // `ulimit -d` in KB, then the host replaces the shell.
  const kb = (spec.maxMemoryMb + DATA_HEADROOM_MB) * 1024;
  return {
    program: "/bin/sh",
    args: ["-c", `ulimit -d ${kb} && exec "$0" "$@"`, Deno.execPath(), ...args],
  };
}

/** Reads `stream` to the end, keeping the last `cap` characters. */
async function keepTail(stream: ReadableStream<Uint8Array>, cap: number): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    text = (text + chunk).slice(-cap);
  }
  return text;
}

/** One running host. */
export class JudgeHost {
  readonly #child: Deno.ChildProcess;
  readonly #token = crypto.randomUUID();
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #replies: AsyncGenerator<string>;
  readonly #stderr: Promise<string>;
  readonly #status: Promise<Deno.CommandStatus>;
  readonly spec: JudgeHostSpec;
  #dead = false;

  constructor(spec: JudgeHostSpec) {
    this.spec = spec;
    const { program, args } = judgeHostCommand(spec);
    // A PATH of its own: Deno looks a program up before it checks (and refuses) the run.
    const env: Record<string, string> = {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      PATH: spec.env?.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    };
    for (const name of ["DENO_DIR", "NPM_CONFIG_REGISTRY"]) {
      const value = spec.env?.[name];
      if (value !== undefined) env[name] = value;
    }
    this.#child = new Deno.Command(program, {
      args,
      clearEnv: true,
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      // Its own process group: a Ctrl-C in the terminal reaches agentv, which stops it.
      detached: true,
    }).spawn();
    this.#status = this.#child.status;
    this.#stderr = keepTail(this.#child.stderr, STDERR_CAP);
    this.#replies = this.#lines();
    this.#writer = this.#child.stdin.getWriter();
    this.#writer.write(new TextEncoder().encode(`${this.#token}\n`)).catch(() => {});
  }

  /** Lines of stdout that carry the token (the host's replies); others are dropped. */
  async *#lines(): AsyncGenerator<string> {
    let buffer = "";
    const prefix = `${this.#token} `;
    for await (const chunk of this.#child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line.startsWith(prefix)) yield line.slice(prefix.length);
      }
      if (buffer.length > REPLY_CAP) {
        this.kill();
        buffer = "";
      }
    }
  }

  /** Whether the host can take another call. */
  get usable(): boolean {
    return !this.#dead;
  }

  /** Runs one call; never throws. The host is killed on timeout, abort or a broken reply. */
  async call(
    request: JudgeHostRequest,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<JudgeHostRun> {
    if (options.signal?.aborted) {
      return { ok: false, error: "interrupted", logs: "", aborted: true };
    }
    const ended = Promise.withResolvers<JudgeHostRun>();
    const timer = setTimeout(() => {
      ended.resolve({
        ok: false,
        error: `Code judge timed out after ${options.timeoutMs}ms and was stopped`,
        logs: "",
        timedOut: true,
      });
    }, options.timeoutMs);
    const onAbort = () =>
      ended.resolve({ ok: false, error: "interrupted", logs: "", aborted: true });
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const reply = this.#send(request);
    try {
      const run = await Promise.race([reply, ended.promise]);
      if (!run.ok && (run.timedOut || run.aborted)) this.kill();
      return run;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  async #send(request: JudgeHostRequest): Promise<JudgeHostRun> {
    try {
      await this.#writer.write(new TextEncoder().encode(JSON.stringify(request) + "\n"));
      const next = await this.#replies.next();
      if (!next.done) return JSON.parse(next.value) as ModuleJudgeResponse;
    } catch { /* the host is gone: say why below */ }
    this.kill();
    return { ok: false, error: await this.#crash(), logs: "" };
  }

  /** Why the host ended, from its status and the tail of its stderr. */
  async #crash(): Promise<string> {
    const status = await this.#status;
    const stderr = stripAnsi(await this.#stderr).trim();
    if (/out of memory|allocation failed/i.test(stderr) || status.signal === "SIGTRAP") {
      return `module judge ran out of memory (limit ${this.spec.maxMemoryMb} MB) and was ` +
        "stopped; raise max_memory_mb if it needs more";
    }
    const how = status.signal
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    const tail = stderr === "" ? "" : `: ${stderr.slice(-2000)}`;
    return `the module judge's host process ${how}${tail}`;
  }

  /** Stops the host at once (SIGKILL); safe to call twice. */
  kill(): void {
    if (this.#dead) return;
    this.#dead = true;
    try {
      this.#child.kill("SIGKILL");
    } catch { /* already gone */ }
  }

  /** Stops the host and waits until it and its pipes are closed. */
  async close(): Promise<void> {
    this.kill();
    await this.#writer.close().catch(() => {});
    await this.#status;
    await this.#stderr.catch(() => {});
    while (!(await this.#replies.next().catch(() => ({ done: true }))).done) { /* drain */ }
  }
}
