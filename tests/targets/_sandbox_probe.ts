/**
 * Run inside a sandbox by tests/targets/sandbox_bubblewrap_process_test.ts: tries each network
 * attempt named on the command line and prints one JSON object, attempt → what happened
 * (`"ok: <first line of the answer>"` or `"refused: <error>"`). Attempts:
 *
 * - `get:URL`: a plain `fetch` (through `HTTP_PROXY` when the environment names one);
 * - `tcp:HOST:PORT`: a TCP connection, and a `GET /` on it;
 * - `connect:PROXY_PORT:HOST:PORT`: an HTTP `CONNECT` to the proxy on loopback, then `GET /`
 *   through the tunnel;
 * - `tls:PROXY_PORT:HOST:PORT:CA_FILE`: the same, with TLS through the tunnel (end to end with
 *   the server, for the name `localhost`, trusting `CA_FILE`).
 *
 * @module
 */
const results: Record<string, string> = {};

async function exchange(conn: Deno.Conn, request: string): Promise<string> {
  await conn.write(new TextEncoder().encode(request));
  const buffer = new Uint8Array(4096);
  const n = await conn.read(buffer);
  return new TextDecoder().decode(buffer.subarray(0, n ?? 0));
}

async function attempt(spec: string): Promise<string> {
  const [kind, ...rest] = spec.split(":");
  if (kind === "get") {
    const response = await fetch(rest.join(":"), { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    return `${response.status} ${text.split("\n")[0]}`;
  }
  if (kind === "tcp") {
    const conn = await Deno.connect({ hostname: rest[0], port: Number(rest[1]) });
    try {
      return (await exchange(conn, "GET / HTTP/1.0\r\n\r\n")).split("\r\n")[0];
    } finally {
      conn.close();
    }
  }
  const [proxyPort, host, port, caFile] = rest;
  let conn: Deno.Conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(proxyPort) });
  try {
    const head = await exchange(conn, `CONNECT ${host}:${port} HTTP/1.1\r\nHost: x\r\n\r\n`);
    if (!head.startsWith("HTTP/1.1 200")) return `proxy: ${head.split("\r\n")[0]}`;
    if (kind === "tls") {
      const caCerts = [await Deno.readTextFile(caFile)];
      conn = await Deno.startTls(conn as Deno.TcpConn, { hostname: "localhost", caCerts });
    }
    return (await exchange(conn, "GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")).split("\r\n")[0];
  } finally {
    conn.close();
  }
}

for (const spec of Deno.args) {
  try {
    results[spec] = `ok: ${await attempt(spec)}`;
  } catch (error) {
    results[spec] = `refused: ${(error as Error).name}`;
  }
}
console.log(JSON.stringify(results));
