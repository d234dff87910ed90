/**
 * The worker that runs one module code judge (see `module_judge.ts`), inside the judge host
 * process (`module_judge_host.ts`). Its Deno permissions allow reading the dataset root (less
 * the denied paths) and nothing else. It receives `{url, payload}`, imports the module, calls
 * its default export with the payload and posts back the result, bounded before it leaves the
 * judge's isolate (`result_bounds.ts`). `console` output of the judge is captured (and returned
 * with errors); the judge cannot touch the host's stdin, stdout or stderr.
 *
 * This file is a worker entry: the compile tasks name it with `--include`.
 *
 * @module
 */

import {
  boundList,
  boundValue,
  ITEM_CAP_BYTES,
  TEXT_CAP_BYTES,
  truncateText,
  VALUE_CAP_BYTES,
} from "./result_bounds.ts";

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
// The host's stdin and stdout carry its requests and replies: the judge may not use them.
for (const name of ["stdin", "stdout", "stderr"] as const) {
  Object.defineProperty(Deno, name, {
    get() {
      throw new Deno.errors.NotCapable(`A module code judge cannot use Deno.${name}`);
    },
  });
}

function safeInspect(value: unknown): string {
  try {
    return Deno.inspect(value);
  } catch {
    return String(value);
  }
}

function describe(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = "an error that cannot be shown";
  }
  return truncateText(text, TEXT_CAP_BYTES);
}

/** One hit or miss as text: a string as is, anything else as (bounded) JSON. */
function itemText(item: unknown): string {
  if (typeof item === "string") return truncateText(item, ITEM_CAP_BYTES);
  try {
    return truncateText(JSON.stringify(boundValue(item, ITEM_CAP_BYTES)) ?? "", ITEM_CAP_BYTES);
  } catch {
    return String(item);
  }
}

/**
 * The judge's reply as it may leave the worker: of an object, only the fields agentv reads
 * (`score`, `hits`, `misses`, `reasoning`, `details`), each bounded; anything else cut short.
 */
function boundReply(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return boundValue(value, ITEM_CAP_BYTES);
  }
  const reply = value as Record<string, unknown>;
  const out: Record<string, unknown> = { score: boundValue(reply.score, ITEM_CAP_BYTES) };
  for (const key of ["hits", "misses"] as const) {
    const list = reply[key];
    if (Array.isArray(list)) out[key] = boundList(list.slice(0, 1001).map(itemText));
  }
  if (typeof reply.reasoning === "string") {
    out.reasoning = truncateText(reply.reasoning, TEXT_CAP_BYTES);
  }
  if (reply.details !== undefined) out.details = boundValue(reply.details, VALUE_CAP_BYTES);
  return out;
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
    value = boundReply(await judge(payload));
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
