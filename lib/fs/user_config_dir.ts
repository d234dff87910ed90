/**
 * The user's own agentv folder, outside every dataset: `$XDG_CONFIG_HOME/agentv`, else
 * `$HOME/.config/agentv` (`%APPDATA%\agentv` on Windows). It holds what only the user decides:
 * the user config (`config.yaml`), the cache signing key (`cache.key`) and the trust store.
 *
 * @module
 */
import { join } from "node:path";

/**
 * The user's agentv folder from the environment, or `undefined` when neither `XDG_CONFIG_HOME`
 * nor `HOME` (`APPDATA` or `USERPROFILE` on Windows) is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userConfigDir } from "./user_config_dir.ts";
 * const env = (vars: Record<string, string>) => (name: string) => vars[name];
 * assert.equal(userConfigDir(env({ HOME: "/home/me" }), "linux"), "/home/me/.config/agentv");
 * assert.equal(userConfigDir(env({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), "linux"), "/x/agentv");
 * assert.equal(userConfigDir(env({}), "linux"), undefined);
 * ```
 */
export function userConfigDir(
  env: (name: string) => string | undefined,
  os: typeof Deno.build.os = Deno.build.os,
): string | undefined {
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg) return join(xdg, "agentv");
  if (os === "windows") {
    const appData = env("APPDATA");
    if (appData) return join(appData, "agentv");
  }
  const home = env("HOME") ?? (os === "windows" ? env("USERPROFILE") : undefined);
  return home ? join(home, ".config", "agentv") : undefined;
}
