/**
 * The `bwrap` (bubblewrap) command line of a sandbox: the whole system bound read-only, fresh
 * `/dev` and `/proc`, every namespace of its own (user, PID, network unless `network: host`,
 * IPC, UTS, cgroup), no capabilities, a new session (no keystrokes into agentv's terminal), and
 * killed with agentv (`--die-with-parent`; when bwrap dies, the kernel ends every process of the
 * sandbox's PID namespace). Then the mounts of the sandbox's layout (`sandbox_launch.ts`), parents
 * before children: empty folders over the homes and `/run`, the private `/tmp` and home, the
 * writable workspace and the read-only paths it needs.
 *
 * @module
 */
import type { NetworkMode } from "../schema/sandbox.ts";

/** One mount of a sandbox's layout. */
export interface SandboxMount {
  /** `hide`: an empty writable folder in memory; `ro` / `rw`: a host path bound there. */
  kind: "hide" | "ro" | "rw";
  /** Where it is, inside. */
  path: string;
  /** The host path bound (default `path`); not for `hide`. */
  source?: string;
  /** Skipped when the source does not exist (extra paths a setting names). */
  optional?: boolean;
}

/** What {@link bwrapArgs} builds the command line from. */
export interface BwrapPlan {
  /** The layout (any order: parents are mounted before children). */
  mounts: readonly SandboxMount[];
  /** The network rule (`host` shares agentv's network; otherwise a network of its own). */
  network: NetworkMode;
  /** Working folder, inside. */
  cwd: string;
}

/** Mounts ordered parents first (a stable sort by depth: `hide` before a bind at the same path). */
export function mountOrder(mounts: readonly SandboxMount[]): SandboxMount[] {
  const depth = (p: string) => p.split("/").filter((s) => s !== "").length;
  return [...mounts].sort((a, b) => depth(a.path) - depth(b.path));
}

/**
 * The `bwrap` arguments (without the program) that run `command` in the sandbox `plan` describes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bwrapArgs } from "./sandbox_bwrap.ts";
 * const args = bwrapArgs({
 *   mounts: [{ kind: "rw", path: "/tmp/ws" }, { kind: "hide", path: "/home" }],
 *   network: "none",
 *   cwd: "/tmp/ws",
 * }, ["sh", "-c", "pwd"]);
 * // The homes are hidden first (parents before children), then the workspace is bound.
 * assert.deepEqual(args.slice(-11), [
 *   "--tmpfs", "/home", "--bind", "/tmp/ws", "/tmp/ws", "--chdir", "/tmp/ws", "--", "sh", "-c", "pwd",
 * ]);
 * ```
 */
export function bwrapArgs(plan: BwrapPlan, command: readonly string[]): string[] {
  const args = [
    "--die-with-parent",
    "--new-session",
    "--unshare-all",
    ...(plan.network === "host" ? ["--share-net"] : []),
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  for (const mount of mountOrder(plan.mounts)) {
    if (mount.kind === "hide") {
      args.push("--tmpfs", mount.path);
      continue;
    }
    const flag = mount.kind === "ro" ? "--ro-bind" : "--bind";
    args.push(mount.optional ? `${flag}-try` : flag, mount.source ?? mount.path, mount.path);
  }
  args.push("--chdir", plan.cwd, "--", ...command);
  return args;
}
