/**
 * The worker that runs one module code judge (see `module_judge.ts`). Its Deno permissions allow
 * reading the dataset root and nothing else. It receives `{url, payload}`, imports the module,
 * calls its default export with the payload and posts back the result. `console` output of the
 * judge is captured (and returned with errors) instead of reaching agentv's stdout.
 *
 * This file is a worker entry: the compile tasks name it with `--include`.
 *
 * @module
 */

/** A request to the worker. */
export interface ModuleJudgeRequest {
  /** `file:` URL of the judge module. */
  url: string;
  /** The payload passed to the default export. */
  payload: unknown;
}

/** The worker's answer. */
export type ModuleJudgeResponse =
  | { ok: true; value: unknown; logs: string }
  | { ok: false; error: string; logs: string };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ModuleJudgeRequest>) => void) | null;
  postMessage(message: ModuleJudgeResponse): void;
};

const LOG_CAP = 64 * 1024;
let logs = "";
const capture = (...args: unknown[]) => {
  const line = args.map((a) => typeof a === "string" ? a : safeInspect(a)).join(" ");
  logs = (logs + line + "\n").slice(-LOG_CAP);
};
for (const method of ["log", "info", "warn", "error", "debug", "trace", "dir"] as const) {
  (console as unknown as Record<string, unknown>)[method] = capture;
}
// The working folder is the whole process's: a judge may not move it.
Object.defineProperty(Deno, "chdir", {
  value: () => {
    throw new Deno.errors.NotCapable("A module code judge cannot change the working folder");
  },
});

function safeInspect(value: unknown): string {
  try {
    return Deno.inspect(value);
  } catch {
    return String(value);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

async function importJudge(url: string): Promise<Record<string, unknown>> {
  try {
    return await import(url);
  } catch (error) {
    // A compiled agentv may only import modules it embeds; a single-file judge still loads as
    // a data: URL of its source.
    if (!/not found|Module not found|Unable to load/i.test(String(error))) throw error;
    const text = await Deno.readTextFile(new URL(url));
    const type = /\.m?ts$/i.test(url) ? "application/typescript" : "text/javascript";
    return await import(`data:${type},${encodeURIComponent(text)}`);
  }
}

scope.onmessage = async (event) => {
  const { url, payload } = event.data;
  let value: unknown;
  try {
    const mod = await importJudge(url);
    const judge = mod.default;
    if (typeof judge !== "function") {
      scope.postMessage({
        ok: false,
        error: `the module has no default-exported function (found ${
          judge === undefined ? "no default export" : typeof judge
        }); write \`export default function judge(payload) { return { score: 1 }; }\``,
        logs,
      });
      return;
    }
    value = await judge(payload);
  } catch (error) {
    scope.postMessage({ ok: false, error: describe(error), logs });
    return;
  }
  try {
    scope.postMessage({ ok: true, value, logs });
  } catch (error) {
    scope.postMessage({
      ok: false,
      error: `the judge returned a value that cannot be copied (${describe(error)})`,
      logs,
    });
  }
};
