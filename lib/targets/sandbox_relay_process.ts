/**
 * Starts the relay of a `network: model-only` sandbox (`sandbox_relay.ts`) as a process of its
 * own: agentv itself (a compiled agentv, {@link RELAY_ARG}) or `deno run` of the relay module
 * with permissions for the sandbox's sockets and the allowed addresses only. Waits until it
 * listens; collects the addresses it refuses; stops it by closing its standard input.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { ownModuleRun } from "../fs/own_module_run.ts";
import { type Endpoint, formatEndpoint } from "./sandbox_endpoint.ts";
import { RELAY_ARG, type RelayRoute } from "./sandbox_relay.ts";

/** A running relay process. */
export interface RelayProcess {
  /** Resolves once it listens; rejects with its error output when it exits first. */
  ready: Promise<void>;
  /** Addresses refused so far (`host:port`). */
  refused(): string[];
  /** Stops it and waits until it has exited. */
  close(): Promise<void>;
}

/** How long the relay may take to start listening before the sandbox gives up. */
const READY_TIMEOUT_MS = 30_000;

/** Deno's permission lists are comma-separated; a comma in a path is written twice. */
const list = (items: readonly string[]) => items.map((p) => p.replaceAll(",", ",,")).join(",");

/** The command that starts the relay for `routes`. */
export function relayCommand(routes: readonly RelayRoute[]): string[] {
  const program = Deno.execPath();
  const json = JSON.stringify(routes);
  if (Deno.build.standalone) return [program, RELAY_ARG, json];
  const module = new URL("./sandbox_relay.ts", import.meta.url);
  const sockets = routes.map((r) => r.socket);
  const addresses = new Set<string>();
  for (const route of routes) {
    const targets: readonly Endpoint[] = route.kind === "direct" ? [route.target] : route.allowed;
    for (const target of targets) addresses.add(formatEndpoint(target));
  }
  return [
    program,
    ...ownModuleRun(module),
    `--allow-net=${list([...sockets.map((s) => `unix:${s}`), ...addresses])}`,
    `--allow-read=${list(sockets)}`,
    `--allow-write=${list(sockets)}`,
    module.protocol === "file:" ? fileURLToPath(module) : module.href,
    json,
  ];
}

/** Reads the relay's stdout: `ready`, then `{"refused": "host:port"}` lines. */
async function readReports(
  stdout: ReadableStream<Uint8Array>,
  on: { ready(): void; refused(name: string): void },
): Promise<void> {
  let pending = "";
  for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
    pending += chunk;
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line === "ready") on.ready();
      else if (line.startsWith("{")) {
        try {
          const name = (JSON.parse(line) as { refused?: unknown }).refused;
          if (typeof name === "string") on.refused(name);
        } catch { /* not ours */ }
      }
    }
  }
}

/**
 * Starts the relay; its `ready` resolves once it listens and rejects with its error output when
 * it exits first (or takes longer than 30 s). The sandbox need not wait for it: the forwarder
 * inside waits for the sockets (so the relay's start-up overlaps the sandbox's).
 *
 * @example
 * ```ts ignore
 * const relay = await startRelayProcess(routes, { PATH: "/usr/bin" });
 * try { … } finally { await relay.close(); }
 * ```
 */
export function startRelayProcess(
  routes: readonly RelayRoute[],
  env: Readonly<Record<string, string>>,
): RelayProcess {
  const [program, ...args] = relayCommand(routes);
  const childEnv: Record<string, string> = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    if (env[name] !== undefined) childEnv[name] = env[name];
  }
  // agentv's own process (its executable, or deno running its own relay module).
  const child = new Deno.Command(program, {
    args,
    clearEnv: true,
    env: childEnv,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const refused: string[] = [];
  const stderr = new Response(child.stderr).text().catch(() => "");
  let markReady: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => markReady = resolve);
  const reading = readReports(child.stdout, {
    ready: () => markReady(true),
    refused: (name) => refused.includes(name) || refused.push(name),
  }).then(() => markReady(false), () => markReady(false));
  const stdin = child.stdin.getWriter();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) =>
    timer = setTimeout(resolve, READY_TIMEOUT_MS, false)
  );
  const close = async () => {
    await stdin.close().catch(() => {});
    const kill = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 2000);
    await child.status;
    clearTimeout(kill);
    await Promise.all([reading, stderr]);
  };
  const started = Promise.race([ready, timeout]).then(async (ok) => {
    clearTimeout(timer);
    if (ok) return;
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    const detail = (await stderr).trim().slice(-2000);
    throw new Error(`the sandbox's network relay did not start${detail ? `: ${detail}` : ""}`);
  });
  started.catch(() => {}); // reported through `ready` to whoever asks
  return {
    ready: started,
    refused: () => [...refused],
    close: async () => {
      clearTimeout(timer);
      await close();
    },
  };
}
