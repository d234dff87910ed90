/**
 * Runner benchmarks (issue 3 §6):
 * (a) 2,000 cases against a loopback OpenAI-compatible server answering after 50 ms, 32 workers:
 *     wall time must be at most 1.1 × ceil(N/W) · 50 ms;
 * (b) 10,000 cases against the zero-latency `mock` provider: wall/N at most 1 ms and peak RSS
 *     under 200 MB.
 * Each measurement runs in its own subprocess so RSS is not inflated by other benchmarks.
 *
 *   deno run -A --unstable-worker-options bench/run_bench.ts            # both, table
 *   deno run -A bench/run_bench.ts --only latency|overhead              # one, JSON on stdout
 *
 * @module
 */
import { join } from "node:path";
import { runEval } from "../lib/run/run_eval.ts";
import type { EvalCase } from "../lib/schema/eval_case.ts";

/** One measured bar. */
export interface BenchRow {
  /** What was measured. */
  name: string;
  /** Measured value. */
  measured: number;
  /** The bar it must meet (measured <= bar). */
  bar: number;
  /** Unit of both. */
  unit: string;
  /** measured <= bar. */
  ok: boolean;
}

function makeCases(n: number): EvalCase[] {
  const cases: EvalCase[] = [];
  for (let i = 0; i < n; i++) {
    cases.push({
      id: `case-${i}`,
      dataset: "bench",
      expected_outcome: "Answers ok",
      input: [{ role: "user", content: `Question number ${i}: say ok` }],
      expected_output: [],
      execution: { target: "default" },
      evaluator: "llm_judge",
      evaluators: [{
        type: "contains",
        name: "contains",
        weight: 1,
        value: "ok",
        mode: "all",
        case_sensitive: true,
      }],
      guideline_paths: [],
      file_paths: [],
    });
  }
  return cases;
}

async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "agentv-bench-" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The process's peak RSS in bytes from `/proc/self/status` (VmHWM), where available. */
function highWaterRss(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function runCases(dir: string, targetsYaml: string, n: number, workers: number) {
  await Deno.mkdir(join(dir, ".agentv"), { recursive: true });
  const targetsFile = join(dir, ".agentv", "targets.yaml");
  await Deno.writeTextFile(targetsFile, targetsYaml);
  const cases = makeCases(n);
  let peakRss = Deno.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  try {
    const { summary } = await runEval({
      sets: [{ file: join(dir, "bench.jsonl"), root: dir, evalDir: dir, cases }],
      targetsFile,
      workers,
      timeoutMs: 30_000,
      out: join(dir, "results.jsonl"),
      env: {},
      cwd: dir,
      keepRows: false, // as `agentv run` does: rows go to the results file only
      onEvent: (e) => {
        // A zero-latency run may starve the sampling timer: sample from the events too.
        if (e.type === "case_finished" && e.done % 100 === 0) {
          peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
        }
      },
    });
    const wallMs = performance.now() - start;
    peakRss = Math.max(peakRss, Deno.memoryUsage().rss, highWaterRss() ?? 0);
    if (summary.errors.length > 0 || summary.total !== n) {
      throw new Error(
        `bench run had ${summary.errors.length} errors / ${summary.total} rows: ${
          summary.errors[0]?.error
        }`,
      );
    }
    return { wallMs, peakRssMb: peakRss / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

/** Starts the loopback latency server (its own thread) and returns its URL and a stop. */
export async function latencyServer(
  latencyMs: number,
): Promise<{ url: string; stop(): Promise<void> }> {
  const worker = new Worker(new URL("./_latency_server.ts", import.meta.url).href, {
    type: "module",
  });
  const reply = (message: unknown) =>
    new Promise<unknown>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.postMessage(message);
    });
  const { port } = await reply({ latencyMs }) as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stop: async () => {
      await reply("close");
      worker.terminate();
    },
  };
}

/** (a) N cases at W workers against a loopback server with fixed latency. */
export async function benchLatency(n = 2000, workers = 32, latencyMs = 50): Promise<BenchRow[]> {
  const server = await latencyServer(latencyMs);
  try {
    const url = server.url;
    const { wallMs } = await withTempDir((dir) =>
      runCases(
        dir,
        `targets:\n  - name: default\n    provider: openai\n    base_url: ${url}\n    api_key: sk-bench\n    model: bench\n`,
        n,
        workers,
      )
    );
    const ideal = Math.ceil(n / workers) * latencyMs;
    return [{
      name: `(a) ${n} cases, ${latencyMs} ms loopback, ${workers} workers: wall time`,
      measured: Math.round(wallMs),
      bar: Math.round(ideal * 1.1),
      unit: "ms",
      ok: wallMs <= ideal * 1.1,
    }, {
      name: "(a) wall / ideal ceil(N/W)·latency",
      measured: Number((wallMs / ideal).toFixed(3)),
      bar: 1.1,
      unit: "×",
      ok: wallMs / ideal <= 1.1,
    }];
  } finally {
    await server.stop();
  }
}

/** (b) N cases against the zero-latency mock provider: per-case overhead and peak RSS. */
export async function benchOverhead(n = 10_000, workers = 4): Promise<BenchRow[]> {
  const { wallMs, peakRssMb } = await withTempDir((dir) =>
    runCases(dir, `targets:\n  - name: default\n    provider: mock\n    response: ok\n`, n, workers)
  );
  const perCase = wallMs / n;
  return [{
    name: `(b) ${n} cases, mock target: runner overhead per case`,
    measured: Number(perCase.toFixed(3)),
    bar: 1,
    unit: "ms",
    ok: perCase <= 1,
  }, {
    name: `(b) ${n} cases, mock target: peak RSS`,
    measured: Math.round(peakRssMb),
    bar: 200,
    unit: "MB",
    ok: peakRssMb < 200,
  }];
}

/** Runs one benchmark in a fresh subprocess and returns its rows. */
async function inSubprocess(which: "latency" | "overhead"): Promise<BenchRow[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "--allow-run",
      new URL(import.meta.url).pathname,
      "--only",
      which,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(`${which} benchmark failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
  return JSON.parse(text.trim().split("\n").pop()!) as BenchRow[];
}

/**
 * Runs both runner benchmarks, each in its own subprocess.
 *
 * @example
 * ```ts ignore
 * import { benchRunner } from "./run_bench.ts";
 * const rows = await benchRunner();
 * console.log(rows.every((r) => r.ok));
 * ```
 */
export async function benchRunner(): Promise<BenchRow[]> {
  return [...await inSubprocess("latency"), ...await inSubprocess("overhead")];
}

/** Formats rows as a table. */
export function formatTable(rows: readonly BenchRow[]): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = rows.map((r) =>
    `${r.ok ? "ok  " : "MISS"}  ${r.name.padEnd(width)}  ${String(r.measured).padStart(8)} ${
      r.unit.padEnd(2)
    }  (bar ${r.bar} ${r.unit})`
  );
  return lines.join("\n");
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--only");
  if (i !== -1) {
    const which = Deno.args[i + 1];
    const rows = which === "latency" ? await benchLatency() : await benchOverhead();
    console.log(JSON.stringify(rows));
  } else {
    const rows = await benchRunner();
    console.log(formatTable(rows));
    if (!rows.every((r) => r.ok)) Deno.exit(1);
  }
}
