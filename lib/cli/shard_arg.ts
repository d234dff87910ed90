/**
 * `--shard i/n` of `agentv run`: this machine runs shard `i` of `n` (0-based, so Kubernetes'
 * `$JOB_COMPLETION_INDEX` and GitHub Actions' `${{ strategy.job-index }}` can be passed as they
 * are). Which cases fall in which shard is decided by `shardOf` in `lib/run/plan.ts`.
 *
 * @module
 */
import type { RunSummary } from "../results/summary.ts";
import { UsageError } from "../errors/agentv_error.ts";

/** A parsed `--shard i/n`: shard `index` (from 0) of `count`. */
export interface ShardArg {
  /** This shard, from 0 to `count - 1`. */
  index: number;
  /** Number of shards. */
  count: number;
}

const HINT = "--shard INDEX/COUNT with a 0-based index, e.g. --shard 0/4 … --shard 3/4 " +
  "(Kubernetes: --shard $JOB_COMPLETION_INDEX/4; GitHub Actions: --shard ${{ strategy.job-index }}/4)";

/**
 * Parses `--shard i/n`: two integers, `n >= 1` and `0 <= i < n`; a {@link UsageError} (exit 2)
 * that says which part is wrong otherwise.
 *
 * @example
 * ```ts
 * import { parseShardArg } from "./shard_arg.ts";
 * parseShardArg("2/4"); // { index: 2, count: 4 }
 * ```
 */
export function parseShardArg(raw: string): ShardArg {
  const match = /^\s*(\S*?)\s*\/\s*(\S*?)\s*$/.exec(raw);
  if (!match) {
    throw new UsageError(`--shard must be INDEX/COUNT, got '${raw}'`, HINT);
  }
  const [, i, n] = match;
  const integer = /^\d+$/;
  if (!integer.test(n) || Number(n) < 1) {
    throw new UsageError(
      `--shard '${raw}': the shard count must be an integer >= 1, got '${n}'`,
      HINT,
    );
  }
  const count = Number(n);
  if (!integer.test(i)) {
    throw new UsageError(
      `--shard '${raw}': the shard index must be an integer from 0 to ${count - 1}, got '${i}'`,
      HINT,
    );
  }
  const index = Number(i);
  if (index >= count) {
    throw new UsageError(
      `--shard '${raw}': the shard index must be from 0 to ${count - 1} (shards are numbered ` +
        `from 0), got ${index}`,
      `the shards of --shard ?/${count} are ${count === 1 ? "0" : `0 to ${count - 1}`}`,
    );
  }
  if (!Number.isSafeInteger(count)) {
    throw new UsageError(`--shard '${raw}': the shard count ${n} is too large`, HINT);
  }
  return { index, count };
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
