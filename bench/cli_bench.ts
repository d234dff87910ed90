/**
 * Whole-process benchmarks: the CLI spawned as a user runs it (`deno run` with exactly the
 * permission flags of the `compile` task, the dataset folder as working directory), each against
 * a floor measured in the same run, alternately, median of 5 (after one warm-up of each):
 *
 * - `--version`, `--help` vs `deno eval 0` (bar 1.5×);
 * - `validate` of a 5-case YAML vs a script that imports zod + yaml and parses the file (1.5×);
 * - `validate` of 100,000 JSONL cases vs a script that reads the file and `JSON.parse`s each
 *   line (2.5×), and peak RSS vs the floor's (2×): the loader bench's own mixed dataset, then
 *   each of the three shapes of `validate_shapes.ts` (minimal; three evaluators; rubrics and tool
 *   calls), each against its own floor;
 * - `run` of 2,000 cases (50 ms loopback OpenAI-compatible server, 32 workers, results file and
 *   summary) vs a thin runner script that reads the JSONL, fetches with 32 workers and appends
 *   one row per case (1.05×).
 *
 * Run: `deno run --allow-read --allow-write --allow-env --allow-net=127.0.0.1 --allow-run
 * bench/cli_bench.ts` (or `deno task bench`, which runs every benchmark). `--only shapes` (or
 * `start`, `small`, `jsonl`, `run`; repeatable or comma-separated) measures only those rows, and
 * `--runs N` sets the timed runs per figure.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeFixtures } from "./load_bench.ts";
import { FLOORS } from "./_floors.ts";
import { SHAPES, writeShape } from "./validate_shapes.ts";
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

/** The groups of rows {@link benchCli} can measure. */
export const CLI_BENCH_GROUPS = ["start", "small", "jsonl", "shapes", "run"] as const;

/** One of {@link CLI_BENCH_GROUPS}. */
export type CliBenchGroup = typeof CLI_BENCH_GROUPS[number];

/** Options of {@link benchCli}. */
export interface CliBenchOptions {
  /** Timed runs per figure (default 5). */
  runs?: number;
  /** Cases of the big JSONL and of each shape (default 100,000). */
  jsonlCases?: number;
  /** Cases of the run figure (default 2,000). */
  runCases?: number;
  /** Only these groups of rows (default all). */
  only?: readonly CliBenchGroup[];
}

/** What each group of rows needs: the bench folder, the CLI's arguments and the row sink. */
interface BenchContext {
  dir: string;
  data: string;
  runs: number;
  jsonlCases: number;
  runCases: number;
  agentv: (...args: string[]) => string[];
  add: (name: string, measured: number, bar: number) => void;
}

/**
 * Measures the whole-process figures and returns them as table rows.
 *
 * @example
 * ```ts ignore
 * import { benchCli } from "./cli_bench.ts";
 * const rows = await benchCli({ runs: 1, jsonlCases: 1000, runCases: 64 });
 * console.log(rows.every((r) => r.ok));
 * ```
 */
