/**
 * Multi-target benchmarks (issue 22 §3), each run in its own subprocess:
 * (m) 3 targets × 1,000 cases × 3 trials (9,000 rows) against a loopback OpenAI-compatible server
 *     answering at once, and the floor it is held to, measured in the same run: 1 target × 9,000
 *     cases × 1 trial against the same server. A multi-target run adds no per-row overhead beyond
 *     today's: its time per row is at most 1.15 × the floor's (noise on a shared machine).
 * (c) `agentv compare` of the 9,000 rows of (m), as a user runs it (a process: start, read, the
 *     leaderboard, three pairs, the JSON written): under 2 s.
 *
 *   deno run -A --unstable-worker-options bench/matrix_bench.ts          # all, table
 *   deno run -A bench/matrix_bench.ts --only matrix|floor <dir>          # one run, JSON on stdout
 *
 * @module
 */
import { join } from "node:path";
import { runEval } from "../lib/run/run_eval.ts";
import type { EvalCase } from "../lib/schema/eval_case.ts";
import { type BenchRow, latencyServer } from "./run_bench.ts";

const WORKERS = 16;

function makeCases(n: number): EvalCase[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `case-${i}`,
    dataset: "bench",
    expected_outcome: "Answers ok",
    input: [{ role: "user", content: `Question number ${i}: say ok` }],
    expected_output: [],
    execution: { target: "t1" },
    evaluator: "llm_judge" as const,
    evaluators: [{
      type: "contains" as const,
      name: "contains",
      weight: 1,
      value: "ok",
      mode: "all" as const,
      case_sensitive: true,
    }],
    guideline_paths: [],
    file_paths: [],
  }));
}

/** The targets file: three targets on one loopback server (one model each). */
function targetsYaml(url: string): string {
  return "targets:\n" +
    ["t1", "t2", "t3"].map((name) =>
      `  - name: ${name}\n    provider: openai\n    base_url: ${url}\n    api_key: sk-bench\n` +
      `    model: ${name}\n    pricing: {input_per_mtok: 1, output_per_mtok: 2}\n`
    ).join("");
}

/** One run into `dir/<shape>.jsonl`; its wall time per row. */
async function runShape(shape: "matrix" | "floor", dir: string, url: string) {
  const targetsFile = join(dir, "targets.yaml");
  await Deno.writeTextFile(targetsFile, targetsYaml(url));
  const matrix = shape === "matrix";
  const cases = makeCases(matrix ? 1000 : 9000);
  const start = performance.now();
  const { summary } = await runEval({
    sets: [{ file: join(dir, "bench.jsonl"), root: dir, evalDir: dir, cases }],
    targetsFile,
    workers: WORKERS,
    timeoutMs: 30_000,
    out: join(dir, `${shape}.jsonl`),
    env: {},
    cwd: dir,
    keepRows: false,
    ...(matrix ? { target: ["t1", "t2", "t3"], trials: 3 } : {}),
  });
  const wallMs = performance.now() - start;
  if (summary.total !== 9000 || summary.errors.length > 0) {
    throw new Error(`${shape}: ${summary.total} rows, ${summary.errors[0]?.error ?? ""}`);
  }
  return { wallMs, perRowMs: wallMs / summary.total };
}

/** Runs one shape in a fresh subprocess (the server in this process's worker thread). */
async function inSubprocess(shape: "matrix" | "floor", dir: string, url: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      new URL(import.meta.url).pathname,
      "--only",
      shape,
      dir,
      url,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`${shape} run failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
  const text = new TextDecoder().decode(output.stdout).trim().split("\n").pop()!;
  return JSON.parse(text) as { wallMs: number; perRowMs: number };
}

/** `agentv compare <file> --json` as a process; its wall time and the leaderboard's size. */
async function timeCompare(file: string): Promise<{ wallMs: number; arms: number }> {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const start = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", main, "compare", file, "--json"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - start;
  if (!output.success) {
    throw new Error(`compare failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
  const json = JSON.parse(new TextDecoder().decode(output.stdout));
  return { wallMs, arms: json.leaderboard.length };
}

/**
 * The multi-target rows: (m) per-row time against the floor, (c) the compare of 9,000 rows.
 *
 * @example
 * ```ts ignore
 * import { benchMatrix } from "./matrix_bench.ts";
 * console.log(await benchMatrix());
 * ```
 */
export async function benchMatrix(): Promise<BenchRow[]> {
  const server = await latencyServer(0);
  const dir = await Deno.makeTempDir({ prefix: "agentv-matrix-bench-" });
  try {
    // The floor first, then the matrix, then the floor again: the better floor is kept, so a
    // machine that got busier during the matrix run does not flatter it.
    const floorA = await inSubprocess("floor", dir, server.url);
    const matrix = await inSubprocess("matrix", dir, server.url);
    const floorB = await inSubprocess("floor", dir, server.url);
    const floor = Math.min(floorA.perRowMs, floorB.perRowMs);
    const ratio = matrix.perRowMs / floor;
    const compare = await timeCompare(join(dir, "matrix.jsonl"));
    return [
      {
        name: "(m) 3 targets × 1000 cases × 3 trials, loopback: time per row",
        measured: Number(matrix.perRowMs.toFixed(3)),
        bar: Number((floor * 1.15).toFixed(3)),
        unit: "ms",
        ok: ratio <= 1.15,
      },
      {
        name: "(m) per row / 1 target × 9000 cases (floor, same run)",
        measured: Number(ratio.toFixed(3)),
        bar: 1.15,
        unit: "×",
        ok: ratio <= 1.15,
      },
      {
        name: `(c) agentv compare of 9000 rows (${compare.arms} targets, process)`,
        measured: Math.round(compare.wallMs),
        bar: 2000,
        unit: "ms",
        ok: compare.wallMs < 2000,
      },
    ];
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--only");
  if (i !== -1) {
    const [shape, dir, url] = Deno.args.slice(i + 1);
    console.log(JSON.stringify(await runShape(shape as "matrix" | "floor", dir, url)));
  } else {
    const { formatTable } = await import("./run_bench.ts");
    const rows = await benchMatrix();
    console.log(formatTable(rows));
    if (!rows.every((r) => r.ok)) Deno.exit(1);
  }
}
