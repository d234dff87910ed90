/**
 * The response cache flags of `agentv run`: `--cache off|read|write|readwrite`, `--replay` and
 * `--cache-dir DIR` (see `lib/run/call_cache.ts`).
 *
 * @module
 */
import type { CacheMode } from "../schema/config.ts";
import type { OptionSpec, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";

/** The cache modes, as `--cache` takes them. */
const MODES: readonly CacheMode[] = ["off", "read", "write", "readwrite"];

/** The options `agentv run` adds for the cache. */
export const CACHE_OPTIONS: Record<"cache" | "replay" | "cache-dir", OptionSpec> = {
  cache: {
    type: "string",
    valueName: "MODE",
    description:
      "Response cache: off (default; or cache: in your config, which a dataset's config can only restrict), read, write or readwrite (.agentv/cache/)",
  },
  replay: {
    type: "boolean",
    description:
      "Answer every target and judge call from the cache, offline; a miss is an error row saying why",
  },
  "cache-dir": {
    type: "string",
    valueName: "DIR",
    description: "Cache folder (default: the config's cache_dir, else <root>/.agentv/cache)",
  },
};

/** The cache settings of a command line. */
export interface CacheArgs {
  /** `--cache`. */
  cache?: CacheMode;
  /** `--replay`. */
  replay?: boolean;
  /** `--cache-dir`. */
  cacheDir?: string;
}

/**
 * Reads `--cache`, `--replay` and `--cache-dir`; throws {@link UsageError} for an unknown mode,
 * an empty folder, or `--replay` with `--cache off` or `--cache write` (a replay only reads).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCacheArgs } from "./cache_args.ts";
 * assert.deepEqual(parseCacheArgs({ cache: "readwrite" }), { cache: "readwrite" });
 * assert.deepEqual(parseCacheArgs({ replay: true }), { replay: true });
 * ```
 */
export function parseCacheArgs(values: ParsedArgs["values"]): CacheArgs {
  const out: CacheArgs = {};
  const mode = values.cache;
  if (typeof mode === "string") {
    if (!(MODES as readonly string[]).includes(mode)) {
      throw new UsageError(
        `--cache must be one of ${MODES.join(", ")}, got '${mode}'`,
        "e.g. --cache readwrite (record and reuse responses)",
      );
    }
    out.cache = mode as CacheMode;
  }
  if (values.replay === true) {
    if (out.cache === "off" || out.cache === "write") {
      throw new UsageError(
        `--replay cannot be used with --cache ${out.cache}: a replay only reads the cache`,
        "drop --cache, or use --cache read",
      );
    }
    out.replay = true;
  }
  const dir = values["cache-dir"];
  if (typeof dir === "string") {
    if (dir.trim() === "") throw new UsageError("--cache-dir must not be empty");
    out.cacheDir = dir;
  }
  return out;
}
