/**
 * Validating files in sandbox workers, one worker per dataset root (a few roots at a time). Where
 * a root's eval files are large, a second worker with the same permissions reads the targets
 * file that applies while the first one reads the cases, so neither waits for the other: the
 * targets file needs the yaml package and the targets schemas (~40 ms to load in a worker), the
 * cases of a JSONL file often need neither.
 *
 * @module
 */
import type { FileKind, FileReport, TargetCheck, TargetsVerdict } from "../dataset/sandbox.ts";
import type { PostedTargetDefinitions } from "../dataset/targets_discovery.ts";
import { Sandbox } from "../dataset/sandbox.ts";

/** Options of {@link validateInSandboxes}. */
export interface SandboxValidateOptions {
  /** What each file is. */
  kinds: ReadonlyMap<string, FileKind>;
  /** Each valid case's target is checked against the targets file a run would use. */
  check: TargetCheck;
  /** Files outside the roots the workers may read (a `--targets` file). */
  alsoRead: string[];
  /** Report verbose-only warnings. */
  verbose?: boolean;
  /** Stops between files (rejects with the abort reason). */
  signal?: AbortSignal;
  /**
   * Called when this thread has nothing to do but wait for the first worker's reports: when the
   * second worker read the targets file of an eval file (with its definitions, when it could
   * parse them), or at once for each file without a second worker.
   */
  whileWaiting?: (read?: PostedRead) => void;
}

/** Definitions of a targets file a second worker read, for eval files under `root`. */
export interface PostedRead {
  /** The dataset root. */
  root: string;
  /** See `PostedTargetDefinitions`. */
  definitions: PostedTargetDefinitions;
}

/** How many dataset roots (sandbox workers) are validated at the same time. */
const MAX_PARALLEL_ROOTS = 4;

/**
 * Eval files from this total size on get a second sandbox worker for the targets file (for a
 * small file a second worker costs more than it saves).
 */
const SECOND_WORKER_BYTES = 1 << 20;

/** The files of one dataset root, their sandbox, and a second one for targets files. */
interface Group {
  sandbox: Sandbox;
  checker?: Sandbox;
  files: string[];
}

/**
 * Validates the files of each root (`byRoot`: root → files, in order) in that root's sandbox and
 * returns the report of each file.
 *
 * @example
 * ```ts ignore
 * const reports = await validateInSandboxes(new Map([["/repo", ["/repo/evals/a.jsonl"]]]), {
 *   kinds: new Map([["/repo/evals/a.jsonl", "eval"]]),
 *   check: { cwd: "/repo" },
 *   alsoRead: [],
 * });
 * ```
 */
export async function validateInSandboxes(
  byRoot: ReadonlyMap<string, string[]>,
  options: SandboxValidateOptions,
): Promise<Map<string, FileReport>> {
  const { alsoRead } = options;
  // Starting a worker (loading the loader's modules) costs more than validating a small file:
  // a few roots are validated at the same time.
  const groups: Group[] = [];
  for (const [root, files] of byRoot) {
    const big = await evalBytes(files, options.kinds) >= SECOND_WORKER_BYTES;
    groups.push({
      sandbox: new Sandbox(root, { alsoRead }),
      ...(big ? { checker: new Sandbox(root, { alsoRead, preload: "targets" }) } : {}),
      files,
    });
  }
  const reports = new Map<string, FileReport>();
  const lanes = Math.max(1, Math.min(MAX_PARALLEL_ROOTS, groups.length));
  try {
    for (const g of groups.slice(0, lanes)) g.sandbox.start();
    const queue = [...groups];
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let g = queue.shift(); g; g = queue.shift()) {
          for (const [file, report] of await validateGroup(g, options)) reports.set(file, report);
        }
      }),
    );
  } finally {
    for (const { sandbox, checker } of groups) {
      sandbox.close();
      checker?.close();
    }
  }
  return reports;
}

/** Validates one root's files, one after the other. */
async function validateGroup(
  { sandbox, checker, files }: Group,
  options: SandboxValidateOptions,
): Promise<Map<string, FileReport>> {
  const { check, signal } = options;
  const reports = new Map<string, FileReport>();
  for (const file of files) {
    signal?.throwIfAborted();
    const kind = options.kinds.get(file);
    const verdict = checker && kind === "eval"
      ? Promise.withResolvers<TargetsVerdict>()
      : undefined;
    // The request is posted before the second worker starts (starting one holds this thread).
    const report = sandbox.validate(file, {
      kind,
      verbose: options.verbose,
      signal,
      check,
      ...(verdict ? { verdict: verdict.promise } : {}),
    });
    // If the second worker fails, the first one reads the targets file itself.
    if (verdict) {
      checker!.readTargets(file, check, { signal }).then((read) => {
        verdict.resolve(read.verdict);
        const { definitions } = read;
        options.whileWaiting?.(definitions ? { root: sandbox.root, definitions } : undefined);
      }, (error) => {
        verdict.reject(error);
        options.whileWaiting?.();
      });
    } else if (!checker || kind === "eval") options.whileWaiting?.();
    reports.set(file, await report);
  }
  sandbox.close();
  checker?.close();
  return reports;
}

/** Total size of the eval files among `files`. */
async function evalBytes(files: string[], kinds: ReadonlyMap<string, FileKind>): Promise<number> {
  let total = 0;
  for (const file of files) {
    if (kinds.get(file) !== "eval") continue;
    try {
      total += (await Deno.stat(file)).size;
    } catch {
      // missing: the sandbox reports it
    }
  }
  return total;
}
