/**
 * The sandbox worker (see `sandbox.ts`): runs the loader and validators with read access to the
 * dataset root only. It answers {@link WorkerRequest}s with {@link WorkerResponse}s.
 *
 * Deno checks read permission on the path as given, so a symlink inside the root that points
 * outside would pass the runtime check; the worker therefore also confines Deno's file-reading
 * functions (see `confine_reads.ts`) before it loads anything.
 *
 * @module
 */
import { loadEvalFile } from "../loader/load_eval_file.ts";
import { validateEvalFile } from "../loader/validate_eval_file.ts";
import { validateTargetsFile } from "../targets/targets_file.ts";
import { confineReads } from "./confine_reads.ts";
import { validateConfigFile } from "./validate_config.ts";
import type { FileReport, WorkerRequest, WorkerResponse } from "./sandbox.ts";

/** The worker's global scope, as far as this module uses it. */
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse): void;
};

async function handle(request: WorkerRequest): Promise<unknown> {
  const { path, root, verbose } = request;
  confineReads(root);
  if (request.op === "load") return await loadEvalFile(path, { root, verbose });
  if (request.kind === "targets") {
    const report = await validateTargetsFile(path, { root });
    return { ...report, kind: "targets", cases: 0 } satisfies FileReport;
  }
  if (request.kind === "config") {
    const report = await validateConfigFile(path, { root });
    return { ...report, kind: "config", cases: 0 } satisfies FileReport;
  }
  const report = await validateEvalFile(path, { root, verbose });
  return { ...report, kind: "eval" } satisfies FileReport;
}

scope.onmessage = async (event) => {
  const request = event.data;
  try {
    scope.postMessage({ id: request.id, ok: true, value: await handle(request) });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const diagnostics = (e as { diagnostics?: unknown }).diagnostics;
    scope.postMessage({
      id: request.id,
      ok: false,
      error: {
        name: e.name,
        message: e.message,
        stack: e.stack,
        diagnostics: Array.isArray(diagnostics) ? diagnostics : undefined,
      },
    });
  }
};
