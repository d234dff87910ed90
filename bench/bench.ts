/**
 * `deno task bench`: the loader benchmarks (`load_bench.ts`), the runner benchmarks
 * (`run_bench.ts`, each in its own subprocess), the multi-target run and compare
 * (`matrix_bench.ts`: 3 targets × 1,000 cases × 3 trials against a 1-target 9,000-row floor, and
 * `agentv compare` of the 9,000 rows) and the whole-process CLI benchmarks
 * (`cli_bench.ts`: the CLI spawned as a user runs it, against floors measured in the same run) and
 * the history store (`store_bench.ts`: 1,000 runs of 1,000 rows indexed, then re-opened).
 * Prints measured values against their bars and exits non-zero when a bar is missed.
 *
 * @module
 */
import { benchLoader } from "./load_bench.ts";
import { benchCli } from "./cli_bench.ts";
import { benchMatrix } from "./matrix_bench.ts";
import { type BenchRow, benchRunner, formatTable } from "./run_bench.ts";
import { benchStore } from "./store_bench.ts";

const loader = await benchLoader();
const rows: BenchRow[] = [
  {
    name: "loader: JSONL 100k cases / floor",
    measured: Number(loader.jsonl.ratio.toFixed(2)),
    bar: 3,
    unit: "×",
    ok: loader.jsonl.ratio <= 3,
  },
  {
    name: "loader: YAML 10k cases / floor",
    measured: Number(loader.yaml.ratio.toFixed(2)),
    bar: 2,
    unit: "×",
    ok: loader.yaml.ratio <= 2,
  },
  {
    name: "loader: streamEvalCases RSS increase",
    measured: Math.round(loader.stream.rssDeltaMb),
    bar: 100,
    unit: "MB",
    ok: loader.stream.rssDeltaMb < 100,
  },
  ...await benchRunner(),
  ...await benchMatrix(),
  ...await benchCli(),
  ...await benchStore(),
];
console.log(formatTable(rows));
if (!rows.every((r) => r.ok)) Deno.exit(1);
