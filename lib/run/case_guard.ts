/**
 * The guard against gaming the grader, for one case: before the agent starts it records the
 * protected files of the workspace (`protected_files.ts`); after the agent exits it compares them,
 * then copies the hidden `post_checks` into the workspace (the agent never saw them; the case's
 * code judges then run with them in place); after the evaluators it checks the answer's claims
 * against the trace (`scoring/integrity.ts`) and gives the row its `integrity`.
 *
 * The guard is on for agent targets (`claude-code`, `codex`, the other agent CLIs) and for any
 * case with `execution.integrity: on` (or `{test_commands}`); `integrity: off` turns it off
 * (the row says `skipped`). `post_checks` are copied whether or not it is on.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { isInside } from "../fs/resolve.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { Integrity, IntegrityFinding, IntegritySetting } from "../schema/integrity.ts";
import type { EvaluatorResult, OutputMessage } from "../schema/result.ts";
import type { CaseScore } from "../scoring/case_score.ts";
import { claimFindings, integrityOf, integrityResult } from "../scoring/integrity.ts";
import {
  defaultProtected,
  protectedFindings,
  type ProtectedSnapshot,
  snapshotProtected,
} from "./protected_files.ts";
import { walkFiles } from "./workspace_diff.ts";
import { WORKSPACE_PROVIDERS } from "./workspace.ts";

/** A case's guard could not be set up (bad `post_checks`, no workspace): the case is an error. */
export class GuardError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "GuardError";
  }
}

/** What the guard needs to know about a case. */
export interface GuardRequest {
  /** The case. */
  evalCase: EvalCase;
  /** Its evaluators, as they run (the default protected set comes from its code judges). */
  evaluators: readonly EvaluatorConfig[];
  /** Its target's provider (agent targets are guarded by default). */
  provider: string;
  /** The eval file's folder (`post_checks` is relative to it). */
  evalDir: string;
  /** The dataset root (`post_checks` must lie inside it). */
  root: string;
  /** The case's workspace folder, when it has one. */
  workspace?: string;
}

/** One case's guard. */
export interface CaseGuard {
  /** After the agent exited: records what it did to the protected files (once). */
  afterTarget(): Promise<void>;
  /** Copies the hidden post checks into the workspace (nothing without `post_checks`). */
  copyPostChecks(): Promise<void>;
  /**
   * The row's `integrity` once the evaluators ran (`answer` absent when the target failed);
   * `undefined` when the case is not guarded (it only has post checks).
   */
  verdict(outcome: {
    answer?: string;
    messages: readonly OutputMessage[];
    results: readonly EvaluatorResult[];
  }): Integrity | undefined;
}

/** Whether the guard is on, off (explicitly), or not asked for. */
function guardMode(setting: unknown, provider: string): "on" | "off" | "none" {
  const value = setting as IntegritySetting | undefined;
  if (value === "off" || value === false) return "off";
  if (value !== undefined) return "on";
  return WORKSPACE_PROVIDERS.has(provider) ? "on" : "none";
}

/** The `post_checks` folder (real path, inside the root) and its files, relative to it. */
async function postChecksOf(
  written: string,
  request: GuardRequest,
): Promise<{ dir: string; files: string[] }> {
  const wanted = resolve(request.evalDir, written);
  let dir: string;
  try {
    dir = await Deno.realPath(wanted);
  } catch {
    throw new GuardError(
      `post_checks '${written}' does not exist (resolved to ${wanted}); create the folder or fix the path (relative to the eval file)`,
    );
  }
  if (!isInside(dir, await Deno.realPath(request.root))) {
    throw new GuardError(
      `post_checks '${written}' resolves to ${dir}, outside the dataset root; move it inside`,
    );
  }
  if (!(await Deno.stat(dir)).isDirectory) {
    throw new GuardError(`post_checks '${written}' is not a folder; name a folder`);
  }
  const files: string[] = [];
  for await (const file of walkFiles(dir)) {
    if (file.kind === "symlink") {
      throw new GuardError(
        `post_checks '${written}' holds a symlink (${file.rel}); replace it by a copy of the file`,
      );
    }
    files.push(file.rel);
  }
  return { dir, files };
}

/** Makes `rel` a real folder inside `root`: anything else in the way (a symlink, a file) goes. */
async function realFolder(root: string, rel: string): Promise<void> {
  let at = root;
  for (const part of rel.split("/").filter((p) => p !== "" && p !== ".")) {
    at = join(at, part);
    const info = await Deno.lstat(at).catch(() => null);
    if (info?.isDirectory) continue;
    if (info !== null) await Deno.remove(at, { recursive: true });
    await Deno.mkdir(at);
  }
}

