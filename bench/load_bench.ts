/**
 * Loader speed against a floor, in one process (issue 2 §6). Generates, in a temp folder, a
 * 100,000-case JSONL file (about 40 MB) and a 10,000-case YAML file, then measures:
 *
 * - JSONL: `loadEvalCases` vs read + split lines + `JSON.parse` each (bar: at most 3×);
 * - YAML: `loadEvalCases` vs read + the `yaml` package's own `parse` (bar: at most 2×);
 * - streaming: peak RSS growth while `streamEvalCases` walks the 100,000 cases (bar: < 100 MB).
 *
 * Run: `deno run --allow-read --allow-write --allow-env bench/load_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { loadEvalCases } from "../lib/dataset/load_eval_cases.ts";

/** One measured comparison. */
export interface Comparison {
  /** Loader time (median of the runs), ms. */
  ms: number;
  /** Floor time (median of the runs), ms. */
  floorMs: number;
  /** `ms / floorMs`. */
  ratio: number;
}

/** The bench figures. */
export interface LoaderBench {
  /** 100,000-case JSONL. */
  jsonl: Comparison & { cases: number; megabytes: number };
  /** 10,000-case YAML. */
  yaml: Comparison & { cases: number; megabytes: number };
  /** Streaming the JSONL. */
  stream: { rssDeltaMb: number; cases: number };
}

/** Options of {@link benchLoader}. */
export interface BenchOptions {
  /** JSONL cases (default 100,000). */
  jsonlCases?: number;
  /** YAML cases (default 10,000). */
  yamlCases?: number;
  /** Timed runs per measurement (default 5; the median is reported). */
  runs?: number;
}

/**
 * A case like the spec's: system + user messages and an expected answer; every 2nd case has
 * inline rubrics, every 3rd its own evaluators, every 7th an `execution` override and every
 * 10th file references (a guideline and an attachment).
 */
export function caseRecord(i: number): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: `case-${i}`,
    expected_outcome: `Explains how to reset the password and stays polite (ticket ${i})`,
    input_messages: [
      { role: "system", content: "You are a support agent for ACME. Answer briefly." },
      { role: "user", content: `Ticket ${i}: how do I reset my password? The link expired.` },
    ],
    expected_output: `Request a new reset link from the login page (ticket ${i}).`,
  };
  if (i % 2 === 0) {
    record.rubrics = [`Mentions a new link (ticket ${i})`, { description: "Is polite", weight: 2 }];
  }
  if (i % 3 === 0) {
    record.evaluators = [
      { name: "keywords", type: "contains", values: ["reset", "link"] },
      { name: "judge", type: "llm_judge", weight: 2 },
    ];
  }
  if (i % 10 === 0) {
    (record.input_messages as unknown[])[1] = {
      role: "user",
      content: [
        { type: "text", value: `Ticket ${i}: review this code.` },
        { type: "file", value: "support.instructions.md" },
        { type: "file", value: "snippets/code.py" },
      ],
    };
  }
  if (i % 7 === 0) record.execution = { target: "azure_base" };
  return record;
}

function yamlCase(i: number): string {
  return `  - id: case-${i}
    conversation_id: conv-${i % 97}
    expected_outcome: Explains how to reset the password (ticket ${i}) and stays polite
    input:
      - role: system
        content: You are a support agent for ACME.
      - role: user
        content: "Ticket ${i}: how do I reset my password? The link expired."
    expected_output: Request a new reset link from the login page (ticket ${i}).
    rubrics:
      - Mentions requesting a new link
      - description: Is polite
        weight: 2
    evaluators:
      - name: keywords
        type: contains
        values: [reset, link]
      - name: judge
        type: llm_judge
        weight: 2
`;
}

