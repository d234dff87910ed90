/**
 * Finds the real agent CLIs (Claude Code, Codex, Gemini CLI, Qwen Code, GitHub Copilot CLI,
 * opencode) for the end-to-end tests. `.ci/run` installs the
 * pinned versions below with npm into a tools folder outside the repo
 * (`$AGENTV_TOOLS_DIR`, default `$HOME/.cache/agentv-tools`); `.ci/run` reads the versions from
 * this file, so this is the one place they are pinned.
 *
 * A test that needs a CLI is ignored (with a message printed once) when the CLI is missing,
 * except with `CI=true`: then it runs and fails with the reason and the fix. On Windows the tests
 * are always ignored (the npm shims are not executables; CI installs the CLIs on Linux and macOS).
 *
 * ```ts ignore
 * const claude = await locateAgentCli("claude");
 * Deno.test({ name: "…", ignore: claude.ignore, async fn() {
 *   const bin = claude.require(); // throws the clear message in CI when missing
 * } });
 * ```
 *
 * @module
 */
import { join } from "node:path";

/** Pinned `@anthropic-ai/claude-code` version (read by `.ci/run`). */
export const CLAUDE_CODE_VERSION = "2.1.332";
/** Pinned `@openai/codex` version (read by `.ci/run`). */
export const CODEX_VERSION = "0.169.0";
/** Pinned `@google/gemini-cli` version (read by `.ci/run`). */
export const GEMINI_CLI_VERSION = "0.61.0";
/** Pinned `@qwen-code/qwen-code` version (read by `.ci/run`). */
export const QWEN_CODE_VERSION = "0.24.4";
/** Pinned `@github/copilot` version (read by `.ci/run`). */
export const COPILOT_CLI_VERSION = "1.0.102";
/** Pinned `opencode-ai` version (read by `.ci/run`). */
export const OPENCODE_VERSION = "1.18.33";

/** The agent CLIs the tests use (by executable name). */
export type AgentCliName = "claude" | "codex" | "gemini" | "qwen" | "copilot" | "opencode";

const PACKAGES: Record<AgentCliName, { pkg: string; version: string }> = {
  claude: { pkg: "@anthropic-ai/claude-code", version: CLAUDE_CODE_VERSION },
  codex: { pkg: "@openai/codex", version: CODEX_VERSION },
  gemini: { pkg: "@google/gemini-cli", version: GEMINI_CLI_VERSION },
  qwen: { pkg: "@qwen-code/qwen-code", version: QWEN_CODE_VERSION },
  copilot: { pkg: "@github/copilot", version: COPILOT_CLI_VERSION },
  opencode: { pkg: "opencode-ai", version: OPENCODE_VERSION },
};

/** Where `.ci/run` installs the CLIs: `$AGENTV_TOOLS_DIR`, else `$HOME/.cache/agentv-tools`. */
export function agentToolsDir(): string {
  const fromEnv = Deno.env.get("AGENTV_TOOLS_DIR");
  if (fromEnv) return fromEnv;
  return join(Deno.env.get("HOME") ?? "/tmp", ".cache", "agentv-tools");
}

/** The result of looking for one CLI. */
export interface LocatedAgentCli {
  /** Which CLI. */
  name: AgentCliName;
  /** Absolute path of the executable, when the pinned version is installed. */
  path?: string;
  /** Whether tests needing it should be ignored (missing, and not in CI). */
  ignore: boolean;
  /** Why it is unusable, with the fix (absent when found). */
  reason?: string;
  /** The executable path; throws the reason when it is missing (what a CI test fails with). */
  require(): string;
}

const warned = new Set<AgentCliName>();

/**
 * Looks for the pinned version of `name` in the tools folder (by the installed package's
 * `package.json`, without starting it).
 */
export async function locateAgentCli(name: AgentCliName): Promise<LocatedAgentCli> {
  const dir = agentToolsDir();
  const { pkg, version } = PACKAGES[name];
  const path = join(dir, "node_modules", ".bin", name);
  let reason: string | undefined;
  try {
    const manifest = JSON.parse(
      await Deno.readTextFile(join(dir, "node_modules", pkg, "package.json")),
    ) as { version?: string };
    if (manifest.version !== version) {
      reason = `${pkg}@${manifest.version} is installed in ${dir}, but the tests pin ${version}`;
    } else if (!(await isFile(path))) {
      reason = `${pkg}@${version} is installed in ${dir}, but ${path} is missing`;
    }
  } catch {
    reason = `${pkg}@${version} is not installed in ${dir}`;
  }
  if (reason !== undefined) {
    reason +=
      `; run .ci/run (or: npm install --prefix "${dir}" --save-exact ${pkg}@${version}) to run the ${name} end-to-end tests`;
  }
  if (Deno.build.os === "windows") {
    reason = `the ${name} end-to-end tests do not run on Windows`;
  }
  const inCi = Deno.env.get("CI") === "true" && Deno.build.os !== "windows";
  if (reason !== undefined && !inCi && !warned.has(name)) {
    warned.add(name);
    console.warn(`ignoring the ${name} end-to-end tests: ${reason}`);
  }
  return {
    name,
    ...(reason === undefined ? { path } : { reason }),
    ignore: reason !== undefined && !inCi,
    require() {
      if (reason !== undefined) throw new Error(`${reason} (CI=true requires it)`);
      return path;
    },
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
