/**
 * The forwarder that runs inside a sandbox with `network: model-only`. The sandbox has a network
 * of its own where only loopback exists; the forwarder listens there on the addresses it is given
 * (`127.0.0.1:PORT`, ...) and relays every connection, bytes unchanged, to a Unix socket bound
 * into the sandbox, behind which agentv (`sandbox_relay.ts`, outside) decides where, if anywhere,
 * the connection goes. It then starts the sandboxed command with its own standard streams and
 * environment, waits for it and exits with its status. It holds no policy: a process in the
 * sandbox that reaches the sockets itself meets the same rules.
 *
 * agentv starts it as `deno run … sandbox_forwarder.ts RULES -- ARGV…`, or (a compiled agentv)
 * as itself with the first argument {@link FORWARDER_ARG}. It imports nothing, so it runs with
 * `--no-config` and needs only this file.
 *
 * @module
 */

/** The first argument that makes `main.ts` (a compiled agentv) the forwarder. */
export const FORWARDER_ARG = "__agentv_sandbox_forwarder";

/** One address the forwarder listens on, and the socket its connections go to. */
export interface ForwardRule {
  /** Address to listen on (inside the sandbox). */
  host: string;
  /** Port to listen on. */
  port: number;
  /** Unix socket to relay each connection to. */
  socket: string;
}

/**
 * Copies `from` into `to` until `from` ends, then closes `to` for writing (the relay outside the
 * sandbox uses it too: this module imports nothing, so the copy lives here).
 */
export async function pump(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) break;
      let at = 0;
      while (at < n) at += await to.write(buffer.subarray(at, n));
    }
  } catch { /* either side went away */ }
  try {
    await to.closeWrite();
  } catch { /* already closed */ }
}

/** How long a connection waits for agentv's relay to listen (it starts beside the sandbox). */
const RELAY_WAIT_MS = 10_000;

/** Connects to the relay's socket, waiting while it is not there yet. */
async function connectRelay(path: string): Promise<Deno.Conn> {
  const deadline = Date.now() + RELAY_WAIT_MS;
  for (;;) {
    try {
      return await Deno.connect({ transport: "unix", path });
    } catch (error) {
      const early = error instanceof Deno.errors.NotFound ||
        error instanceof Deno.errors.ConnectionRefused;
      if (!early || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Relays `conn` to the Unix socket `path` both ways, then closes both. */
async function relay(conn: Deno.Conn, path: string): Promise<void> {
  let upstream: Deno.Conn;
  try {
    upstream = await connectRelay(path);
  } catch {
    conn.close();
    return;
  }
  await Promise.all([pump(conn, upstream), pump(upstream, conn)]);
  for (const c of [conn, upstream]) {
    try {
      c.close();
    } catch { /* already closed */ }
  }
}

async function serve(listener: Deno.Listener, socket: string): Promise<void> {
  try {
    for await (const conn of listener) relay(conn, socket);
  } catch { /* closed */ }
}

/**
 * Runs the forwarder: `args` is the JSON list of {@link ForwardRule}s, `--`, then the command to
 * start. Resolves to the command's exit code (128 + the signal number when a signal ended it).
 */
export async function runForwarder(args: readonly string[]): Promise<number> {
  const split = args.indexOf("--");
  if (split !== 1 || args.length < 3) {
    console.error("agentv sandbox forwarder: usage: RULES -- COMMAND [ARGS...]");
    return 125;
  }
  const rules = JSON.parse(args[0]) as ForwardRule[];
  const listeners: Deno.Listener[] = [];
  try {
    for (const rule of rules) {
      listeners.push(Deno.listen({ hostname: rule.host, port: rule.port }));
    }
  } catch (error) {
    console.error(`agentv sandbox forwarder: cannot listen: ${(error as Error).message}`);
    return 125;
  }
  listeners.forEach((listener, i) => serve(listener, rules[i].socket));
  const [program, ...rest] = args.slice(2);
  let child: Deno.ChildProcess;
  try {
    // The command agentv was permitted to start (see `sandbox_launch.ts`), passed on unchanged.
    child = new Deno.Command(program, {
      args: rest,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
  } catch (error) {
    console.error(`agentv sandbox: cannot start '${program}': ${(error as Error).message}`);
    return 127;
  }
  const status = await child.status;
  for (const listener of listeners) listener.close();
  return status.code;
}

if (import.meta.main) Deno.exit(await runForwarder(Deno.args));
