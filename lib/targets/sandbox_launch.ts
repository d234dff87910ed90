/**
 * Opens the sandbox of one process agentv starts for a case (an agent, a `cli` command, a code
 * judge, a `workspace_repo` setup command): a private folder, the relay of its network
 * (`sandbox_relay.ts`) and the command line that starts the permitted argv inside `bwrap` or
 * `docker`. What the process sees:
 *
 * - the system read-only; `/run` (sockets such as Docker's), the homes (`/home`, `/root`, `$HOME`),
 *   `/var/tmp` and the folders the caller hides (an agent's dataset root) behind empty folders; a private, empty, writable `$HOME` (at the same
 *   path) and `/tmp` (`TMPDIR=/tmp`), both deleted with the sandbox; the files a CLI needs in its
 *   home to run headless written there first;
 * - writable: the case's workspace and the paths the caller and `writable` name; read-only: the
 *   paths the caller and `read_only` name, the executable's install folder (an npm package's
 *   `node_modules`, else the executable's folder), and the `PATH` folders inside a hidden home;
 * - `network: none`: only loopback, nothing listening; `host`: the host's network;
 *   `model-only`: only loopback, where the forwarder (`sandbox_forwarder.ts`) serves each model
 *   endpoint on loopback at its own address and port, and an HTTP proxy at `127.0.0.1:3128`
 *   (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, lower-case too, and `NODE_USE_ENV_PROXY=1`) that
 *   reaches the other allowed addresses (`CONNECT` for HTTPS, so TLS stays end to end).
 *
 * The command itself is the permitted argv, unchanged, after the sandbox's own prefix.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ownModuleRun } from "../fs/own_module_run.ts";
import { bwrapArgs, type SandboxMount } from "./sandbox_bwrap.ts";
import { dockerPlan, dockerRunArgs, stopContainer, trackContainer } from "./sandbox_docker.ts";
import { hiddenRoots, isInside, locateProgram, programMounts, realPath } from "./sandbox_paths.ts";
import { FORWARDER_ARG, type ForwardRule } from "./sandbox_forwarder.ts";
import {
  type Endpoint,
  findExecutable,
  type SandboxPolicy,
  SandboxUnavailableError,
  uniqueEndpoints,
} from "./sandbox_policy.ts";
import type { RelayRoute } from "./sandbox_relay.ts";
import { type RelayProcess, startRelayProcess } from "./sandbox_relay_process.ts";

/** What runs in the sandbox, and what it needs. */
export interface SandboxRequest {
  /** The permitted command: program, then arguments. */
  argv: readonly string[];
  /** Its environment (already scrubbed). */
  env: Readonly<Record<string, string>>;
  /** Its working folder (host path). */
  cwd: string;
  /** Paths it writes: the workspace, the CLI's own state folder, an output folder. */
  writable?: readonly string[];
  /** Paths it reads: input files, the dataset folders a command uses. */
  readOnly?: readonly string[];
  /** With `network: model-only`: its model endpoints (reached besides `allow_hosts`). */
  endpoints?: readonly Endpoint[];
  /** Files written into the private home first (paths relative to it, without `..`). */
  homeFiles?: readonly { path: string; text: string }[];
  /**
   * Folders hidden besides the homes (an agent's dataset root); what the request binds inside
   * one stays visible. A folder holding a system folder (`/usr`, `/etc`, …) is never hidden.
   */
  hide?: readonly string[];
  /** Folder of the private folder (default the OS temp folder). */
  tempDir?: string;
}

/** An open sandbox: what to start, and how to end it. */
export interface OpenSandbox {
  /** The argv to start in place of the request's. */
  argv: string[];
  /** Its environment. */
  env: Record<string, string>;
  /** The host folder to start it in. */
  cwd: string;
  /** Stops what lives outside the started process's group (a container); on timeout or abort. */
  stop(): void;
  /** Addresses the relay refused (`host:port`). */
  refused(): string[];
  /** What went wrong with the sandbox itself so far (its relay did not start), if anything. */
  problem(): string | undefined;
  /** Stops the relay and removes the private folder. */
  close(): Promise<void>;
}

/** Where the relay's sockets are, inside. */
const SOCKETS_INSIDE = "/run/agentv";
/** The proxy's first choice of port. */
const PROXY_PORT = 3128;
const PROXY_VARIABLES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"];

/** Whether `host` is a loopback address (`localhost`, `127.x.x.x`, `::1`). */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** How agentv starts the forwarder: itself (compiled) or `deno run` of its module. */
function forwarderCommand(): { argv: string[]; files: string[] } {
  const program = Deno.execPath();
  if (Deno.build.standalone) return { argv: [program, FORWARDER_ARG], files: [program] };
  const module = new URL("./sandbox_forwarder.ts", import.meta.url);
  if (module.protocol !== "file:") {
    throw new SandboxUnavailableError(
      "network: model-only needs agentv's files on disk (its forwarder runs in the sandbox); " +
        "run agentv from a clone or a compiled binary, or set network: none or host",
    );
  }
  const path = fileURLToPath(module);
  return {
    argv: [
      program,
      ...ownModuleRun(module),
      "--allow-net",
      `--allow-read=${SOCKETS_INSIDE}`,
      `--allow-write=${SOCKETS_INSIDE}`,
      "--allow-run",
      path,
    ],
    files: [program, path],
  };
}

