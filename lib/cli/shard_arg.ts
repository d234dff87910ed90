/**
 * `--shard i/n` of `agentv run`: this machine runs shard `i` of `n` (0-based, so Kubernetes'
 * `$JOB_COMPLETION_INDEX` and GitHub Actions' `${{ strategy.job-index }}` can be passed as they
 * are). Which cases fall in which shard is decided by `shardOf` in `lib/run/plan.ts`; the flag is
 * declared with the run options (`lib/schema/run_spec.ts`). What a shard with no case prints.
 *
 * @module
 */
import type { RunSummary } from "../results/summary.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { shardText } from "../schema/run_option.ts";

/** A parsed `--shard i/n`: shard `index` (from 0) of `count`. */
export interface ShardArg {
  /** This shard, from 0 to `count - 1`. */
  index: number;
  /** Number of shards. */
  count: number;
}

/**
 * Parses `--shard i/n` as `agentv run` does (the reader is declared with the option,
 * `lib/schema/run_spec.ts`): two integers, `n >= 1` and `0 <= i < n`; a {@link UsageError}
 * (exit 2) that says which part is wrong otherwise.
 *
 * @example
 * ```ts
 * import { parseShardArg } from "./shard_arg.ts";
 * parseShardArg("2/4"); // { index: 2, count: 4 }
 * ```
 */
export function parseShardArg(raw: string): ShardArg {
  const read = shardText(raw);
  if (!read.ok) throw new UsageError(read.message, read.hint);
  return read.value;
}

/**
 * Whether a shard's run had nothing to do: no case of the selection falls in it (possible when
 * there are fewer cases than shards), and nothing was rejected or interrupted. Such a shard
 * passes (exit 0) instead of failing as an empty run does.
 *
 * @example
 * ```ts
 * import { emptyShard } from "./shard_arg.ts";
 * emptyShard({ total: 0, errors: [], invalid: [], interrupted: false } as never); // true
 * ```
 */
export function emptyShard(
  summary: Pick<RunSummary, "total" | "errors" | "invalid" | "interrupted">,
): boolean {
  return summary.total === 0 && summary.errors.length === 0 && summary.invalid.length === 0 &&
    !summary.interrupted;
}

/**
 * What `agentv run --shard` prints when its shard holds no case.
 *
 * @example
 * ```ts
 * import { emptyShardMessage } from "./shard_arg.ts";
 * emptyShardMessage({ index: 3, count: 4 }).startsWith("Shard 3/4 holds no case"); // true
 * ```
 */
export function emptyShardMessage(shard: ShardArg): string {
  return `Shard ${shard.index}/${shard.count} holds no case of this run (the cases hash to the ` +
    `other shards): nothing to run, the shard passes\n`;
}
