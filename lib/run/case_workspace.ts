/**
 * What a case has around its target call: its workspace (made fresh, and set up, before the
 * target starts) and its guard against gaming the grader (`case_guard.ts`), what changed in the
 * workspace afterwards, and where an agent's raw event stream is kept.
 *
 * @module
 */
import { join } from "node:path";
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { WorkspaceChanges } from "../schema/workspace.ts";
import type { ConsentGrant } from "../targets/consent.ts";
import type { Target } from "../targets/types.ts";
import type { SandboxMode } from "../schema/sandbox.ts";
import { type SandboxPolicy, sandboxPolicy } from "../targets/sandbox_policy.ts";
import { type CaseGuard, openCaseGuard } from "./case_guard.ts";
import { type CaseWorkspace, type WorkspaceManager, workspaceRepoOf } from "./workspace.ts";

/** A case's workspace and guard, once opened. */
export interface OpenedCase {
  /** Its workspace, when it needs one. */
  workspace?: CaseWorkspace;
  /** Its guard, when it is guarded or has post checks. */
  guard?: CaseGuard;
}

/** What {@link openCase} needs of the case's runtime. */
export interface OpenCaseRuntime {
  /** The resolved target (its provider and workspace settings). */
  target: Target;
  /** The run's workspaces (none: the case runs without one). */
  workspaces?: WorkspaceManager;
  /** Folder of the eval file. */
  evalDir: string;
  /** Dataset root. */
  root: string;
  /** What the run's trust gate allowed (a repository's setup commands need it). */
  consent: ConsentGrant;
  /** The run's environment (git and setup commands). */
  env?: Readonly<Record<string, string>>;
  /** Each setup command is killed after this many ms. */
  timeoutMs: number;
  /** Aborted on interruption. */
  signal: AbortSignal;
  /** A dry run: no repository is fetched, checked out or set up. */
  dryRun: boolean;
  /** The run's `--sandbox` (a repository's setup commands run in the target's sandbox, else it). */
  sandbox?: SandboxMode;
}

/**
 * The sandbox of a case's setup commands: its target's (an agent or `cli` target's), else the
 * run's `--sandbox` with `network: none` (a target that starts no command); throws
 * `SandboxUnavailableError` when the run's cannot be had.
 */
function setupSandbox(runtime: OpenCaseRuntime): SandboxPolicy | undefined {
  const { target, sandbox } = runtime;
  if (target.sandbox !== undefined || sandbox === undefined) return target.sandbox;
  return sandboxPolicy({}, {
    label: `The workspace_repo setup of target '${target.name}'`,
    agent: false,
    override: sandbox,
    baseDir: runtime.evalDir,
    ...(runtime.env?.PATH !== undefined ? { path: runtime.env.PATH } : {}),
  });
}

/**
 * Opens a case's workspace (a template copied, a repository checked out and set up, or an empty
 * folder) and its guard (protected files recorded). Throws when either cannot be made; what was
 * made is removed first.
 */
export async function openCase(
  evalCase: EvalCase,
  evaluators: readonly EvaluatorConfig[],
  runtime: OpenCaseRuntime,
): Promise<OpenedCase> {
  let workspace: CaseWorkspace | undefined;
  try {
    const setup = workspaceRepoOf(evalCase, runtime.target, runtime.evalDir)?.repo.setup ?? [];
    const box = setup.length > 0 && !runtime.dryRun ? setupSandbox(runtime) : undefined;
    workspace = await runtime.workspaces?.open({
      evalCase,
      target: runtime.target,
      evalDir: runtime.evalDir,
      root: runtime.root,
      consent: runtime.consent,
      ...(runtime.env !== undefined ? { env: runtime.env } : {}),
      timeoutMs: runtime.timeoutMs,
      signal: runtime.signal,
      dryRun: runtime.dryRun,
      ...(box !== undefined ? { setupSandbox: box } : {}),
    });
    const guard = await openCaseGuard({
      evalCase,
      evaluators,
      provider: runtime.target.provider,
      evalDir: runtime.evalDir,
      root: runtime.root,
      ...(workspace !== undefined ? { workspace: workspace.path } : {}),
    });
    return {
      ...(workspace !== undefined ? { workspace } : {}),
      ...(guard !== undefined ? { guard } : {}),
    };
  } catch (e) {
    await workspace?.dispose();
    throw e;
  }
}

/** What changed in the workspace, or `undefined` without one (a failure to read it is noted). */
export async function workspaceChanges(
  workspace: CaseWorkspace | undefined,
): Promise<WorkspaceChanges | undefined> {
  if (workspace === undefined) return undefined;
  try {
    return await workspace.changes();
  } catch (e) {
    return {
      template: workspace.template ?? null,
      path: workspace.kept ? workspace.path : null,
      added: [],
      modified: [],
      deleted: [],
      diff: `(the workspace could not be compared: ${
        e instanceof Error ? e.message : String(e)
      })\n`,
      diff_truncated: false,
    };
  }
}

/**
 * Where an agent target keeps the raw event stream of a case:
 * `<root>/.agentv/logs/<run_id>/<case id>.jsonl` (the id made safe as a file name),
 * `<case id>.trial-<n>.jsonl` for trials after the first, and `<case id>.<target>….jsonl` when
 * `options.target` is given (a case several targets run).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentLogPath } from "./case_workspace.ts";
 * assert.equal(
 *   agentLogPath("/repo", "2026-01-21T10-22-57-123Z-1a2b3c", "fix/bug 1"),
 *   "/repo/.agentv/logs/2026-01-21T10-22-57-123Z-1a2b3c/fix_bug_1.jsonl",
 * );
 * assert.equal(
 *   agentLogPath("/repo", "r", "fix", 2, { target: "codex" }),
 *   "/repo/.agentv/logs/r/fix.codex.trial-2.jsonl",
 * );
 * ```
 */
export function agentLogPath(
  root: string,
  runId: string,
  caseId: string,
  trial = 0,
  options: { target?: string } = {},
): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "case";
  const target = options.target === undefined ? "" : `.${safe(options.target).slice(0, 60)}`;
  const name = `${safe(caseId).slice(0, 100)}${target}${trial > 0 ? `.trial-${trial}` : ""}.jsonl`;
  return join(root, ".agentv", "logs", safe(runId), name);
}
