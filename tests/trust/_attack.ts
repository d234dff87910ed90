/**
 * Helpers for the trust tests, written as an attacker's dataset meets a user's machine: the user's
 * own config folder (where `agentv trust` records), the CLI run in-process with it, and the needs
 * a listing shows.
 *
 * @module
 */
import { cli } from "../_helpers/run_project.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

/** Whether something exists at `path`. */
export const exists = (path: string): Promise<boolean> =>
  Deno.stat(path).then(() => true, () => false);

/** A user: a config folder for the trust store, and `agentv` run in-process as them. */
export interface User extends AsyncDisposable {
  /** Runs `agentv args` in `dir` with this user's config folder (and `env`). */
  agentv(
    args: string[],
    dir: string,
    env?: Record<string, string>,
  ): Promise<{ code: number; out: string; err: string }>;
  /** The config folder. */
  config: Tree;
}

/** A user with an empty trust store. */
export async function user(baseEnv: Record<string, string> = {}): Promise<User> {
  const config = await tempTree({});
  return {
    config,
    agentv: (args, dir, env = {}) =>
      cli(args, dir, { env: { ...baseEnv, ...env, XDG_CONFIG_HOME: config.dir } }),
    [Symbol.asyncDispose]: () => config[Symbol.asyncDispose](),
  };
}

/**
 * The needs a listing shows (a refusal, `agentv trust`, `trust --list`, `validate`), as
 * `file:line:col: message` without the severity, sorted.
 */
export function listedNeeds(text: string): string[] {
  const found = text.matchAll(
    /^(\S+):(\d+):(\d+): (?:error|warning): ((?:\S+ )*'[^']*' (?:runs the command:|→) .*)$/gm,
  );
  return [...found].map((m) => `${m[1]}:${m[2]}:${m[3]}: ${m[4]}`).sort();
}
