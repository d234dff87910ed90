/**
 * agentv's side of a sandbox's network (`network: model-only`): Unix sockets in the sandbox's
 * private folder, bound into the sandbox, where the forwarder inside (`sandbox_forwarder.ts`)
 * sends every connection made there. Each socket has one rule, enforced here, outside the
 * sandbox's reach:
 *
 * - a **direct** socket relays every connection to one fixed address (the model endpoint on
 *   loopback, which the forwarder serves at the same address and port inside);
 * - the **proxy** socket speaks the start of HTTP proxying: `CONNECT host:port` (a tunnel, so TLS
 *   runs end to end between the process and the real host) or a plain-HTTP request in absolute
 *   form (`GET http://host:port/… HTTP/1.1`, relayed unchanged). The address must be one of the
 *   allowed ones (the model endpoint, `allow_hosts`); anything else is answered `403` and noted.
 *
 * The request head is read with a bound (16 KiB); names are resolved here, outside, so the
 * sandbox needs no DNS.
 *
 * The relay runs as a process of its own ({@link runRelay}; started by `sandbox_relay_process.ts`
 * as `deno run … sandbox_relay.ts ROUTES`, or a compiled agentv with {@link RELAY_ARG}), with
 * Deno permissions for its sockets and the allowed addresses only: a second fence around the
 * rule, and agentv itself needs no permission for Unix sockets. It prints `ready` once it
 * listens, then one `{"refused":"host:port"}` line per address it refuses, and stops when its
 * standard input ends.
 *
 * @module
 */
import { type Endpoint, formatEndpoint, sameEndpoint } from "./sandbox_endpoint.ts";
import { pump } from "./sandbox_forwarder.ts";

/** The first argument that makes `main.ts` (a compiled agentv) a sandbox's relay. */
export const RELAY_ARG = "__agentv_sandbox_relay";

/** One socket of a relay and its rule. */
export type RelayRoute =
  | { socket: string; kind: "direct"; target: Endpoint }
  | { socket: string; kind: "proxy"; allowed: readonly Endpoint[] };

/** A running relay. */
export interface Relay {
  /** Addresses refused so far (`host:port`), in order, without repeats. */
  refused(): string[];
  /** Stops listening, closes every relayed connection and removes the sockets. */
  close(): Promise<void>;
}

/** Options of {@link startRelay}. */
export interface RelayOptions {
  /** Opens the connection to an allowed address (default `Deno.connect`). */
  connect?: (endpoint: Endpoint) => Promise<Deno.Conn>;
  /** Called with each address refused the first time (`host:port`). */
  onRefused?: (name: string) => void;
}

const ENCODER = new TextEncoder();
const ESTABLISHED = "HTTP/1.1 200 Connection established\r\n\r\n";

/** Longest proxy request head read. */
const HEAD_CAP = 16 * 1024;

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}

/** The request head (up to the blank line) and what followed it, or `undefined` past the cap. */
async function readHead(
  conn: Deno.Conn,
): Promise<{ head: string; rest: Uint8Array } | undefined> {
  const buffer = new Uint8Array(HEAD_CAP);
  let size = 0;
  while (size < HEAD_CAP) {
    const n = await conn.read(buffer.subarray(size));
    if (n === null) return undefined;
    size += n;
    const text = new TextDecoder("latin1").decode(buffer.subarray(0, size));
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      return { head: text.slice(0, end + 4), rest: buffer.slice(end + 4, size) };
    }
  }
  return undefined;
}

/**
 * Where a proxy request head asks to go: `CONNECT host:port`, or an absolute `http://` URL.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyTarget } from "./sandbox_relay.ts";
 * assert.deepEqual(proxyTarget("CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: x\r\n\r\n"), {
 *   connect: true,
 *   endpoint: { host: "api.anthropic.com", port: 443 },
 * });
 * assert.deepEqual(proxyTarget("GET http://127.0.0.1:8080/v1 HTTP/1.1\r\n\r\n"), {
 *   connect: false,
 *   endpoint: { host: "127.0.0.1", port: 8080 },
 * });
 * ```
 */
export function proxyTarget(
  head: string,
): { connect: boolean; endpoint: Endpoint } | undefined {
  const line = head.slice(0, head.indexOf("\r\n"));
  const match = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(line);
  if (match === null) return undefined;
  const [, method, target] = match;
  try {
    if (method === "CONNECT") {
      const url = new URL(`http://${target}`);
      if (url.port === "" || `${url.host}` !== target.toLowerCase()) return undefined;
      return { connect: true, endpoint: endpointOf(url) };
    }
    if (!/^http:\/\//i.test(target)) return undefined;
    return { connect: false, endpoint: endpointOf(new URL(target)) };
  } catch {
    return undefined;
  }
}

function endpointOf(url: URL): Endpoint {
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase(),
    port: url.port === "" ? 80 : Number(url.port),
  };
}

