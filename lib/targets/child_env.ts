/**
 * The scrubbed environment of every subprocess a dataset defines (code judges, `cli` targets,
 * healthchecks): `PATH`, `HOME`, `LANG` and `TMPDIR` (on Windows also the variables programs
 * need to start: `SYSTEMROOT`, `PATHEXT`, `COMSPEC`, `TEMP`, `TMP`, `USERPROFILE`), plus the
 * names the evaluator or target lists under `env:`. API keys and `.env` values never reach a
 * subprocess unless listed.
 *
 * @module
 */

/** Variables every subprocess gets (when set). */
export const BASE_ENV_NAMES: readonly string[] = ["PATH", "HOME", "LANG", "TMPDIR"];

const WINDOWS_ENV_NAMES = ["SYSTEMROOT", "PATHEXT", "COMSPEC", "TEMP", "TMP", "USERPROFILE"];

/**
 * The environment for a subprocess: the base names and `listed` names taken from `source`
 * (names missing there are left out), then `extra` (agentv's own variables) on top.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { childEnv } from "./child_env.ts";
 * assert.deepEqual(childEnv({ PATH: "/bin", OPENAI_API_KEY: "sk-1", MY_FLAG: "1" }, ["MY_FLAG"]), {
 *   PATH: "/bin",
 *   MY_FLAG: "1",
 * });
 * ```
 */
export function childEnv(
  source: Readonly<Record<string, string>>,
  listed: readonly string[] = [],
  extra: Readonly<Record<string, string>> = {},
  os: typeof Deno.build.os = Deno.build.os,
): Record<string, string> {
  const names = [...BASE_ENV_NAMES, ...(os === "windows" ? WINDOWS_ENV_NAMES : []), ...listed];
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = os === "windows" ? lookupIgnoringCase(source, name) : source[name];
    if (value !== undefined) out[name] = value;
  }
  return { ...out, ...extra };
}

/**
 * The base names read from the process environment, for callers that were given no
 * environment (reading is skipped silently when `--allow-env` does not cover a name).
 */
export function processBaseEnv(listed: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const names = [
    ...BASE_ENV_NAMES,
    ...(Deno.build.os === "windows" ? WINDOWS_ENV_NAMES : []),
    ...listed,
  ];
  for (const name of names) {
    try {
      const value = Deno.env.get(name);
      if (value !== undefined) out[name] = value;
    } catch { /* not permitted: left out */ }
  }
  return out;
}

function lookupIgnoringCase(
  source: Readonly<Record<string, string>>,
  name: string,
): string | undefined {
  if (source[name] !== undefined) return source[name];
  const upper = name.toUpperCase();
  for (const [k, v] of Object.entries(source)) if (k.toUpperCase() === upper) return v;
  return undefined;
}

/**
 * The environment of an agent CLI: {@link childEnv} with the agent's own variables (every name in
 * `source` that `own` matches: its keys, endpoints and settings) and the `listed` names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentChildEnv } from "./child_env.ts";
 * assert.deepEqual(
 *   agentChildEnv({ PATH: "/bin", CODEX_HOME: "/c", OPENAI_API_KEY: "k", A: "a" }, /^CODEX_/, ["A"]),
 *   { PATH: "/bin", CODEX_HOME: "/c", A: "a" },
 * );
 * ```
 */
export function agentChildEnv(
  source: Readonly<Record<string, string>>,
  own: RegExp,
  listed: readonly string[] = [],
): Record<string, string> {
  return childEnv(source, [...Object.keys(source).filter((name) => own.test(name)), ...listed]);
}
