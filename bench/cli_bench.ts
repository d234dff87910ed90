/**
 * Whole-process benchmarks: the CLI spawned as a user runs it (`deno run` with exactly the
 * permission flags of the `compile` task, the dataset folder as working directory), each against
 * a floor measured in the same run, alternately, median of 5 (after one warm-up of each):
 *
 * - `--version`, `--help` vs `deno eval 0` (bar 1.5×);
 * - `validate` of a 5-case YAML vs a script that imports zod + yaml and parses the file (1.5×);
 * - `validate` of 100,000 JSONL cases vs a script that reads the file and `JSON.parse`s each
 *   line (2.5×), and peak RSS vs the floor's (2×);
 * - `run` of 2,000 cases (50 ms loopback OpenAI-compatible server, 32 workers, results file and
 *   summary) vs a thin runner script that reads the JSONL, fetches with 32 workers and appends
 *   one row per case (1.05×).
 *
 * Run: `deno run --allow-read --allow-write --allow-env --allow-net=127.0.0.1 --allow-run
 * bench/cli_bench.ts` (or `deno task bench`, which runs every benchmark).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFixtures } from "./load_bench.ts";
import { type BenchRow, latencyServer } from "./run_bench.ts";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const MAIN = join(REPO, "main.ts");
const CONFIG = join(REPO, "deno.json");

/** The permission flags of the `compile:linux-x64` task (what the released binary gets). */
export async function compileFlags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(CONFIG)) as { tasks: Record<string, string> };
  const task = config.tasks["compile:linux-x64"];
  return task.split(/\s+/).filter((t) => t.startsWith("--allow-") || t.startsWith("--unstable-"));
}

/** One timed process. */
interface Timed {
  ms: number;
  /** Peak RSS (VmHWM) in MB, when sampled. */
  rssMb?: number;
}

/** GNU time, which reports a child's peak RSS from the kernel's accounting (`%M`, kB). */
const GNU_TIME = "/usr/bin/time";

/**
 * Spawns `deno <args>` in `cwd` and times it to exit. With `rss`, the process runs under GNU
 * time, whose `%M` is the child's peak RSS as the kernel counted it (Deno may not read another
 * process's `/proc/<pid>/status` without --allow-all).
 */