/**
 * Copies the post checks into the workspace. Whatever the agent left at their paths is removed
 * first (a symlink or a hard link there must not be written through), and folders on the way
 * must be real folders.
 */
async function copyChecks(from: string, files: readonly string[], workspace: string) {
  for (const rel of files) {
    await realFolder(workspace, dirname(rel));
    const target = join(workspace, ...rel.split("/"));
    if (!isInside(target, workspace)) continue;
    await Deno.remove(target, { recursive: true }).catch(() => {});
    await Deno.copyFile(join(from, ...rel.split("/")), target);
  }
}

/**
 * The guard of a case, set up after its workspace is ready and before its target starts; a
 * {@link GuardError} when `post_checks` cannot be used. `undefined` when the case is not guarded
 * and has no post checks.
 *
 * @example
 * ```ts ignore
 * const guard = await openCaseGuard({ evalCase, evaluators, provider, evalDir, root, workspace });
 * // ... the agent runs ...
 * await guard?.afterTarget();
 * await guard?.copyPostChecks();
 * // ... the evaluators run ...
 * const integrity = guard?.verdict({ answer, messages, results });
 * ```
 */
export async function openCaseGuard(request: GuardRequest): Promise<CaseGuard | undefined> {
  const execution = request.evalCase.execution;
  const mode = guardMode(execution.integrity, request.provider);
  const written = typeof execution.post_checks === "string" ? execution.post_checks : undefined;
  if (mode === "none" && written === undefined) return undefined;
  if (written !== undefined && request.workspace === undefined) {
    throw new GuardError(
      "post_checks needs a workspace to copy the checks into; give the case a workspace_template or a workspace_repo (agent targets always have one)",
    );
  }
  const checks = written === undefined ? undefined : await postChecksOf(written, request);
  let snapshot: ProtectedSnapshot | undefined;
  if (mode === "on" && request.workspace !== undefined) {
    const explicit = execution.protected as string[] | undefined;
    const set = explicit !== undefined ? { globs: explicit, paths: [] } : await defaultProtected(
      request.evaluators,
      {
        evalDir: request.evalDir,
        workspace: request.workspace,
        postChecksFiles: checks?.files ?? [],
      },
    );
    try {
      snapshot = await snapshotProtected(request.workspace, set);
    } catch (e) {
      throw new GuardError(`protected: ${(e as Error).message}`);
    }
  }
  let touched: IntegrityFinding[] = [];
  let compared = false;
  const settings = execution.integrity;
  const testCommands = typeof settings === "object" && settings !== null
    ? (settings as { test_commands?: string[] }).test_commands ?? []
    : [];
  return {
    async afterTarget() {
      if (compared || snapshot === undefined || request.workspace === undefined) return;
      compared = true;
      try {
        touched = await protectedFindings(request.workspace, snapshot);
      } catch (e) {
        // Files the agent made unreadable cannot be vouched for.
        touched = [{
          kind: "protected_modified",
          path: ".",
          evidence: `the protected files could not be compared: ${(e as Error).message}`,
        }];
      }
    },
    async copyPostChecks() {
      if (checks !== undefined) await copyChecks(checks.dir, checks.files, request.workspace!);
    },
    verdict({ answer, messages, results }) {
      if (mode === "none") return undefined;
      if (mode === "off") return { status: "skipped", findings: [] };
      const failed = results.filter((r) =>
        r.type === "code_judge" && r.status !== "skipped" &&
        (r.status === "error" || r.verdict !== "pass")
      );
      const claims = answer === undefined ? [] : claimFindings(answer, messages, {
        testCommands,
        ...(written !== undefined ? { postChecks: { path: written, failed } } : {}),
      });
      return integrityOf([...touched, ...claims]);
    },
  };
}

/**
 * The case score once the guard has spoken: unchanged unless `integrity` is flagged; then the
 * case fails (score 0, verdict `fail`), its misses start with one line per finding, and an
 * `integrity` evaluator result (weight 0, the findings in `details`) is appended to `results`.
 *
 * @example
 * ```ts ignore
 * const score = withIntegrity(aggregateCaseScore(results), integrity, results);
 * ```
 */
export function withIntegrity(
  aggregate: CaseScore,
  integrity: Integrity | undefined,
  results: EvaluatorResult[],
): CaseScore {
  if (integrity?.status !== "flagged") return aggregate;
  const result = integrityResult(integrity);
  results.push(result);
  return {
    ...aggregate,
    score: 0,
    verdict: "fail",
    misses: [...result.misses, ...aggregate.misses],
    forced_by: "integrity: the integrity guard flagged the case",
  };
}