/** The network of a `model-only` sandbox: relay routes, forwarder rules and proxy variables. */
function modelOnlyNetwork(endpoints: readonly Endpoint[], socketDir: string) {
  const routes: RelayRoute[] = [];
  const rules: ForwardRule[] = [];
  const direct: string[] = [];
  // A loopback endpoint is served at its own address; one below port 1024 cannot be (binding
  // it needs a privilege the sandbox drops): it stays reachable through the proxy only.
  for (const endpoint of endpoints.filter((e) => isLoopback(e.host) && e.port >= 1024)) {
    const socket = `d${routes.length}.sock`;
    routes.push({ socket: join(socketDir, socket), kind: "direct", target: endpoint });
    const host = endpoint.host === "localhost" ? "127.0.0.1" : endpoint.host;
    rules.push({ host, port: endpoint.port, socket: `${SOCKETS_INSIDE}/${socket}` });
    direct.push(endpoint.host);
  }
  let port = PROXY_PORT;
  while (rules.some((r) => r.host === "127.0.0.1" && r.port === port)) port++;
  routes.push({ socket: join(socketDir, "p.sock"), kind: "proxy", allowed: endpoints });
  rules.push({ host: "127.0.0.1", port, socket: `${SOCKETS_INSIDE}/p.sock` });
  const proxy = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { NODE_USE_ENV_PROXY: "1" };
  for (const name of PROXY_VARIABLES) env[name] = env[name.toLowerCase()] = proxy;
  env.NO_PROXY = env.no_proxy = [...new Set(["localhost", "127.0.0.1", "::1", ...direct])]
    .join(",");
  return { routes, rules, env };
}

/**
 * Opens the sandbox `policy` describes for `request`. Throws `Deno.errors.NotFound` when the
 * program does not exist (as starting it would), {@link SandboxUnavailableError} when the sandbox
 * cannot be made (no `docker` on `PATH`, its relay did not start).
 *
 * @example
 * ```ts ignore
 * const box = await openSandbox(policy, { argv: ["claude", "-p"], env, cwd: workspace });
 * try {
 *   await runAgentCli({ command: box.argv[0], args: box.argv.slice(1), env: box.env, ... });
 * } finally {
 *   await box.close();
 * }
 * ```
 */
export async function openSandbox(
  policy: SandboxPolicy,
  request: SandboxRequest,
): Promise<OpenSandbox> {
  // A docker image has programs of its own; a bubblewrap sandbox runs the host's.
  const onHost = policy.mode === "bubblewrap";
  if (onHost && locateProgram(request.argv[0], request.env, request.cwd) === undefined) {
    throw new Deno.errors.NotFound(`'${request.argv[0]}' was not found`);
  }
  const docker = policy.mode === "docker" ? findExecutable("docker", request.env.PATH) : undefined;
  if (policy.mode === "docker" && docker === undefined) {
    throw new SandboxUnavailableError("sandbox: docker needs the docker command on PATH");
  }
  const bwrap = policy.mode === "bubblewrap"
    ? findExecutable("bwrap", request.env.PATH) ?? "bwrap"
    : undefined;
  const dir = await Deno.makeTempDir({
    prefix: "agentv-box-",
    ...(request.tempDir !== undefined ? { dir: request.tempDir } : {}),
  });
  const remove = () => Deno.remove(dir, { recursive: true }).catch(() => {});
  try {
    for (const sub of ["home", "tmp", "sock"]) await Deno.mkdir(join(dir, sub));
    await seedHome(join(dir, "home"), request.homeFiles ?? []);
    const layout = sandboxLayout(policy, request, dir);
    const relay: RelayProcess | undefined = layout.routes.length > 0
      ? startRelayProcess(layout.routes, request.env)
      : undefined;
    const name = `agentv-${crypto.randomUUID()}`;
    const command = [...layout.prefix, ...request.argv];
    const argv = docker !== undefined
      ? [
        docker,
        ...dockerRunArgs(dockerPlan(policy, { ...layout, name, dir, cwd: request.cwd }), command),
      ]
      : [
        bwrap!,
        ...bwrapArgs({ mounts: layout.mounts, network: policy.network, cwd: request.cwd }, command),
      ];
    if (docker !== undefined) trackContainer(docker, name);
    let stopping: Promise<void> | undefined;
    let problem: string | undefined;
    relay?.ready.catch((error) => problem = (error as Error).message);
    return {
      argv,
      env: layout.env,
      cwd: request.cwd,
      stop: () => {
        if (docker !== undefined) stopping ??= stopContainer(docker, name);
      },
      refused: () => relay?.refused() ?? [],
      problem: () => problem,
      close: async () => {
        await stopping;
        if (docker !== undefined) trackContainer(docker, name, false);
        await relay?.close();
        await remove();
      },
    };
  } catch (error) {
    await remove();
    if (error instanceof SandboxUnavailableError) throw error;
    throw new SandboxUnavailableError((error as Error).message);
  }
}

