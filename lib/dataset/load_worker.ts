/**
 * The sandbox worker (see `sandbox.ts`): runs the loader and validators with read access to the
 * dataset root only. It answers {@link WorkerRequest}s with {@link WorkerResponse}s.
 *
 * Deno checks read permission on the path as given, so a symlink inside the root that points
 * outside would pass the runtime check; the worker therefore also confines Deno's file-reading
 * functions (see `confine_reads.ts`) before it loads anything.
 *
 * What it imports at start is what its name asks for (see `SandboxPreload`): the loader and its
 * schemas, nothing more than the JSONL path (a file of plain cases needs no schema), or the
 * targets file check. Everything else is imported when a request needs it.
 *
 * @module
 */
import { checkEvalFile } from "./validate_eval_file.ts";
import { confineReads } from "./confine_reads.ts";
import type { TargetsVerdict } from "./check_case_targets.ts";
import type {
  FileReport,
  ResetMessage,
  TargetCheck,
  TargetsReading,
  VerdictMessage,
  WorkerRequest,
  WorkerResponse,
} from "./sandbox_protocol.ts";

/** The worker's global scope, as far as this module uses it. */
const scope = globalThis as unknown as {
  name: string;
  onmessage:
    | ((event: MessageEvent<WorkerRequest | VerdictMessage | ResetMessage>) => void)
    | null;
  postMessage(message: WorkerResponse): void;
};

/** Starts importing what this worker's requests will need (see the module doc). */
function preload(name: string): void {
  const settle = (p: Promise<unknown>) => void p.catch(() => {}); // a request reports failures
  if (name.endsWith("-targets")) {
    settle(import("./check_case_targets.ts"));
    settle(import("./targets_file.ts"));
    settle(import("./yaml_source.ts").then((m) => m.loadYamlParser()));
  } else if (name.endsWith("-jsonl")) {
    // What every JSONL file needs besides its plain cases: the hash of its bytes, and the check
    // of its cases' targets (zod-free; the targets file itself is read by the other worker).
    settle(import("node:crypto"));
    settle(import("./check_case_targets.ts"));
  } else settle(import("./load_eval_file.ts"));
}

preload(scope.name);

async function handle(request: WorkerRequest): Promise<unknown> {
  const { path, root, verbose } = request;
  confineReads(root, request.alsoRead);
  if (request.op === "load") {
    const { loadEvalFile } = await import("./load_eval_file.ts");
    return await loadEvalFile(path, { root, verbose });
  }
  if (request.op === "targets") {
    const { definitions, ...verdict } = await verdictLoader(request.check ?? { cwd: root }, true)(
      path,
      root,
    );
    return { verdict, ...(definitions ? { definitions } : {}) } satisfies TargetsReading;
  }
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
  const check = request.check;
  // The targets file is read while the cases are (here, or by another worker that sends it).
  const verdict = check === undefined
    ? undefined
    : request.verdictFollows
    ? followingVerdict(request.id).then((v) => v ?? verdictLoader(check)(path, root))
    : verdictLoader(check)(path, root);
  verdict?.catch(() => {}); // awaited below, or not needed when no case is valid
  let needs: Pick<FileReport, "commands" | "sources"> = {};
  const { report, targets } = await checkEvalFile(path, {
    root,
    verbose,
    onNeeds: (found) => needs = found,
  });
  if (check && verdict && targets.size > 0) {
    // Every case's target (and judge) must exist in the targets file that applies, as `run`
    // requires.
    const { caseTargetDiagnostics } = await import("./check_case_targets.ts");
    const diagnostics = await caseTargetDiagnostics(await verdict, path, targets, {
      ...(check.targetOverride !== undefined ? { targetOverride: check.targetOverride } : {}),
      ...(check.judgeOverride !== undefined ? { judgeOverride: check.judgeOverride } : {}),
    });
    report.diagnostics.push(...diagnostics);
    if (diagnostics.length > 0) report.valid = false;
  }
  return { ...report, ...needs, kind: "eval" } satisfies FileReport;
}

const loaders = new Map<string, (evalFile: string, root: string) => Promise<TargetsVerdict>>();

/**
 * One verdict loader per set of options, so each targets file is read once per worker. With
 * `definitions` (a `targets` request: `validate`'s second worker posts them to the consent
 * listing, see `TargetsReading`), each verdict holds the file's definitions too.
 */
function verdictLoader(
  check: TargetCheck,
  definitions = false,
): (evalFile: string, root: string) => Promise<TargetsVerdict> {
  const key = JSON.stringify([check.targetsFile, check.targetOverride, check.cwd, definitions]);
  let loader = loaders.get(key);
  if (!loader) {
    // The check (and the targets schema) is imported on first use, then kept.
    const loading = Promise.all([
      import("./check_case_targets.ts"),
      import("../fs/display_path.ts"),
    ]).then(([m, { displayPath }]) =>
      m.createTargetsVerdictLoader({
        ...(check.targetsFile !== undefined ? { targetsFile: check.targetsFile } : {}),
        displayPath: (p) => displayPath(p, check.cwd),
        definitions,
      })
    );
    loader = async (evalFile, root) => (await loading)(evalFile, root);
    loaders.set(key, loader);
  }
  return loader;
}

/** Verdicts sent for `validate` requests, by request id (see {@link VerdictMessage}). */
const verdicts = new Map<number, PromiseWithResolvers<TargetsVerdict | undefined>>();

function verdictSlot(id: number): PromiseWithResolvers<TargetsVerdict | undefined> {
  let slot = verdicts.get(id);
  if (!slot) {
    slot = Promise.withResolvers();
    verdicts.set(id, slot);
  }
  return slot;
}

/** The verdict another worker read for request `id` (it may arrive before the request). */
function followingVerdict(id: number): Promise<TargetsVerdict | undefined> {
  return verdictSlot(id).promise.finally(() => verdicts.delete(id));
}

scope.onmessage = async (event) => {
  const message = event.data;
  if (message.op === "verdict") {
    verdictSlot(message.id).resolve(message.verdict);
    return;
  }
  if (message.op === "reset") {
    // Lent to the next sandbox with the same permissions: nothing read for the last one stays.
    loaders.clear();
    verdicts.clear();
    return;
  }
  try {
    scope.postMessage({ id: message.id, ok: true, value: await handle(message) });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const diagnostics = (e as { diagnostics?: unknown }).diagnostics;
    scope.postMessage({
      id: message.id,
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
