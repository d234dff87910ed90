/**
 * The judge host: the process module judges run in, apart from agentv's, so that a judge that
 * exhausts its memory ends this process, never the run. agentv starts it as
 * `deno run … module_judge_host.ts`, or (a compiled agentv) as itself with the argument
 * {@link JUDGE_HOST_ARG}. It reads a token line, then one request per line on stdin, runs each
 * in a fresh `module_judge_worker.ts` Worker that may read only the request's `read` paths, and
 * writes each reply as one line `<token> <json>` on stdout. It exits when stdin ends.
 *
 * Its whole module graph is relative imports, so it runs with `--no-config`.
 *
 * @module
 */
import type { ModuleJudgeRequest, ModuleJudgeResponse } from "./module_judge_worker.ts";

/** The first argument that makes `main.ts` (a compiled agentv) the judge host. */
export const JUDGE_HOST_ARG = "__agentv_judge_host";

/** One judge call sent to the host. */
export interface JudgeHostRequest extends ModuleJudgeRequest {
  /** What the judge's worker may read (`judge_read_scope.ts`). */
  read: string[];
}

/** Longest request line read (a payload holds the case, the answer and the trace). */
const REQUEST_CAP = 256 * 1024 * 1024;

/** The lines of a byte stream, each at most `cap` bytes (a longer one ends the stream). */
async function* lines(stream: ReadableStream<Uint8Array>, cap: number): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, i));
      const line = new Uint8Array(size + i - start);
      let at = 0;
      for (const part of pending) {
        line.set(part, at);
        at += part.length;
      }
      yield decoder.decode(line);
      pending = [];
      size = 0;
      start = i + 1;
    }
    pending.push(chunk.subarray(start));
    size += chunk.length - start;
    if (size > cap) return;
  }
}

/** Runs one request in a fresh worker; never throws. */
function runInWorker(request: JudgeHostRequest): Promise<ModuleJudgeResponse> {
  const worker = new Worker(new URL("./module_judge_worker.ts", import.meta.url).href, {
    type: "module",
    name: "agentv-module-judge",
    deno: {
      permissions: {
        read: request.read,
        write: false,
        net: false,
        env: false,
        run: false,
        ffi: false,
        sys: false,
        import: false,
      },
    },
  });
  const { promise, resolve } = Promise.withResolvers<ModuleJudgeResponse>();
  worker.onmessage = (event: MessageEvent<ModuleJudgeResponse>) => resolve(event.data);
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    resolve({ ok: false, error: String(event.message).slice(0, 64 * 1024), logs: "" });
  };
  worker.onmessageerror = () => {
    resolve({ ok: false, error: "the judge's reply could not be read", logs: "" });
  };
  const { read: _, ...call } = request;
  worker.postMessage(call);
  return promise.finally(() => worker.terminate());
}

/**
 * Serves judge calls on stdin/stdout until stdin ends; returns the exit code.
 *
 * @example
 * ```ts ignore
 * if (Deno.args[0] === JUDGE_HOST_ARG) Deno.exit(await runJudgeHost());
 * ```
 */
export async function runJudgeHost(): Promise<number> {
  const encoder = new TextEncoder();
  let token: string | undefined;
  for await (const line of lines(Deno.stdin.readable, REQUEST_CAP)) {
    if (token === undefined) {
      token = line.trim();
      continue;
    }
    let reply: ModuleJudgeResponse;
    try {
      reply = await runInWorker(JSON.parse(line) as JudgeHostRequest);
    } catch (error) {
      reply = { ok: false, error: `the judge host could not run it (${error})`, logs: "" };
    }
    let text: string;
    try {
      text = JSON.stringify(reply);
    } catch (error) {
      text = JSON.stringify({ ok: false, error: `the reply cannot be sent (${error})`, logs: "" });
    }
    const bytes = encoder.encode(`${token} ${text}\n`);
    for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
  }
  return 0;
}

if (import.meta.main) Deno.exit(await runJudgeHost());
