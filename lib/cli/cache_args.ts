/**
 * The response cache flags (`--cache`, `--replay`, `--cache-dir`) for the commands besides
 * `agentv run` that call targets (`agentv calibrate`): the run options' own entries
 * (`lib/schema/run_spec.ts`), so their help, their readers and the refused combination
 * (`--replay` with `--cache off|write`) are those of `agentv run`.
 *
 * @module
 */
import { UsageError } from "../errors/agentv_error.ts";
import type { CacheMode } from "../schema/config.ts";
import { nonEmpty, type Parsed, type RunOptionDef } from "../schema/run_option.ts";
import { RUN_OPTIONS, type RunCommandValues } from "../schema/run_spec.ts";
import { RUN_OPTION_RULES } from "../schema/run_spec_rules.ts";
import type { OptionSpec, ParsedArgs } from "./command.ts";
import { runCommandOptions } from "./run_args.ts";

/** The cache options, as the parser and `--help` take them. */
export const CACHE_OPTIONS: Record<"cache" | "replay" | "cache-dir", OptionSpec> = (() => {
  const all = runCommandOptions();
  return { cache: all.cache, replay: all.replay, "cache-dir": all["cache-dir"] };
})();

/** The cache settings of a command line. */
export interface CacheArgs {
  /** `--cache`. */
  cache?: CacheMode;
  /** `--replay`. */
  replay?: boolean;
  /** `--cache-dir`. */
  cacheDir?: string;
}

/** Reads a flag's text with its entry's reader (the cache flags' readers are synchronous). */
function read<T>(d: RunOptionDef<T>, text: string): T {
  const parsed = (d.parse ?? nonEmpty(d.flag))(text) as Parsed<T>;
  if (!parsed.ok) throw new UsageError(parsed.message, parsed.hint);
  return parsed.value as T;
}

/**
 * Reads `--cache`, `--replay` and `--cache-dir` as `agentv run` reads them; throws
 * {@link UsageError} for an unknown mode, an empty folder, or `--replay` with `--cache off` or
 * `--cache write` (a replay only reads).
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
  if (typeof values.cache === "string") {
    out.cache = read(RUN_OPTIONS.cache as RunOptionDef<CacheMode>, values.cache);
  }
  if (values.replay === true) out.replay = true;
  if (typeof values["cache-dir"] === "string") {
    out.cacheDir = read(RUN_OPTIONS.cacheDir as RunOptionDef<string>, values["cache-dir"]);
  }
  for (const rule of RUN_OPTION_RULES) {
    const problem = rule(out as RunCommandValues);
    if (problem) throw new UsageError(problem.message, problem.hint);
  }
  return out;
}
