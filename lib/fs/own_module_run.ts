/**
 * How agentv starts one of its own modules as a `deno run` subprocess (the judge host, the
 * sandbox's network relay and forwarder) when it is not a compiled binary: the same isolation
 * flags for each.
 *
 * @module
 */

/**
 * `run` and the flags every such subprocess gets: quiet, no config file, lock file, prompt or npm,
 * and no remote import when agentv runs from files (`module`, the module started, says which).
 * The caller adds its permissions and the module's path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownModuleRun } from "./own_module_run.ts";
 * assert.deepEqual(ownModuleRun(new URL("file:///agentv/lib/x.ts")).slice(-2), ["--no-npm", "--no-remote"]);
 * ```
 */
export function ownModuleRun(module: URL): string[] {
  return [
    "run",
    "--quiet",
    "--no-config",
    "--no-lock",
    "--no-prompt",
    "--no-npm",
    ...(module.protocol === "file:" ? ["--no-remote"] : []),
  ];
}