/** Writes the bench datasets into `dir`: `cases.jsonl` and `suite.yaml`. */
export async function writeFixtures(dir: string, jsonlCases: number, yamlCases: number) {
  await Deno.mkdir(join(dir, ".agentv"), { recursive: true });
  await Deno.mkdir(join(dir, "snippets"), { recursive: true });
  await Deno.writeTextFile(join(dir, "support.instructions.md"), "Be brief and kind.\n");
  await Deno.writeTextFile(join(dir, "snippets", "code.py"), "def f(x):\n    return x\n");
  const jsonl = join(dir, "cases.jsonl");
  const file = await Deno.open(jsonl, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let batch: string[] = [];
  for (let i = 0; i < jsonlCases; i++) {
    batch.push(JSON.stringify(caseRecord(i)));
    if (batch.length === 5000 || i === jsonlCases - 1) {
      const bytes = encoder.encode(batch.join("\n") + "\n");
      let off = 0;
      while (off < bytes.length) off += await file.write(bytes.subarray(off));
      batch = [];
    }
  }
  file.close();
  const yaml = join(dir, "suite.yaml");
  const parts = ["description: bench\nexecution:\n  target: default\nevalcases:\n"];
  for (let i = 0; i < yamlCases; i++) parts.push(yamlCase(i));
  await Deno.writeTextFile(yaml, parts.join(""));
  return { jsonl, yaml };
}

/** Median times of `a` and `b`, measured alternately so load drift affects both alike. */
async function medians(
  runs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await a();
    ta.push(performance.now() - t);
    t = performance.now();
    await b();
    tb.push(performance.now() - t);
  }
  const mid = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [mid(ta), mid(tb)];
}

async function streamInChild(path: string): Promise<{ cases: number; deltaBytes: number }> {
  const probe = new URL("./_stream_probe.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env=LOG_TOKENS,LOG_STREAM", probe, path],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`stream probe failed with exit code ${out.code}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

async function jsonlFloor(path: string): Promise<number> {
  const text = await Deno.readTextFile(path);
  let n = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    JSON.parse(line);
    n++;
  }
  return n;
}

async function yamlFloor(path: string): Promise<unknown> {
  return parseYaml(await Deno.readTextFile(path));
}

/**
 * Generates the datasets in a temp folder, measures, removes the folder and returns the figures.
 *
 * @example
 * ```ts
 * const r = await benchLoader({ jsonlCases: 1000, yamlCases: 100, runs: 1 });
 * console.log(r.jsonl.ratio <= 3, r.yaml.ratio <= 2);
 * ```
 */
export async function benchLoader(options: BenchOptions = {}): Promise<LoaderBench> {
  const jsonlCases = options.jsonlCases ?? 100_000;
  const yamlCases = options.yamlCases ?? 10_000;
  const runs = options.runs ?? 5;
  const dir = await Deno.makeTempDir({ prefix: "agentv-bench-" });
  try {
    const paths = await writeFixtures(dir, jsonlCases, yamlCases);
    // Streaming in a fresh process, so the growth is not hidden by this process's own heap.
    const stream = await streamInChild(paths.jsonl);

    let loaded = 0;
    await jsonlFloor(paths.jsonl); // warm-up
    loaded = (await loadEvalCases(paths.jsonl)).length; // warm-up
    const [jsonlFloorMs, jsonlMs] = await medians(
      runs,
      () => jsonlFloor(paths.jsonl),
      () => loadEvalCases(paths.jsonl),
    );

    await yamlFloor(paths.yaml);
    const yamlLoaded = (await loadEvalCases(paths.yaml)).length;
    const [yamlFloorMs, yamlMs] = await medians(
      runs,
      () => yamlFloor(paths.yaml),
      () => loadEvalCases(paths.yaml),
    );

    const mb = async (p: string) => (await Deno.stat(p)).size / 1e6;
    return {
      jsonl: {
        ms: round(jsonlMs),
        floorMs: round(jsonlFloorMs),
        ratio: round(jsonlMs / jsonlFloorMs),
        cases: loaded,
        megabytes: round(await mb(paths.jsonl)),
      },
      yaml: {
        ms: round(yamlMs),
        floorMs: round(yamlFloorMs),
        ratio: round(yamlMs / yamlFloorMs),
        cases: yamlLoaded,
        megabytes: round(await mb(paths.yaml)),
      },
      stream: { rssDeltaMb: round(stream.deltaBytes / 1e6), cases: stream.cases },
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (import.meta.main) {
  const r = await benchLoader();
  console.log(JSON.stringify(r, null, 2));
  const ok = r.jsonl.ratio <= 3 && r.yaml.ratio <= 2 && r.stream.rssDeltaMb < 100;
  console.log(ok ? "loader bench: all bars met" : "loader bench: a bar was missed");
  if (!ok) Deno.exitCode = 1;
}