/** Writes `files` into the private home `home` (a path that would leave it is a bug: throws). */
async function seedHome(
  home: string,
  files: readonly { path: string; text: string }[],
): Promise<void> {
  for (const file of files) {
    const path = resolve(home, file.path);
    if (isAbsolute(file.path) || !isInside(path, home) || path === home) {
      throw new Error(`a home file must stay inside the home, got '${file.path}'`);
    }
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, file.text, { mode: 0o600 });
  }
}

/** Folders a sandbox must keep: hiding a folder that holds one would break every program. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/opt", "/nix", "/var"];

/** The folders of `paths` that may be hidden: absolute, existing, holding no system folder. */
function hideable(paths: readonly string[]): string[] {
  return paths.filter((p) => isAbsolute(p)).map((p) => realPath(resolve(p)))
    .filter((p) => p !== "/" && !SYSTEM_DIRS.some((s) => isInside(s, p)))
    .filter((p) => {
      try {
        return Deno.statSync(p).isDirectory;
      } catch {
        return false;
      }
    });
}

/** The mounts, environment, relay routes and command prefix of one sandbox. */
interface SandboxLayout {
  mounts: SandboxMount[];
  env: Record<string, string>;
  routes: RelayRoute[];
  prefix: string[];
}

function sandboxLayout(policy: SandboxPolicy, request: SandboxRequest, dir: string): SandboxLayout {
  const hidden = [...new Set([...hiddenRoots(request.env), ...hideable(request.hide ?? [])])];
  const env: Record<string, string> = { ...request.env, TMPDIR: "/tmp" };
  const home = request.env.HOME !== undefined && isAbsolute(request.env.HOME) &&
      resolve(request.env.HOME) !== "/"
    ? resolve(request.env.HOME)
    : join(dir, "home");
  env.HOME = home;
  const mounts: SandboxMount[] = [
    ...hidden.map((path): SandboxMount => ({ kind: "hide", path })),
    { kind: "rw", path: "/tmp", source: join(dir, "tmp") },
    { kind: "rw", path: home, source: join(dir, "home") },
    ...pathMounts(policy, request, hidden),
  ];
  let routes: RelayRoute[] = [];
  let prefix: string[] = [];
  if (policy.network === "model-only") {
    const endpoints = uniqueEndpoints([...(request.endpoints ?? []), ...policy.allowHosts]);
    const network = modelOnlyNetwork(endpoints, join(dir, "sock"));
    const forwarder = forwarderCommand();
    routes = network.routes;
    prefix = [...forwarder.argv, JSON.stringify(network.rules), "--"];
    Object.assign(env, network.env);
    mounts.push({ kind: "ro", path: SOCKETS_INSIDE, source: join(dir, "sock") });
    mounts.push(...forwarder.files.map((path): SandboxMount => ({ kind: "ro", path })));
  } else if (policy.network === "none") {
    for (const name of PROXY_VARIABLES) delete env[name], delete env[name.toLowerCase()];
  } else {
    // The host's network: name resolution may need the resolver's file under the hidden /run.
    const resolv = realPath("/etc/resolv.conf");
    if (isInside(resolv, "/run")) mounts.push({ kind: "ro", path: resolv, optional: true });
  }
  return { mounts, env, routes, prefix };
}

/**
 * The host paths the process sees: what the request and the policy name writable, then
 * read-only (those inside a writable one left out: writable wins), the program's folders, and
 * the working folder when nothing else shows it.
 */
function pathMounts(
  policy: SandboxPolicy,
  request: SandboxRequest,
  hidden: readonly string[],
): SandboxMount[] {
  const rw = (path: string, optional = true): SandboxMount => ({ kind: "rw", path, optional });
  const writable = [
    ...(request.writable ?? []).map((p) => rw(p, false)),
    ...policy.writable.map((p) => rw(p)),
  ];
  const readOnly = [
    ...(request.readOnly ?? []),
    ...policy.readOnly,
    ...programMounts(request.argv[0], request.env, request.cwd, hidden),
  ].filter((p) => !writable.some((w) => isInside(p, w.path)))
    .map((path): SandboxMount => ({ kind: "ro", path, optional: true }));
  const mounts = [...writable, ...readOnly];
  // The working folder, when nothing above makes it visible (e.g. a folder of the dataset).
  if (!mounts.some((m) => isInside(request.cwd, m.path))) {
    mounts.push({ kind: "ro", path: request.cwd });
  }
  return mounts;
}
