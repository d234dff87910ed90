/**
 * The setup commands of a `workspace_repo` (`setup: [[argv…]…]`): the dataset's commands, each
 * started from a permit of the run's consent, in the checkout, with a scrubbed environment, and
 * in the case's sandbox when it has one (`Target.sandbox`, else the run's `--sandbox`). What they
 * leave is the baseline of the agent's diff (`workspace_repo.ts`).
 *
 * @module
 */
import { setupCommands } from "../dataset/dataset_commands.ts";
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import { runScript, tail } from "../scoring/script_process.ts";
import { childEnv, processBaseEnv } from "../targets/child_env.ts";
import { ConsentGrant, ConsentNotGivenError } from "../targets/consent.ts";
import { type OpenSandbox, openSandbox } from "../targets/sandbox_launch.ts";
import type { SandboxPolicy } from "../targets/sandbox_policy.ts";

/** A repository checkout failed: the case becomes an error row with this message. */
export class RepoError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "RepoError";
  }
}

/** Options of {@link runSetup}. */
export interface RunSetupOptions {
  /** What the run's trust gate allowed (setup commands start only from its permits). */
  consent?: ConsentGrant;
  /** The run's environment (setup gets PATH, HOME, LANG, TMPDIR from it). */
  env?: Readonly<Record<string, string>>;
  /** Each command is killed after this many ms. */
  timeoutMs: number;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
  /**
   * The sandbox the commands run in (the case target's, see `Target.sandbox`): the checkout
   * writable, the mirror it borrows from readable; absent: unsandboxed.
   */
  sandbox?: { policy: SandboxPolicy; mirror?: string; tempDir?: string };
}

/**
 * Runs the setup commands of `repo` in the checkout at `path`, in order, each from a permit of the
 * run's consent (no shell; a scrubbed environment), in the case's sandbox when it has one. The
 * first that fails, or that the consent does not hold, stops the case with a {@link RepoError}
 * saying which and why.
 */
export async function runSetup(
  path: string,
  repo: WorkspaceRepo,
  options: RunSetupOptions,
): Promise<void> {
  for (const { need } of setupCommands(repo)) {
    let permit;
    try {
      permit = (options.consent ?? ConsentGrant.everything()).permit(need);
    } catch (e) {
      if (e instanceof ConsentNotGivenError) throw new RepoError(e.message);
      throw e;
    }
    const shown = JSON.stringify(need.command.slice(0, 200));
    const env = childEnv(options.env ?? processBaseEnv());
    const box = await openSetupSandbox(permit.argv, env, path, options.sandbox).catch((e) => {
      const reason = e instanceof Deno.errors.NotFound
        ? `'${permit.argv[0]}' was not found`
        : (e as Error).message;
      throw new RepoError(`Setup command ${shown} could not start: ${reason}`);
    });
    const run = await runScript(permit, {
      cwd: path,
      stdin: "",
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      env,
      clearEnv: true,
      ...(box !== undefined ? { sandbox: box } : {}),
    }).finally(() => box?.close());
    if (run.aborted) throw new RepoError("interrupted");
    if (run.spawnError !== undefined) {
      throw new RepoError(`Setup command ${shown} could not start: ${run.spawnError}`);
    }
    if (run.timedOut || run.code !== 0) {
      const how = run.timedOut
        ? `timed out after ${options.timeoutMs}ms and was killed`
        : `exited with code ${run.code}`;
      const err = run.stderr.trim() || run.stdout.trim();
      throw new RepoError(
        `Setup command ${shown} of workspace_repo ${how}${
          err === "" ? "" : `: ${tail(err, 2000)}`
        }`,
      );
    }
  }
}

/**
 * The sandbox of one setup command, if it has one (throws when it cannot be opened). Under
 * `network: model-only` it reaches `allow_hosts` only (never the agent's model endpoint), and
 * nothing at all without them.
 */
function openSetupSandbox(
  argv: readonly string[],
  env: Record<string, string>,
  path: string,
  sandbox: RunSetupOptions["sandbox"],
): Promise<OpenSandbox | undefined> {
  if (sandbox === undefined) return Promise.resolve(undefined);
  const { policy } = sandbox;
  const closed = policy.network === "model-only" && policy.allowHosts.length === 0;
  return openSandbox(closed ? { ...policy, network: "none" } : policy, {
    argv,
    env,
    cwd: path,
    writable: [path],
    readOnly: sandbox.mirror !== undefined ? [sandbox.mirror] : [],
    ...(sandbox.tempDir !== undefined ? { tempDir: sandbox.tempDir } : {}),
  });
}
