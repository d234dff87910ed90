/**
 * Addresses a sandboxed process may reach (`host:port`), as the sandbox's policy, its relay and
 * its forwarder see them. Imports nothing: the relay process loads it.
 *
 * @module
 */

/** An address a sandboxed process may reach: a host name or IP (no brackets) and a port. */
export interface Endpoint {
  /** Host name (lower case) or IP address (an IPv6 one without brackets). */
  host: string;
  /** TCP port. */
  port: number;
}

/** The default port of a URL's scheme. */
function defaultPort(protocol: string): number {
  return protocol === "https:" ? 443 : 80;
}

/**
 * The address a URL names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { endpointOfUrl } from "./sandbox_endpoint.ts";
 * assert.deepEqual(endpointOfUrl("https://api.anthropic.com/v1"), {
 *   host: "api.anthropic.com",
 *   port: 443,
 * });
 * assert.deepEqual(endpointOfUrl("http://[::1]:8080"), { host: "::1", port: 8080 });
 * ```
 */
export function endpointOfUrl(url: string | URL): Endpoint {
  const u = typeof url === "string" ? new URL(url) : url;
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return { host, port: u.port === "" ? defaultPort(u.protocol) : Number(u.port) };
}

/**
 * A `host:port` (as `allow_hosts` writes it) as an address.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHostPort } from "./sandbox_endpoint.ts";
 * assert.deepEqual(parseHostPort("Registry.npmjs.org:443"), {
 *   host: "registry.npmjs.org",
 *   port: 443,
 * });
 * assert.deepEqual(parseHostPort("[::1]:8080"), { host: "::1", port: 8080 });
 * ```
 */
export function parseHostPort(value: string): Endpoint {
  const at = value.lastIndexOf(":");
  const host = value.slice(0, at).replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return { host, port: Number(value.slice(at + 1)) };
}

/** `host:port`, with brackets around an IPv6 address. */
export function formatEndpoint(endpoint: Endpoint): string {
  const host = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host;
  return `${host}:${endpoint.port}`;
}

/** Whether two addresses are the same. */
export function sameEndpoint(a: Endpoint, b: Endpoint): boolean {
  return a.host === b.host && a.port === b.port;
}

/** The addresses of `list` without repeats, in order. */
export function uniqueEndpoints(list: readonly Endpoint[]): Endpoint[] {
  const out: Endpoint[] = [];
  for (const e of list) if (!out.some((o) => sameEndpoint(o, e))) out.push(e);
  return out;
}
