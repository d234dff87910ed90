/**
 * The `.agentv/config.yaml` file of a dataset: which referenced files are guidelines, and run
 * settings (`cache`, `cache_dir`, `budget_usd`) that `agentv run` flags override (its `cache:`
 * can only restrict the cache: see `lib/run/run_cache.ts`); and the user's own config file,
 * which sets what only the user may decide (`cache:`).
 *
 * @module
 */
import { z } from "zod";

/** How a run uses the response cache: `off`, `read`, `write` or `readwrite`. */
export type CacheMode = "off" | "read" | "write" | "readwrite";

/** How a run uses the response cache (`--cache`, `cache:` in a config). */
export const CacheModeSchema: z.ZodType<CacheMode> = z.enum(["off", "read", "write", "readwrite"], {
  error: "cache must be one of off, read, write, readwrite",
});

/** What each cache mode allows: [read, write]. */
const ALLOWS: Record<CacheMode, [read: boolean, write: boolean]> = {
  off: [false, false],
  read: [true, false],
  write: [false, true],
  readwrite: [true, true],
};

/**
 * The cache mode allowing what both `a` and `b` allow (how a dataset's `cache:` narrows the mode:
 * it can only restrict).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { narrowCacheMode } from "./config.ts";
 * assert.equal(narrowCacheMode("readwrite", "read"), "read");
 * assert.equal(narrowCacheMode("off", "readwrite"), "off");
 * ```
 */
export function narrowCacheMode(a: CacheMode, b: CacheMode): CacheMode {
  const [read, write] = [0, 1].map((i) => ALLOWS[a][i] && ALLOWS[b][i]);
  return read ? (write ? "readwrite" : "read") : write ? "write" : "off";
}

/** The settings of a config file that apply to a whole run (`agentv run`). */
export interface RunConfigSettings {
  /** The config file they come from (absolute). */
  file: string;
  /** `cache:` mode. */
  cache?: CacheMode;
  /** `cache_dir:`, relative to the folder that holds `.agentv/`. */
  cache_dir?: string;
  /** `budget_usd:` cap in US dollars. */
  budget_usd?: number;
}

/** The `.agentv/config.yaml` mapping. */
export const AgentvConfigSchema = z.strictObject({
  $schema: z.string({ error: "$schema must be a string" }).optional(),
  guideline_patterns: z.array(
    z.string({ error: "a guideline pattern must be a string" }).min(1, {
      error: "a guideline pattern must not be empty",
    }),
    { error: "guideline_patterns must be a list of glob patterns (e.g. '**/*.instructions.md')" },
  ).optional(),
  // Run settings (`agentv run` flags win over them).
  cache: CacheModeSchema.optional(),
  cache_dir: z.string({ error: "cache_dir must be a folder path" }).min(1, {
    error: "cache_dir must not be empty",
  }).optional(),
  budget_usd: z.number({ error: "budget_usd must be a number of US dollars >= 0" }).min(0, {
    error: "budget_usd must be a number of US dollars >= 0",
  }).optional(),
});

/**
 * The `.agentv/config.yaml` mapping.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const config: AgentvConfig = { guideline_patterns: ["**\/*.instructions.md"] };
 * assert.equal(parseAgentvConfig(config).success, true);
 * ```
 */
export type AgentvConfig = z.output<typeof AgentvConfigSchema>;

/**
 * Validates a parsed config value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseAgentvConfig({ guideline_patterns: ["*.md"] }).success, true);
 * assert.equal(parseAgentvConfig({ guideline_pattern: ["*.md"] }).success, false); // a typo
 * ```
 */
export function parseAgentvConfig(value: unknown): z.ZodSafeParseResult<AgentvConfig> {
  return AgentvConfigSchema.safeParse(value);
}

/**
 * The user's own config (`config.yaml` in the user's agentv folder, outside every dataset):
 * settings a dataset must not decide. `cache:` is the cache mode of runs without `--cache`.
 */
export const UserConfigSchema = z.strictObject({
  $schema: z.string({ error: "$schema must be a string" }).optional(),
  cache: CacheModeSchema.optional(),
});

/**
 * The user's config mapping.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const config: UserConfig = { cache: "readwrite" };
 * assert.equal(parseUserConfig(config).success, true);
 * ```
 */
export type UserConfig = z.output<typeof UserConfigSchema>;

/**
 * Validates a parsed user config value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseUserConfig({ cache: "readwrite" }).success, true);
 * assert.equal(parseUserConfig({ cache: "sometimes" }).success, false);
 * ```
 */
export function parseUserConfig(value: unknown): z.ZodSafeParseResult<UserConfig> {
  return UserConfigSchema.safeParse(value);
}