async function timeProcess(
  args: string[],
  cwd: string,
  options: { rss?: boolean; expectCode?: number } = {},
): Promise<Timed> {
  const marker = "agentv-bench-peak-rss-kb=";
  const [command, commandArgs] = options.rss
    ? [GNU_TIME, ["-f", `${marker}%M`, Deno.execPath(), ...args]]
    : [Deno.execPath(), args];
  const start = performance.now();
  const output = await new Deno.Command(command, {
    args: commandArgs,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const ms = performance.now() - start;
  const stderr = new TextDecoder().decode(output.stderr);
  const expected = options.expectCode ?? 0;
  if (output.code !== expected) {
    const text = stderr + new TextDecoder().decode(output.stdout);
    throw new Error(
      `deno ${args.join(" ")} exited ${output.code} (expected ${expected}):\n${
        text.slice(0, 2000)
      }`,
    );
  }
  if (!options.rss) return { ms };
  const kb = Number(new RegExp(`${marker}(\\d+)`).exec(stderr)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`${GNU_TIME} reported no peak RSS:\n${stderr}`);
  return { ms, rssMb: kb / 1024 };
}

/** Fails early, with the fix, when GNU time is missing. */
async function requireGnuTime(): Promise<void> {
  try {
    await Deno.stat(GNU_TIME);
  } catch {
    throw new Error(
      `${GNU_TIME} (GNU time) is needed to measure peak RSS; install it: apt-get install time`,
    );
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Medians of `floor` and `ours`, run alternately `runs` times after one warm-up each. */
async function compare(
  runs: number,
  floor: () => Promise<Timed>,
  ours: () => Promise<Timed>,
): Promise<{ floor: Timed; ours: Timed }> {
  await floor();
  await ours();
  const f: Timed[] = [];
  const o: Timed[] = [];
  for (let i = 0; i < runs; i++) {
    f.push(await floor());
    o.push(await ours());
  }
  const pick = (xs: Timed[]): Timed => {
    const ms = median(xs.map((x) => x.ms));
    const rss = xs.map((x) => x.rssMb).filter((x): x is number => x !== undefined);
    return rss.length ? { ms, rssMb: median(rss) } : { ms };
  };
  return { floor: pick(f), ours: pick(o) };
}

/** The floor scripts, written into the bench folder. */
const FLOORS = {
  "yaml_floor.ts": `import { z } from "npm:zod@4.6.7";
import { parse } from "npm:yaml@2.9.1";
const doc = parse(await Deno.readTextFile(Deno.args[0]));
const Case = z.looseObject({ id: z.string(), expected_outcome: z.string() });
const parsed = z.looseObject({ evalcases: z.array(Case) }).parse(doc);
console.log(parsed.evalcases.length + " cases");
`,
  "jsonl_floor.ts": `const text = await Deno.readTextFile(Deno.args[0]);
let n = 0;
for (const line of text.split("\\n")) if (line.trim() !== "") { JSON.parse(line); n++; }
console.log(n + " cases");
`,
  "runner_floor.ts": `const [file, url, out] = Deno.args;
const cases = (await Deno.readTextFile(file)).split("\\n").filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));
const results = await Deno.open(out, { write: true, create: true, truncate: true });
const encoder = new TextEncoder();
let next = 0, passed = 0;
async function worker() {
  while (next < cases.length) {
    const c = cases[next++];
    const started = performance.now();
    const response = await fetch(url + "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
      body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: c.input }] }),
    });
    const answer = (await response.json()).choices[0].message.content;
    const score = answer.includes("ok") ? 1 : 0;
    passed += score;
    const row = { eval_id: c.id, answer, score, duration_ms: performance.now() - started };
    results.writeSync(encoder.encode(JSON.stringify(row) + "\\n"));
  }
}
await Promise.all(Array.from({ length: 32 }, worker));
results.close();
console.log(passed + "/" + cases.length + " passed");
`,
};

/** Options of {@link benchCli}. */
export interface CliBenchOptions {
  /** Timed runs per figure (default 5). */
  runs?: number;
  /** Cases of the big JSONL (default 100,000). */
  jsonlCases?: number;
  /** Cases of the run figure (default 2,000). */
  runCases?: number;
}

/**
 * Measures the four whole-process figures and returns them as table rows.
 *
 * @example
 * ```ts ignore
 * import { benchCli } from "./cli_bench.ts";
 * const rows = await benchCli({ runs: 1, jsonlCases: 1000, runCases: 64 });
 * console.log(rows.every((r) => r.ok));
 * ```
 */
export async function benchCli(options: CliBenchOptions = {}): Promise<BenchRow[]> {
  const runs = options.runs ?? 5;
  await requireGnuTime();
  const flags = await compileFlags();
  const agentv = (...args: string[]) => ["run", ...flags, "--config", CONFIG, MAIN, ...args];
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv-cli-bench-" }));
  const server = await latencyServer(50);
  try {
    for (const [name, text] of Object.entries(FLOORS)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    const data = join(dir, "data");
    await Deno.mkdir(data);
    const { jsonl } = await writeFixtures(data, options.jsonlCases ?? 100_000, 0);
    await Deno.writeTextFile(
      join(data, ".agentv", "targets.yaml"),
      "targets:\n  - name: default\n    provider: mock\n  - name: azure_base\n    provider: mock\n",
    );
    const five = join(data, "five.yaml");
    await Deno.writeTextFile(
      five,
      "description: five cases\nevalcases:\n" +
        Array.from(
          { length: 5 },
          (_, i) =>
            `  - id: case-${i}\n    expected_outcome: Answers question ${i} politely\n` +
            `    input: What is ${i} + ${i}?\n    expected_output: "${2 * i}"\n    rubrics:\n` +
            `      - Gives the right number\n`,
        ).join(""),
    );
    const runDir = join(dir, "run");
    await Deno.mkdir(join(runDir, ".agentv"), { recursive: true });
    const runCases = options.runCases ?? 2000;
    const runFile = join(runDir, "cases.jsonl");
    await Deno.writeTextFile(
      runFile,
      Array.from({ length: runCases }, (_, i) =>
        JSON.stringify({
          id: `case-${i}`,
          input: `Question number ${i}: say ok`,
          expected_outcome: "Answers ok",
          evaluators: [{ name: "says-ok", type: "contains", value: "ok" }],
        }) + "\n").join(""),
    );
    await Deno.writeTextFile(
      join(runDir, ".agentv", "targets.yaml"),
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n` +
        "    api_key: sk-bench\n    model: bench\n",
    );

    const rows: BenchRow[] = [];
    const add = (name: string, measured: number, bar: number, unit = "×") =>
      rows.push({ name, measured: Number(measured.toFixed(2)), bar, unit, ok: measured <= bar });
    const eval0 = () => timeProcess(["eval", "0"], dir);

    const version = await compare(runs, eval0, () => timeProcess(agentv("--version"), dir));
    add(
      `agentv --version / deno eval 0 (${ms(version.ours)} / ${ms(version.floor)})`,
      version.ours.ms / version.floor.ms,
      1.5,
    );
    const help = await compare(runs, eval0, () => timeProcess(agentv("--help"), dir));
    add(
      `agentv --help / deno eval 0 (${ms(help.ours)} / ${ms(help.floor)})`,
      help.ours.ms / help.floor.ms,
      1.5,
    );
    const small = await compare(
      runs,
      () =>
        timeProcess(
          ["run", "--allow-read", "--allow-env", join(dir, "yaml_floor.ts"), five],
          dir,
        ),
      () => timeProcess(agentv("validate", five), data),
    );
    add(
      `validate 5-case YAML / zod+yaml parse (${ms(small.ours)} / ${ms(small.floor)})`,
      small.ours.ms / small.floor.ms,
      1.5,
    );
    const big = await compare(
      runs,
      () =>
        timeProcess(["run", "--allow-read", join(dir, "jsonl_floor.ts"), jsonl], dir, {
          rss: true,
        }),
      () => timeProcess(agentv("validate", jsonl), data, { rss: true }),
    );
    add(
      `validate 100k JSONL / read+JSON.parse (${ms(big.ours)} / ${ms(big.floor)})`,
      big.ours.ms / big.floor.ms,
      2.5,
    );
    add(
      `validate 100k JSONL peak RSS / floor's (${mb(big.ours)} / ${mb(big.floor)})`,
      big.ours.rssMb! / big.floor.rssMb!,
      2,
    );
    const run = await compare(
      runs,
      () =>
        timeProcess([
          "run",
          "--allow-read",
          "--allow-write",
          "--allow-net=127.0.0.1",
          join(dir, "runner_floor.ts"),
          runFile,
          server.url,
          join(runDir, "floor.jsonl"),
        ], runDir),
      () =>
        timeProcess(
          agentv("run", runFile, "--workers", "32", "--out", join(runDir, "results.jsonl")),
          runDir,
        ),
    );
    add(
      `run ${runCases} cases, 50 ms, 32 workers / thin runner (${ms(run.ours)} / ${ms(run.floor)})`,
      run.ours.ms / run.floor.ms,
      1.05,
    );
    return rows;
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

function ms(t: Timed): string {
  return `${Math.round(t.ms)} ms`;
}

function mb(t: Timed): string {
  return `${Math.round(t.rssMb ?? 0)} MB`;
}

if (import.meta.main) {
  const { formatTable } = await import("./run_bench.ts");
  const rows = await benchCli();
  console.log(formatTable(rows));
  if (!rows.every((r) => r.ok)) Deno.exit(1);
}
