/**
 * What sandbox a command agentv starts for a case runs in, from its settings (`schema/sandbox.ts`)
 * and the run's `--sandbox`: the kind (`bubblewrap`, `docker`, or none), the network rule, the
 * addresses it may reach and the extra paths it sees. Agent targets default to `bubblewrap` when
 * `bwrap` is installed (else no sandbox, with a one-line warning) and to `network: model-only`;
 * `cli` targets and code judges default to no sandbox and, when sandboxed, to `network: none`.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import type { NetworkMode, SandboxMode, SandboxSettings } from "../schema/sandbox.ts";
import { type Endpoint, parseHostPort, uniqueEndpoints } from "./sandbox_endpoint.ts";

export {
  type Endpoint,
  endpointOfUrl,
  formatEndpoint,
  parseHostPort,
  sameEndpoint,
  uniqueEndpoints,
} from "./sandbox_endpoint.ts";

/** How one command is sandboxed (absent: it is not). */
export interface SandboxPolicy {
  /** The kind of sandbox. */
  mode: Exclude<SandboxMode, "none">;
  /** What it may reach. */
  network: NetworkMode;
  /** With `model-only`: addresses it may reach besides its model endpoint (`allow_hosts`). */
  allowHosts: Endpoint[];
  /** More paths it may read (absolute). */
  readOnly: string[];
  /** More paths it may write (absolute). */
  writable: string[];
  /** The image of a `docker` sandbox. */
  image?: string;
  /** Where a `docker` sandbox mounts the working folder (default: the host's path). */
  workdir?: string;
}

/** Paths of executables already looked up, by `name` and `PATH`. */
const FOUND = new Map<string, string | undefined>();

/**
 * The path of the executable `name` on `path` (a `PATH` value), or `undefined`. Checks the file
 * system only (nothing is started); remembered per `name` and `path`.
 */
export function findExecutable(name: string, path: string | undefined): string | undefined {
  const key = `${name}\0${path ?? ""}`;
  if (FOUND.has(key)) return FOUND.get(key);
  let found: string | undefined;
  for (const dir of (path ?? "").split(":")) {
    if (!isAbsolute(dir)) continue;
    try {
      const info = Deno.statSync(join(dir, name));
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) {
        found = join(dir, name);
        break;
      }
    } catch { /* not there */ }
  }
  FOUND.set(key, found);
  return found;
}

/** What {@link sandboxPolicy} needs besides the settings. */
export interface SandboxPolicyOptions {
  /** `Claude Code target 'x'`, `Code judge 'y'`: starts warnings and errors. */
  label: string;
  /** An agent target (defaults `bubblewrap` and `model-only`) or another command. */
  agent: boolean;
  /** The run's `--sandbox`: wins over the setting. */
  override?: SandboxMode;
  /** Base of relative `read_only` / `writable` paths (the folder of the file naming them). */
  baseDir: string;
  /** The `PATH` `bwrap` is looked up on. */
  path?: string;
  /** Receives the warning that an agent runs without a sandbox because `bwrap` is missing. */
  onWarning?: (message: string) => void;
  /** Platform override for tests (default `Deno.build.os`). */
  os?: typeof Deno.build.os;
}

/** Whether `bwrap` could make a sandbox, by path (probed once per process). */
const PROBED = new Map<string, string | undefined>();

/**
 * Why bubblewrap cannot sandbox here, or `undefined` when it can: not Linux, no `bwrap` on
 * `path`, or a `bwrap` that cannot make the namespaces (e.g. user namespaces disabled or
 * restricted by AppArmor), found by starting `bwrap … true` once (agentv's own probe).
 */
export function bubblewrapProblem(
  options: Pick<SandboxPolicyOptions, "path" | "os">,
): string | undefined {
  const os = options.os ?? Deno.build.os;
  if (os !== "linux") return `bubblewrap runs on Linux only (this is ${os})`;
  const bwrap = findExecutable("bwrap", options.path);
  if (bwrap === undefined) return "bwrap (bubblewrap) is not installed";
  if (!PROBED.has(bwrap)) {
    let problem: string | undefined;
    try {
      const probe = new Deno.Command(bwrap, {
        args: ["--ro-bind", "/", "/", "--unshare-all", "--cap-drop", "ALL", "--dev", "/dev"]
          .concat(["--proc", "/proc", "--", "true"]),
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).outputSync();
      const said = new TextDecoder().decode(probe.stderr).trim().split("\n")[0];
      if (probe.code !== 0) {
        problem = `bwrap cannot make a sandbox here (${said || `exit ${probe.code}`})`;
      }
    } catch (error) {
      problem = `bwrap cannot be started (${(error as Error).message})`;
    }
    PROBED.set(bwrap, problem);
  }
  return PROBED.get(bwrap);
}

/** A sandbox that was asked for and cannot be given (a configuration error). */
export class SandboxUnavailableError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "SandboxUnavailableError";
  }
}

/**
 * The sandbox of a command from its settings, or `undefined` when it runs without one. Throws
 * {@link SandboxUnavailableError} when a sandbox named explicitly cannot be given (`bubblewrap`
 * without a working `bwrap` ({@link bubblewrapProblem}) or off Linux, `docker` without `image`);
 * an agent's default `bubblewrap` that cannot be had becomes no sandbox, with a warning through
 * `onWarning`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sandboxPolicy } from "./sandbox_policy.ts";
 * const warnings: string[] = [];
 * const policy = sandboxPolicy({ allow_hosts: ["registry.npmjs.org:443"] }, {
 *   label: "target 'a'", agent: true, baseDir: "/repo/.agentv", path: "/nowhere",
 *   onWarning: (w) => warnings.push(w),
 * });
 * // bwrap is not on PATH: the default sandbox is not available, and the run says so.
 * assert.equal(policy, undefined);
 * assert.equal(warnings.length, 1);
 * ```
 */
export function sandboxPolicy(
  settings: SandboxSettings,
  options: SandboxPolicyOptions,
): SandboxPolicy | undefined {
  const explicit = options.override ?? settings.sandbox;
  const mode = explicit ?? (options.agent ? "bubblewrap" : "none");
  if (mode === "none") return undefined;
  if (mode === "bubblewrap") {
    const why = bubblewrapProblem(options);
    if (why !== undefined) {
      if (explicit !== undefined) {
        throw new SandboxUnavailableError(
          `${options.label} asks for sandbox: bubblewrap, but ${why}; install bubblewrap ` +
            "(Debian/Ubuntu: apt-get install bubblewrap) where it can run, or set sandbox: docker or none",
        );
      }
      options.onWarning?.(
        `${options.label} runs without a sandbox: ${why}; set sandbox: none to silence this`,
      );
      return undefined;
    }
  }
  if (mode === "docker" && settings.image === undefined) {
    throw new SandboxUnavailableError(
      `${options.label} asks for sandbox: docker but names no image; set image (e.g. image: node:22)`,
    );
  }
  const absolute = (p: string) => resolve(options.baseDir, p);
  return {
    mode,
    network: settings.network ?? (options.agent ? "model-only" : "none"),
    allowHosts: uniqueEndpoints((settings.allow_hosts ?? []).map(parseHostPort)),
    readOnly: (settings.read_only ?? []).map(absolute),
    writable: (settings.writable ?? []).map(absolute),
    ...(settings.image !== undefined ? { image: settings.image } : {}),
    ...(settings.workdir !== undefined ? { workdir: settings.workdir } : {}),
  };
}
