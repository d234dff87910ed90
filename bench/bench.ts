/**
 * `deno task bench`: the loader benchmarks (`load_bench.ts`, when present) and the runner
 * benchmarks (`run_bench.ts`). Prints measured values against their bars and exits non-zero when
 * a bar is missed.
 *
 * @module
 */
import { type BenchRow, benchRunner, formatTable } from "./run_bench.ts";

const rows: BenchRow[] = [];
let failed = false;

try {
  const loader = await import("./load_bench.ts") as {
    benchLoader?: () => Promise<{
      jsonl: { ms: number; floorMs: number; ratio: number };
      yaml: { ms: number; floorMs: number; ratio: number };
      stream: { rssDeltaMb: number };
    }>;
  };
  if (loader.benchLoader) {
    const r = await loader.benchLoader();
    rows.push(
      {
        name: "loader: JSONL 100k cases / floor",
        measured: Number(r.jsonl.ratio.toFixed(2)),
        bar: 3,
        unit: "×",
        ok: r.jsonl.ratio <= 3,
      },
      {
        name: "loader: YAML 10k cases / floor",
        measured: Number(r.yaml.ratio.toFixed(2)),
        bar: 2,
        unit: "×",
        ok: r.yaml.ratio <= 2,
      },
      {
        name: "loader: streamEvalCases RSS increase",
        measured: Math.round(r.stream.rssDeltaMb),
        bar: 100,
        unit: "MB",
        ok: r.stream.rssDeltaMb < 100,
      },
    );
  }
} catch (e) {
  if (!(e instanceof TypeError && String(e.message).includes("load_bench"))) {
    console.error(`loader benchmark failed: ${(e as Error).message}`);
    failed = true;
  }
}

rows.push(...await benchRunner());
console.log(formatTable(rows));
if (failed || !rows.every((r) => r.ok)) Deno.exit(1);
