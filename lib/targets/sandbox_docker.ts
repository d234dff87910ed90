/**
 * The `docker` sandbox: `docker run --rm -i` of the target's `image`, with the same layout as the
 * bubblewrap one (`sandbox_launch.ts`): the workspace and the paths it needs mounted at their host
 * paths (or the workspace at `workdir`), a private home and `/tmp`, no capabilities, no new
 * privileges, the caller's uid and gid, and the network rule: `network: none` and `model-only`
 * run with `--network none` (only loopback), where the forwarder reaches agentv's relay through
 * the mounted socket folder, as in bubblewrap; `host` shares the host's network. Environment
 * values are passed by name (`-e NAME`), so they never appear on a command line.
 *
 * Killing the `docker` client does not stop a container: on a timeout or an interruption agentv
 * runs `docker kill <name>` ({@link stopContainer}), and on exit every container still running.
 * Checked against a stand-in `docker` that records its arguments; unverified on a real daemon
 * here.
 *
 * @module
 */
import type { NetworkMode } from "../schema/sandbox.ts";
import { mountOrder, type SandboxMount } from "./sandbox_bwrap.ts";
import type { SandboxPolicy } from "./sandbox_policy.ts";

/** What {@link dockerRunArgs} builds the command line from. */
export interface DockerPlan {
  /** The container's name (`agentv-<random>`): what {@link stopContainer} kills. */
  name: string;
  /** The image. */
  image: string;
  /** The layout (`hide` becomes an empty `--tmpfs`). */
  mounts: readonly SandboxMount[];
  /** The network rule. */
  network: NetworkMode;
  /** Working folder, inside. */
  cwd: string;
  /** Names of the environment variables passed in (their values come from the client's env). */
  envNames: readonly string[];
  /** `uid:gid` the command runs as (default: the image's user). */
  user?: string;
}

/** A `--mount` field, quoted as CSV when it holds a comma or a quote. */
function field(text: string): string {
  return /[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The `docker` arguments (without the program) that run `command` in the sandbox `plan` describes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dockerRunArgs } from "./sandbox_docker.ts";
 * const args = dockerRunArgs({
 *   name: "agentv-1", image: "node:22", network: "none", cwd: "/ws", envNames: ["HOME"],
 *   mounts: [{ kind: "rw", path: "/ws", source: "/tmp/case" }],
 * }, ["node", "-v"]);
 * assert.deepEqual(args.slice(0, 6), ["run", "--rm", "-i", "--name", "agentv-1", "--network"]);
 * assert.ok(args.includes("type=bind,source=/tmp/case,target=/ws"));
 * assert.deepEqual(args.slice(-3), ["node:22", "node", "-v"]);
 * ```
 */
export function dockerRunArgs(plan: DockerPlan, command: readonly string[]): string[] {
  const args = [
    "run",
    "--rm",
    "-i",
    "--name",
    plan.name,
    "--network",
    plan.network === "host" ? "host" : "none",
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    ...(plan.user !== undefined ? ["--user", plan.user] : []),
  ];
  for (const mount of mountOrder(plan.mounts)) {
    if (mount.kind === "hide") {
      args.push("--tmpfs", mount.path);
      continue;
    }
    const spec = [
      "type=bind",
      `source=${mount.source ?? mount.path}`,
      `target=${mount.path}`,
      ...(mount.kind === "ro" ? ["readonly"] : []),
    ].map(field).join(",");
    args.push("--mount", spec);
  }
  args.push("-w", plan.cwd);
  for (const name of plan.envNames) args.push("-e", name);
  args.push(plan.image, ...command);
  return args;
}

/** Containers started and not yet known to be gone, by name, with their `docker` program. */
const liveContainers = new Map<string, string>();
globalThis.addEventListener?.("unload", () => {
  for (const [name, docker] of liveContainers) {
    try {
      new Deno.Command(docker, { args: ["kill", name], stdout: "null", stderr: "null" })
        .outputSync();
    } catch { /* no docker, or already gone */ }
  }
});

/** Notes a container as running (killed if agentv exits first) or, with `false`, as gone. */
export function trackContainer(docker: string, name: string, live = true): void {
  if (live) liveContainers.set(name, docker);
  else liveContainers.delete(name);
}

/**
 * Stops and removes the container `name` (`docker kill`; `--rm` removes it). agentv's own command,
 * on a name it made: never the dataset's. Errors (already gone) are ignored.
 */
export async function stopContainer(docker: string, name: string): Promise<void> {
  try {
    await new Deno.Command(docker, { args: ["kill", name], stdout: "null", stderr: "null" })
      .output();
  } catch { /* no docker */ }
}

/** What {@link dockerPlan} needs of an opened sandbox. */
export interface DockerLayout {
  /** The container's name. */
  name: string;
  /** The sandbox's layout (its `hide` mounts are the host's business, not the image's). */
  mounts: readonly SandboxMount[];
  /** The environment (passed by name). */
  env: Readonly<Record<string, string>>;
  /** The working folder (host path). */
  cwd: string;
  /** The sandbox's private folder (made by agentv: its owner is agentv's uid and gid). */
  dir: string;
}

/**
 * The docker plan of a sandbox: binds only (the image has its own system; a bind whose optional
 * source is missing is left out), the working folder at `workdir` when set, agentv's uid and gid
 * (the owner of the folder it just made: no `--allow-sys` needed).
 */
export function dockerPlan(policy: SandboxPolicy, layout: DockerLayout): DockerPlan {
  const workdir = policy.workdir ?? layout.cwd;
  const mounts = layout.mounts
    .filter((m) => m.kind !== "hide" && !(m.optional && !exists(m.source ?? m.path)))
    .map((m) =>
      m.path === layout.cwd && policy.workdir !== undefined
        ? { ...m, path: workdir, source: m.source ?? m.path }
        : m
    );
  let user: string | undefined;
  try {
    const { uid, gid } = Deno.statSync(layout.dir);
    if (uid !== null && gid !== null) user = `${uid}:${gid}`;
  } catch { /* the image's user */ }
  return {
    name: layout.name,
    image: policy.image ?? "",
    mounts,
    network: policy.network,
    cwd: workdir,
    envNames: Object.keys(layout.env).sort(),
    ...(user !== undefined ? { user } : {}),
  };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
