/**
 * Script code judges and code aggregators in a sandbox (`sandbox:` on the judge or aggregator, or
 * the run's `--sandbox`; default none, see `targets/sandbox_policy.ts`): the script runs with the
 * dataset root and its working folder readable, the case's workspace writable, and
 * `network: none` unless set. With `target:`, the judge proxy stays reachable (the forwarder
 * serves its loopback address inside the sandbox), whatever the network rule.
 *
 * @module
 */
import {
  runScript,
  type RunScriptOptions,
  type ScriptRun,
  spawnFailure,
} from "./script_process.ts";
import type { CommandPermit } from "../targets/consent.ts";
import { type OpenSandbox, openSandbox } from "../targets/sandbox_launch.ts";
import { endpointOfUrl, type SandboxPolicy, sandboxPolicy } from "../targets/sandbox_policy.ts";
import type { SandboxSettings } from "../schema/sandbox.ts";
import type { EvaluationContext } from "./types.ts";

/** What {@link runJudgeScript} needs besides the script's own options. */
export interface JudgeSandboxOptions {
  /** `Code judge 'x'`: starts sandbox errors. */
  label: string;
  /** The judge's (or aggregator's) sandbox settings. */
  settings: SandboxSettings;
  /** The case: the run's `--sandbox`, the root, the workspace. */
  context: Pick<EvaluationContext, "sandbox" | "root" | "evalDir" | "workspacePath" | "tempDir">;
  /** The judge proxy's URL, when the script may call the judge target. */
  proxyUrl?: string;
}

/**
 * Runs a judge's script (`runScript`), in its sandbox when it has one. Never throws: a sandbox
 * that cannot be had is reported in `spawnError`, like a script that cannot start.
 *
 * @example
 * ```ts ignore
 * const run = await runJudgeScript(permit, { cwd, stdin, timeoutMs, env, clearEnv: true }, {
 *   label: "Code judge 'tests'", settings: config, context,
 * });
 * ```
 */
export async function runJudgeScript(
  permit: CommandPermit,
  options: Omit<RunScriptOptions, "sandbox">,
  sandbox: JudgeSandboxOptions,
): Promise<ScriptRun> {
  let policy: SandboxPolicy | undefined;
  let box: OpenSandbox | undefined;
  try {
    policy = judgePolicy(sandbox, options.env?.PATH);
    if (policy !== undefined) {
      const { context } = sandbox;
      box = await openSandbox(policy, {
        argv: permit.argv,
        env: options.env ?? {},
        cwd: options.cwd,
        writable: context.workspacePath !== undefined ? [context.workspacePath] : [],
        readOnly: [context.root, context.evalDir, options.cwd],
        endpoints: sandbox.proxyUrl !== undefined ? [endpointOfUrl(sandbox.proxyUrl)] : [],
        ...(context.tempDir !== undefined ? { tempDir: context.tempDir } : {}),
      });
    }
    return await runScript(permit, { ...options, ...(box !== undefined ? { sandbox: box } : {}) });
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? `'${permit.argv[0]}' was not found`
      : (error as Error).message;
    return spawnFailure(reason);
  } finally {
    await box?.close();
  }
}

/**
 * The judge's sandbox (throws `SandboxUnavailableError` when it cannot be had); with a judge
 * proxy, `network: none` lets the proxy through.
 */
function judgePolicy(options: JudgeSandboxOptions, path?: string): SandboxPolicy | undefined {
  const { settings, context } = options;
  const policy = sandboxPolicy(settings, {
    label: options.label,
    agent: false,
    ...(context.sandbox !== undefined ? { override: context.sandbox } : {}),
    baseDir: context.evalDir,
    ...(path !== undefined ? { path } : {}),
  });
  if (policy !== undefined && options.proxyUrl !== undefined && policy.network === "none") {
    return { ...policy, network: "model-only", allowHosts: [] };
  }
  return policy;
}
