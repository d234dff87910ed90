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
import { loadEvalFile } from "./load_eval_file.ts";
import { validateEvalFile } from "./validate_eval_file.ts";
import { confineReads } from "./confine_reads.ts";
import type { CaseTargetChecker } from "./check_case_targets.ts";
import { displayPath } from "../fs/display_path.ts";
import type { FileReport, TargetCheck, WorkerRequest, WorkerResponse } from "./sandbox.ts";

/** The worker's global scope, as far as this module uses it. */
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse): void;
};

async function handle(request: WorkerRequest): Promise<unknown> {
  const { path, root, verbose } = request;
  confineReads(root, request.alsoRead);
  if (request.op === "load") return await loadEvalFile(path, { root, verbose });
  // Targets and config checks (and their schemas) are imported only when such a file comes up.
  if (request.kind === "targets") {
    const { validateTargetsFile } = await import("./targets_file.ts");
    const report = await validateTargetsFile(path, { root });
    return { ...report, kind: "targets", cases: 0 } satisfies FileReport;
  }
  if (request.kind === "config") {
    const { validateConfigFile } = await import("./validate_config.ts");
    const report = await validateConfigFile(path, { root });
    return { ...report, kind: "config", cases: 0 } satisfies FileReport;
  }
  // The target check's modules load while the file is validated.
  const checker = request.check ? targetChecker(request.check) : undefined;
  let needs: Pick<FileReport, "commands" | "sources"> = {};
  const { targets, ...report } = await validateEvalFile(path, {
    root,
    verbose,
    onNeeds: (found) => needs = found,
  });
  if (checker && targets.length > 0) {
    // Every case's target must exist in the targets file that applies, as `run` requires.
    const diagnostics = await checker({ file: path, root, targets });
    report.diagnostics.push(...diagnostics);
    if (diagnostics.length > 0) report.valid = false;
  }
  return { ...report, ...needs, kind: "eval" } satisfies FileReport;
}

const checkers = new Map<string, CaseTargetChecker>();

/** One checker per set of options, so each targets file is read once per worker. */
function targetChecker(check: TargetCheck): CaseTargetChecker {
  const key = JSON.stringify([check.targetsFile, check.targetOverride, check.cwd]);
  let checker = checkers.get(key);
  if (!checker) {
    // The check (and the targets schema) is imported on first use, then kept.
    const loading = import("./check_case_targets.ts").then((m) =>
      m.createCaseTargetChecker({
        ...(check.targetsFile !== undefined ? { targetsFile: check.targetsFile } : {}),
        ...(check.targetOverride !== undefined ? { targetOverride: check.targetOverride } : {}),
        displayPath: (p) => displayPath(p, check.cwd),
      })
    );
    checker = async (evalFile) => (await loading)(evalFile);
    checkers.set(key, checker);
  }
  return checker;
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