export async function benchCli(options: CliBenchOptions = {}): Promise<BenchRow[]> {
  await requireGnuTime();
  const flags = await compileFlags();
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv-cli-bench-" }));
  const rows: BenchRow[] = [];
  const ctx: BenchContext = {
    dir,
    data: join(dir, "data"),
    runs: options.runs ?? 5,
    jsonlCases: options.jsonlCases ?? 100_000,
    runCases: options.runCases ?? 2000,
    agentv: (...args) => ["run", ...flags, "--config", CONFIG, MAIN, ...args],
    add: (name, measured, bar) =>
      rows.push({
        name,
        measured: Number(measured.toFixed(2)),
        bar,
        unit: "×",
        ok: measured <= bar,
      }),
  };
  const only = new Set(options.only ?? CLI_BENCH_GROUPS);
  try {
    for (const [name, text] of Object.entries(FLOORS)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    await Deno.mkdir(ctx.data);
    await Deno.mkdir(join(ctx.data, ".agentv"));
    await Deno.writeTextFile(
      join(ctx.data, ".agentv", "targets.yaml"),
      // Judged cases (the default llm_judge, rubrics) need a judge for validate to pass them.
      "targets:\n  - name: default\n    provider: mock\n    judge_target: judge\n" +
        "  - name: azure_base\n    provider: mock\n    judge_target: judge\n" +
        "  - name: judge\n    provider: mock\n    judge: true\n",
    );
    if (only.has("start")) await benchStart(ctx);
    if (only.has("small")) await benchSmallValidate(ctx);
    if (only.has("jsonl")) await benchJsonl(ctx);
    if (only.has("shapes")) await benchShapes(ctx);
    if (only.has("run")) await benchRun(ctx);
    return rows;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `--version` and `--help` against `deno eval 0`. */
async function benchStart(ctx: BenchContext): Promise<void> {
  const { dir, runs, agentv, add } = ctx;
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
}

/** `validate` of a 5-case YAML against importing zod + yaml and parsing it. */
async function benchSmallValidate(ctx: BenchContext): Promise<void> {
  const { dir, data, runs, agentv, add } = ctx;
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
  const small = await compare(
    runs,
    () =>
      timeProcess(["run", "--allow-read", "--allow-env", join(dir, "yaml_floor.ts"), five], dir),
    () => timeProcess(agentv("validate", five), data),
  );
  add(
    `validate 5-case YAML / zod+yaml parse (${ms(small.ours)} / ${ms(small.floor)})`,
    small.ours.ms / small.floor.ms,
    1.5,
  );
}

/** `validate` of one JSONL file against reading it and `JSON.parse`-ing each line: time and RSS. */
async function benchValidateJsonl(ctx: BenchContext, file: string, label: string): Promise<void> {
  const { dir, data, runs, agentv, add } = ctx;
  const measured = await compare(
    runs,
    () =>
      timeProcess(["run", "--allow-read", join(dir, "jsonl_floor.ts"), file], dir, { rss: true }),
    () => timeProcess(agentv("validate", file), data, { rss: true }),
  );
  add(
    `validate ${label} / read+JSON.parse (${ms(measured.ours)} / ${ms(measured.floor)})`,
    measured.ours.ms / measured.floor.ms,
    2.5,
  );
  add(
    `validate ${label} peak RSS / floor's (${mb(measured.ours)} / ${mb(measured.floor)})`,
    measured.ours.rssMb! / measured.floor.rssMb!,
    2,
  );
}

/** The loader bench's own 100k-case dataset (mixed: rubrics, evaluators, file references). */
async function benchJsonl(ctx: BenchContext): Promise<void> {
  const { jsonl } = await writeFixtures(ctx.data, ctx.jsonlCases, 0);
  await benchValidateJsonl(ctx, jsonl, `${thousands(ctx.jsonlCases)} JSONL`);
}

/** The three shapes of issue 20 §4, each with its own floor measured in the same run. */
async function benchShapes(ctx: BenchContext): Promise<void> {
  for (const shape of SHAPES) {
    const file = join(ctx.data, `${shape}.jsonl`);
    await writeShape(file, shape, ctx.jsonlCases);
    await benchValidateJsonl(ctx, file, `${thousands(ctx.jsonlCases)} ${shape}`);
    await Deno.remove(file);
  }
}

/** `run` of 2,000 cases against a 50 ms loopback server, against a thin fetch-and-append runner. */
async function benchRun(ctx: BenchContext): Promise<void> {
  const { dir, runs, runCases, agentv, add } = ctx;
  const server = await latencyServer(50);
  try {
    const runDir = join(dir, "run");
    await Deno.mkdir(join(runDir, ".agentv"), { recursive: true });
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
  } finally {
    await server.stop();
  }
}

function thousands(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

function ms(t: Timed): string {
  return `${Math.round(t.ms)} ms`;
}

function mb(t: Timed): string {
  return `${Math.round(t.rssMb ?? 0)} MB`;
}

if (import.meta.main) {
  const { formatTable } = await import("./run_bench.ts");
  const { values } = parseArgs({
    args: Deno.args,
    options: { only: { type: "string", multiple: true }, runs: { type: "string" } },
  });
  const only = values.only?.flatMap((o) => o.split(","));
  for (const group of only ?? []) {
    if (!(CLI_BENCH_GROUPS as readonly string[]).includes(group)) {
      throw new Error(`--only ${group}: expected one of ${CLI_BENCH_GROUPS.join(", ")}`);
    }
  }
  const rows = await benchCli({
    ...(only ? { only: only as CliBenchGroup[] } : {}),
    ...(values.runs !== undefined ? { runs: Number(values.runs) } : {}),
  });
  console.log(formatTable(rows));
  if (!rows.every((r) => r.ok)) Deno.exit(1);
}