function answer(status: string, text: string): Uint8Array {
  const body = `agentv sandbox: ${text}\n`;
  return ENCODER.encode(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts listening on every route's socket (parent folders must exist).
 *
 * @example
 * ```ts ignore
 * const relay = startRelay([{ socket: "/tmp/box/sock/proxy.sock", kind: "proxy", allowed }]);
 * // … run the sandbox …
 * await relay.close();
 * ```
 */
export function startRelay(routes: readonly RelayRoute[], options: RelayOptions = {}): Relay {
  return new UnixRelay(routes, options);
}

/** The relay: one listener per route, every connection tracked until it is closed. */
class UnixRelay implements Relay {
  readonly #options: RelayOptions;
  readonly #connect: (endpoint: Endpoint) => Promise<Deno.Conn>;
  readonly #open = new Set<Deno.Conn>();
  readonly #refused: string[] = [];
  readonly #listeners: Deno.Listener[];
  readonly #tasks: Promise<void>[] = [];
  readonly #handling = new Set<Promise<void>>();
  readonly #sockets: string[];
  #closed = false;

  constructor(routes: readonly RelayRoute[], options: RelayOptions) {
    this.#options = options;
    this.#connect = options.connect ??
      ((e: Endpoint) => Deno.connect({ hostname: e.host, port: e.port }));
    this.#sockets = routes.map((r) => r.socket);
    this.#listeners = routes.map((r) => Deno.listen({ transport: "unix", path: r.socket }));
    routes.forEach((route, i) => this.#tasks.push(this.#accept(route, this.#listeners[i])));
  }

  refused(): string[] {
    return [...this.#refused];
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const listener of this.#listeners) {
      try {
        listener.close();
      } catch { /* already closed */ }
    }
    for (const conn of [...this.#open]) this.#drop(conn);
    await Promise.all([...this.#tasks, ...this.#handling]);
    await Promise.all(this.#sockets.map((s) => Deno.remove(s).catch(() => {})));
  }

  async #accept(route: RelayRoute, listener: Deno.Listener): Promise<void> {
    try {
      for await (const conn of listener) {
        const task = this.#handle(route, conn);
        this.#handling.add(task);
        task.finally(() => this.#handling.delete(task));
      }
    } catch { /* closed */ }
  }

  #drop(conn: Deno.Conn): void {
    this.#open.delete(conn);
    try {
      conn.close();
    } catch { /* already closed */ }
  }

  /** Opens `endpoint` and sends `first`; the connection, or why it failed. */
  async #dial(endpoint: Endpoint, first: Uint8Array): Promise<Deno.Conn | string> {
    let outer: Deno.Conn;
    try {
      outer = await this.#connect(endpoint);
    } catch (error) {
      return (error as Error).message;
    }
    this.#open.add(outer);
    if (this.#closed) {
      this.#drop(outer);
      return "the sandbox was closed";
    }
    try {
      if (first.length > 0) await writeAll(outer, first);
      return outer;
    } catch (error) {
      this.#drop(outer);
      return (error as Error).message;
    }
  }

  /** Reads a proxy request, checks its address, and opens it; undefined when refused. */
  async #proxy(route: Extract<RelayRoute, { kind: "proxy" }>, inner: Deno.Conn) {
    const read = await readHead(inner).catch(() => undefined);
    const wanted = read === undefined ? undefined : proxyTarget(read.head);
    if (read === undefined || wanted === undefined) {
      await writeAll(
        inner,
        answer("400 Bad Request", "only CONNECT host:port and http:// requests are relayed"),
      );
      return undefined;
    }
    const name = formatEndpoint(wanted.endpoint);
    if (!route.allowed.some((a) => sameEndpoint(a, wanted.endpoint))) {
      if (!this.#refused.includes(name)) {
        this.#refused.push(name);
        this.#options.onRefused?.(name);
      }
      await writeAll(
        inner,
        answer("403 Forbidden", `${name} is not allowed (network: model-only; see allow_hosts)`),
      );
      return undefined;
    }
    // A tunnel gets what followed the head; a plain request goes on as it came.
    const first = wanted.connect ? read.rest : concat(ENCODER.encode(read.head), read.rest);
    const outer = await this.#dial(wanted.endpoint, first);
    if (typeof outer === "string") {
      await writeAll(inner, answer("502 Bad Gateway", `${name}: ${outer}`));
      return undefined;
    }
    if (wanted.connect) await writeAll(inner, ENCODER.encode(ESTABLISHED));
    return outer;
  }

  async #handle(route: RelayRoute, inner: Deno.Conn): Promise<void> {
    this.#open.add(inner);
    let outer: Deno.Conn | undefined;
    try {
      if (route.kind === "direct") {
        const dialed = await this.#dial(route.target, new Uint8Array());
        outer = typeof dialed === "string" ? undefined : dialed;
      } else outer = await this.#proxy(route, inner);
      if (outer !== undefined) await Promise.all([pump(inner, outer), pump(outer, inner)]);
    } catch {
      /* a side went away */
    } finally {
      this.#drop(inner);
      if (outer !== undefined) this.#drop(outer);
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * The relay process: `args` is the JSON list of {@link RelayRoute}s. Listens, prints `ready`,
 * reports refusals on stdout, and stops when stdin ends; resolves to the exit code.
 */
export async function runRelay(args: readonly string[]): Promise<number> {
  const out = Deno.stdout.writable.getWriter();
  const say = (line: string) => out.write(ENCODER.encode(`${line}\n`)).catch(() => {});
  let relay: Relay;
  try {
    relay = startRelay(JSON.parse(args[0] ?? "[]") as RelayRoute[], {
      onRefused: (name) => say(JSON.stringify({ refused: name })),
    });
  } catch (error) {
    console.error(`agentv sandbox relay: ${(error as Error).message}`);
    return 1;
  }
  await say("ready");
  try {
    for await (const _ of Deno.stdin.readable) { /* until agentv closes it */ }
  } catch { /* agentv went away */ }
  await relay.close();
  return 0;
}

if (import.meta.main) Deno.exit(await runRelay(Deno.args));
