/**
 * **The one precedence rule of run options.** Every option of a run (`lib/schema/run_spec.ts`)
 * gets its value the same way:
 *
 * 1. the value given: a flag, or `runEval`'s argument (a resumed or rerun run's record counts as
 *    given, see `prior_spec.ts`), unless other options force one (a dry run has no cache, a
 *    replay only reads it);
 * 2. else the user's own config (`config.yaml` in the user's agentv folder; only `cache:`), else
 *    the option's default;
 * 3. narrowed by each dataset's `.agentv/config.yaml` that sets it: a dataset, which may come from
 *    anyone, can only restrict (a smaller `budget_usd`, a narrower `cache`, a `cache_dir` inside
 *    its root), never widen what the user chose.
 *
 * Paths are made absolute against the working directory.
 *
 * @module
 */
import { resolve } from "node:path";
import type { RunConfigSettings, UserConfig } from "../schema/config.ts";
import {
  RUN_OPTION_ENTRIES,
  type RUN_OPTIONS,
  type RunOptionName,
  type RunSpec,
} from "../schema/run_spec.ts";

type Options = typeof RUN_OPTIONS;
type Defaulted = {
  [K in RunOptionName as Options[K] extends { default: unknown } ? K : never]-?: NonNullable<
    RunSpec[K & keyof RunSpec]
  >;
};

/** A run's options once settled: those with a default always have a value; paths absolute. */
export type SettledRunSpec = Omit<RunSpec, keyof Defaulted> & Defaulted;

/** Where {@link settleRunSpec} finds what was not given. */
export interface SettleSources {
  /** Base of relative paths. */
  cwd: string;
  /** The run settings of the datasets' `.agentv/config.yaml`, in the order of the files. */
  datasets: readonly RunConfigSettings[];
  /** The user's config, read only when an option needs it. */
  user(): Promise<UserConfig | undefined>;
}

/**
 * Settles a run's options by the one precedence rule (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settleRunSpec } from "./settle_spec.ts";
 * const settle = (spec: object, datasets: object[], user?: object) =>
 *   settleRunSpec(spec, { cwd: "/w", datasets: datasets as never, user: () => Promise.resolve(user) });
 * const ds = (config: object) => ({ file: "/w/.agentv/config.yaml", ...config });
 * // A dataset cannot turn the cache on; it narrows what the user's config allows.
 * assert.equal((await settle({}, [ds({ cache: "readwrite" })])).cache, "off");
 * assert.equal((await settle({}, [ds({ cache: "read" })], { cache: "readwrite" })).cache, "read");
 * // The flag decides alone; a replay only reads.
 * assert.equal((await settle({ cache: "readwrite" }, [ds({ cache: "off" })])).cache, "readwrite");
 * assert.equal((await settle({ replay: true }, [])).cache, "read");
 * // The smallest budget of the datasets, unless one is given.
 * assert.equal((await settle({}, [ds({ budget_usd: 2 }), ds({ budget_usd: 1 })])).budgetUsd, 1);
 * assert.equal((await settle({ budgetUsd: 5 }, [ds({ budget_usd: 1 })])).budgetUsd, 5);
 * assert.equal((await settle({ out: "r.jsonl" }, [])).out, "/w/r.jsonl");
 * assert.equal((await settle({}, [])).workers, 4);
 * ```
 */
export async function settleRunSpec(
  spec: RunSpec,
  sources: SettleSources,
): Promise<SettledRunSpec> {
  const given = spec as Readonly<Record<string, unknown>>;
  const settled: Record<string, unknown> = {};
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    if (d.scope === "command") continue;
    let value = d.implied?.(given) ?? given[name];
    if (value === undefined) {
      if (d.config?.user) value = (await sources.user())?.[d.config.user];
      value ??= d.default;
      for (const config of d.config ? sources.datasets : []) {
        const fromDataset = d.config!.fromDataset(config);
        if (fromDataset !== undefined) value = d.config!.narrow(value, fromDataset);
      }
    }
    if (d.path && typeof value === "string") value = resolve(sources.cwd, value);
    if (value !== undefined) settled[name] = value;
  }
  return settled as SettledRunSpec;
}

/**
 * `spec` with its paths (`--targets`, `--root`, `--out`, `--cache-dir`) made absolute against
 * `cwd`, and nothing else settled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { absolutePaths } from "./settle_spec.ts";
 * assert.deepEqual(absolutePaths({ root: "data", workers: 2 }, "/w"), { root: "/w/data", workers: 2 });
 * ```
 */
export function absolutePaths(spec: RunSpec, cwd: string): RunSpec {
  const out: Record<string, unknown> = { ...spec };
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    if (d.path && typeof out[name] === "string") out[name] = resolve(cwd, out[name] as string);
  }
  return out as RunSpec;
}

/**
 * The options of `values` that `runEval` reads (the `run` scope), those given only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSpecOf } from "./settle_spec.ts";
 * assert.deepEqual(runSpecOf({ workers: 2, quiet: true, target: undefined } as never), { workers: 2 });
 * ```
 */
export function runSpecOf(values: Readonly<Record<string, unknown>>): RunSpec {
  const spec: Record<string, unknown> = {};
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    if (d.scope !== "command" && values[name] !== undefined) spec[name] = values[name];
  }
  return spec as RunSpec;
}
