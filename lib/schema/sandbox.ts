/**
 * The sandbox settings of every command agentv starts for a case: agent targets (`claude-code`,
 * `codex`, ...), `cli` targets (and their command healthcheck) and script code judges and
 * aggregators. One declaration, used by the target settings schemas and the evaluator schemas:
 *
 * - `sandbox`: `none` | `bubblewrap` | `docker` (default `bubblewrap` for agent targets when `bwrap`
 *   is installed, else `none` with a warning; `none` for `cli` targets and code judges);
 * - `network`: `model-only` | `none` | `host` (default `model-only` for agent targets, `none`
 *   otherwise): what the sandboxed process may reach;
 * - `allow_hosts`: more `host:port` addresses it may reach with `model-only`;
 * - `read_only`, `writable`: more paths it sees (absolute, or relative to the file that names them);
 * - `image`, `workdir`: the image a `docker` sandbox runs and where the workspace is mounted in it.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import type { Parsed } from "./run_option.ts";
import { suggest } from "../text/suggest.ts";

/** A kind of sandbox (`sandbox:`, `--sandbox`). */
export type SandboxMode = "none" | "bubblewrap" | "docker";
/** Every kind of sandbox. */
export const SANDBOX_MODES: readonly ["none", "bubblewrap", "docker"] = [
  "none",
  "bubblewrap",
  "docker",
];

/** What a sandboxed process may reach (`network:`). */
export type NetworkMode = "model-only" | "none" | "host";
const NETWORK_MODES = ["model-only", "none", "host"] as const;

/** `host:port`, `[v6]:port`; the port is required. */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):\d{1,5}$/;

/** A `host:port` of `allow_hosts`, port 1 to 65535. */
export function isHostPort(value: string): boolean {
  if (!HOST_PORT.test(value)) return false;
  const port = Number(value.slice(value.lastIndexOf(":") + 1));
  return port >= 1 && port <= 65535;
}

const paths = (what: string) =>
  z.array(z.string({ error: `${what} entries must be paths` }).min(1), {
    error: `${what} must be a list of paths, e.g. [/opt/tools]`,
  });

/**
 * The sandbox keys, spread into a schema's shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { sandboxShape } from "./sandbox.ts";
 * const schema = z.object(sandboxShape());
 * const settings = { sandbox: "bubblewrap", allow_hosts: ["registry.npmjs.org:443"] };
 * assert.deepEqual(schema.parse(settings), settings);
 * assert.equal(schema.safeParse({ network: "internet" }).success, false);
 * ```
 */
export function sandboxShape() {
  return {
    sandbox: z.enum(SANDBOX_MODES, {
      error: "sandbox must be none, bubblewrap or docker",
    }).optional(),
    network: z.enum(NETWORK_MODES, {
      error: "network must be model-only, none or host",
    }).optional(),
    allow_hosts: z.array(
      z.string().refine(isHostPort, {
        error: "allow_hosts entries are host:port, e.g. registry.npmjs.org:443",
      }),
      { error: "allow_hosts must be a list of host:port, e.g. [registry.npmjs.org:443]" },
    ).optional(),
    read_only: paths("read_only").optional(),
    writable: paths("writable").optional(),
    image: z.string({ error: "image must be a string" }).min(1, {
      error: "image must name a container image",
    }).optional(),
    workdir: z.string({ error: "workdir must be a string" }).regex(/^\//, {
      error: "workdir must be an absolute path inside the container",
    }).optional(),
  };
}

/** The sandbox settings of a target or code judge, as checked. */
export interface SandboxSettings {
  /** The kind of sandbox (default: see the module doc). */
  sandbox?: SandboxMode;
  /** What the process may reach (default: see the module doc). */
  network?: NetworkMode;
  /** More `host:port` it may reach with `model-only`. */
  allow_hosts?: string[];
  /** More paths it may read. */
  read_only?: string[];
  /** More paths it may write. */
  writable?: string[];
  /** The image of a `docker` sandbox. */
  image?: string;
  /** Where a `docker` sandbox mounts the workspace and starts (default: the host's path). */
  workdir?: string;
}

/**
 * The text of `agentv run --sandbox`: a kind of sandbox (case-insensitive), with "did you mean"
 * otherwise (`bwrap` is bubblewrap's command).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sandboxModeText } from "./sandbox.ts";
 * assert.deepEqual(sandboxModeText("Bubblewrap"), { ok: true, value: "bubblewrap" });
 * const typo = sandboxModeText("bwrap");
 * assert.ok(!typo.ok && /did you mean 'bubblewrap'\?/.test(typo.message));
 * ```
 */
export function sandboxModeText(text: string): Parsed<SandboxMode> {
  const word = text.trim().toLowerCase();
  const found = SANDBOX_MODES.find((k) => k === word);
  if (found !== undefined) return { ok: true, value: found };
  const guess = suggest(word, SANDBOX_MODES) ?? (word === "bwrap" ? "bubblewrap" : undefined);
  return {
    ok: false,
    message: `--sandbox must be none, bubblewrap or docker, got '${text}'${
      guess !== undefined ? `; did you mean '${guess}'?` : ""
    }`,
    hint: "e.g. --sandbox bubblewrap (agent targets use it by default when bwrap is installed)",
  };
}

/** The keys of {@link sandboxShape}. */
export const SANDBOX_KEYS: readonly string[] = Object.keys(sandboxShape());

// The explicit type must say exactly what the schema produces.
type _Checks = [
  Assert<Same<SandboxSettings, z.output<z.ZodObject<ReturnType<typeof sandboxShape>>>>>,
  Assert<Same<SandboxMode, typeof SANDBOX_MODES[number]>>,
  Assert<Same<NetworkMode, typeof NETWORK_MODES[number]>>,
];
