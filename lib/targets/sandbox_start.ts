/**
 * How the low-level starters (`agent_cli.ts`, `shell.ts`, `scoring/script_process.ts`) start
 * their process inside an open sandbox (`sandbox_launch.ts`): the sandbox's argv, which must end
 * with the starter's own argv (the permitted command, unchanged), its environment, and what to
 * stop on a kill. Imports nothing.
 *
 * @module
 */

/** What a starter needs of an open sandbox. */
export interface SandboxedStart {
  /** The argv to start: the sandbox's prefix, then the command's own argv. */
  argv: readonly string[];
  /** The environment to start it with. */
  env: Readonly<Record<string, string>>;
  /** Stops what lives outside the process group (a container): called when it is killed. */
  stop(): void;
}

/**
 * The argv a starter starts: `own` unchanged without a sandbox, else the sandbox's argv, checked
 * to end with `own` (anything else is a bug: throws).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startArgv } from "./sandbox_start.ts";
 * assert.deepEqual(startArgv(undefined, ["sh", "-c", "id"]), ["sh", "-c", "id"]);
 * const box = { argv: ["bwrap", "--", "sh", "-c", "id"], env: {}, stop() {} };
 * assert.deepEqual(startArgv(box, ["sh", "-c", "id"]), ["bwrap", "--", "sh", "-c", "id"]);
 * assert.throws(() => startArgv(box, ["sh", "-c", "rm -rf /"]));
 * ```
 */
export function startArgv(
  sandbox: SandboxedStart | undefined,
  own: readonly string[],
): string[] {
  if (sandbox === undefined) return [...own];
  const tail = sandbox.argv.slice(sandbox.argv.length - own.length);
  if (sandbox.argv.length <= own.length || tail.some((arg, i) => arg !== own[i])) {
    throw new Error("the sandbox would start another command than the permitted one");
  }
  return [...sandbox.argv];
}
