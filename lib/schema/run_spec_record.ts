/**
 * The run record's `options`, derived from the run options (`run_spec.ts`): each entry with a
 * `record` is kept under its key, the schema (and `schema/run.schema.json`) says what each may
 * hold, and a resumed or rerun run reads its options back from there.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import { RUN_OPTION_ENTRIES, type RunOptionsTable } from "./run_spec.ts";
import type { RunOptionsRecord, RunSpec } from "./run_spec_types.ts";

export type { RunOptionsRecord };

type Options = RunOptionsTable;
type RecordShape = {
  [
    K in keyof Options as Options[K] extends { record: { key: infer R extends string } } ? R : never
  ]: Options[K] extends { record: { schema: infer S extends z.ZodType } } ? S : never;
};

/** The run record's `options`: the recorded options (see each entry's `record`). */
export const RunOptionsRecordSchema: z.ZodObject<RecordShape> = z.object(
  Object.fromEntries(
    RUN_OPTION_ENTRIES.flatMap(([, d]) => d.record ? [[d.record.key, d.record.schema]] : []),
  ),
) as never;

/**
 * The recorded options that change a run's results, with the flag that sets each: a resumed run,
 * a rerun and the shards of a merge must agree on them (a key an older record lacks is not
 * compared). Concurrency, timeouts, the cache and the budget change how a run goes, not its
 * scores.
 */
export const RESULT_OPTIONS: readonly { key: keyof RunOptionsRecord; flag: string }[] =
  RUN_OPTION_ENTRIES.flatMap(([, d]) =>
    d.effect === "results" && d.record
      ? [{ key: d.record.key as keyof RunOptionsRecord, flag: `--${d.flag}` }]
      : []
  );

/**
 * The run record's `options` of a settled spec (defaults and configs applied, paths absolute):
 * each recorded option's value, `null` when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runOptionsRecord } from "./run_spec_record.ts";
 * assert.equal(runOptionsRecord({ workers: 4, timeoutMs: 1000, dryRun: false, cache: "off" }).workers, 4);
 * ```
 */
export function runOptionsRecord(spec: Readonly<Record<string, unknown>>): RunOptionsRecord {
  const out: Record<string, unknown> = {};
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    if (!d.record) continue;
    const value = d.record.encode ? d.record.encode(spec) : spec[name] ?? null;
    if (value !== undefined) out[d.record.key] = value;
  }
  return out as unknown as RunOptionsRecord;
}

/**
 * The options a run record's `options` gives a run that resumes or reruns it (what the record
 * lacks, or holds as `null`, is left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specOfRecord } from "./run_spec_record.ts";
 * assert.deepEqual(specOfRecord({ target: "t", workers: 2, threshold: null }), {
 *   target: "t",
 *   workers: 2,
 *   cache: "off",
 * });
 * ```
 */
export function specOfRecord(recorded: RunOptionsRecord | Record<string, unknown>): RunSpec {
  const options = recorded as Readonly<Record<string, unknown>>;
  const spec: Record<string, unknown> = {};
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    if (!d.record) continue;
    const value = d.record.decode ? d.record.decode(options) : (options[d.record.key] ?? undefined);
    if (value !== undefined) spec[name] = value;
  }
  return spec as RunSpec;
}

// The generated type must say exactly what the schema produces, with the same keys.
type _Checks = [
  Assert<Same<RunOptionsRecord, z.output<typeof RunOptionsRecordSchema>>>,
  Assert<Same<keyof RunOptionsRecord, keyof z.output<typeof RunOptionsRecordSchema>>>,
];
