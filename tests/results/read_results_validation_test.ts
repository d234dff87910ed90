/** readResults(): rows are checked, bad ones reported by line; the original tool's rows are read. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseResults, readResults } from "../../lib/results/read_results.ts";
import { row } from "./_rows.ts";

const CORPUS = fileURLToPath(new URL("../../fixtures/corpus/agentv-examples", import.meta.url));

/** Every `.jsonl` file under `dir`. */
async function* jsonlFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* jsonlFiles(path);
    else if (entry.name.endsWith(".jsonl")) yield path;
  }
}

/** The verdict thresholds as the README states them: pass >= 0.8, borderline >= 0.6. */
function expectedVerdict(score: number): string {
  return score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail";
}

Deno.test("a line that is not a valid row is reported with its line, column and key, and left out", () => {
  const good = JSON.stringify(row("a", 1));
  const badScore = JSON.stringify({ ...row("b", 1), score: "high" });
  const text = [good, badScore, "[1, 2]", "{oops", JSON.stringify(row("c", 0.5)), '{"eval_id": "d"']
    .join("\n");
  const out = parseResults(text, { file: "runs/r.jsonl" });
  assert.deepEqual(out.rows.map((r) => r.eval_id), ["a", "c"]);
  assert.deepEqual(out.bad_lines, [2, 3, 4]);
  assert.equal(out.partial_line, '{"eval_id": "d"', "the torn last line is skipped quietly");
  assert.deepEqual(
    out.problems.map((p) => [p.severity, p.file, p.line, p.column, p.path]),
    [
      ["error", "runs/r.jsonl", 2, badScore.indexOf('"score":') + 1, "score"],
      ["error", "runs/r.jsonl", 3, 1, undefined],
      ["error", "runs/r.jsonl", 4, 1, undefined],
    ],
  );
  assert.match(out.problems[0].message, /^Invalid result row: 'score' .*number.*; fix or remove/);
  assert.match(out.problems[1].message, /^Not a result row: found an array/);
  assert.match(out.problems[2].message, /^Not JSON/);
});

Deno.test("a missing key and a bad nested value are named by their path", () => {
  const { eval_id: _, ...noId } = row("a", 1);
  const nested = {
    ...row("b", 1),
    evaluator_results: [{
      name: "x",
      type: "contains",
      status: "ok",
      score: 1,
      weight: 1,
      verdict: "maybe",
      hits: [],
      misses: [],
    }],
  };
  const out = parseResults(JSON.stringify(noId) + "\n" + JSON.stringify(nested) + "\n");
  assert.equal(out.rows.length, 0);
  assert.deepEqual(out.problems.map((p) => p.path), ["eval_id", "evaluator_results[0].verdict"]);
  assert.match(out.problems[0].message, /'eval_id' is missing/);
});

Deno.test("a row written before run ids reads with the keys it lacks as null and trial 0", () => {
  const {
    run_id: _r,
    trial: _t,
    error: _e,
    conversation_id: _c,
    reasoning: _re,
    token_usage: _tu,
    trace_summary: _ts,
    ...older
  } = row("a", 0.7);
  const [read] = parseResults(JSON.stringify(older) + "\n").rows;
  assert.deepEqual(read, { ...row("a", 0.7), run_id: null });
});

Deno.test("rows of the original tool are mapped: status from error, verdict from the score", () => {
  const lines = [
    { eval_id: "ok", score: 0.85, target: "t", timestamp: "2025-01-15T10:00:00Z" },
    { eval_id: "mid", score: 0.6, target: "t", timestamp: "2025-01-15T10:00:00Z", dataset: "ds" },
    {
      eval_id: "boom",
      score: 0,
      target: "t",
      timestamp: "2025-01-15T10:00:00Z",
      error: "provider down",
      candidate_answer: "Error occurred: provider down",
      trace_summary: {
        event_count: 0,
        tool_names: [],
        tool_calls_by_name: {},
        error_count: 0,
        token_usage: { input: 4, output: 2 },
        duration_ms: 12,
      },
      evaluator_results: [{
        name: "j",
        type: "llm_judge",
        score: 0.5,
        weight: 1,
        verdict: "fail",
        hits: [],
        misses: ["x"],
      }],
      lm_provider_request: { question: "q" },
    },
  ];
  const out = parseResults(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  assert.deepEqual(out.problems, []);
  assert.equal(out.original_rows, 3);
  assert.deepEqual(
    out.rows.map((r) => [r.eval_id, r.dataset, r.status, r.verdict, r.error, r.run_id, r.trial]),
    [
      ["ok", "", "ok", "pass", null, null, 0],
      ["mid", "ds", "ok", "borderline", null, null, 0],
      ["boom", "", "error", "fail", "provider down", null, 0],
    ],
  );
  const boom = out.rows[2];
  assert.deepEqual(boom.token_usage, { input: 4, output: 2 });
  assert.equal(boom.duration_ms, 12);
  assert.equal(boom.evaluator_results[0].status, "ok");
  assert.deepEqual(boom.lm_provider_request, { question: "q" }, "the original's own keys are kept");
});

Deno.test("every results file of the corpus reads whole, with scores kept and verdicts by the thresholds", async () => {
  let files = 0;
  for await (const path of jsonlFiles(CORPUS)) {
    const isResults = path.endsWith(".baseline.jsonl") ||
      path.replaceAll("\\", "/").includes("/features/compare/");
    if (!isResults) continue;
    const entry = { path };
    files++;
    const text = await Deno.readTextFile(entry.path);
    const lines = text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
    const out = await readResults(entry.path);
    assert.deepEqual(out.problems, [], entry.path);
    assert.equal(out.partial_line, undefined, entry.path);
    assert.equal(out.original_rows, lines.length, entry.path);
    assert.deepEqual(
      out.rows.map((r) => [r.eval_id, r.score, r.target, r.verdict, r.status]),
      lines.map((l) => [
        l.eval_id,
        l.score,
        l.target,
        expectedVerdict(l.score),
        typeof l.error === "string" && l.error.trim() !== "" ? "error" : "ok",
      ]),
      entry.path,
    );
  }
  assert.equal(files, 18, "16 *.baseline.jsonl files and the two compare files");
});

Deno.test("rows written before the integrity guard read without it; a row's integrity is checked by its path", () => {
  const older = JSON.stringify(row("old", 1));
  const flagged = JSON.stringify({
    ...row("new", 0),
    integrity: {
      status: "flagged",
      findings: [{ kind: "claim_without_test_run", evidence: "The answer says ..." }],
    },
  });
  const bad = JSON.stringify({
    ...row("bad", 1),
    integrity: { status: "clean", findings: [{ kind: "made_up", evidence: "x" }] },
  });
  const out = parseResults([older, flagged, bad].join("\n") + "\n");
  assert.deepEqual(out.rows.map((r) => [r.eval_id, r.integrity?.status]), [
    ["old", undefined],
    ["new", "flagged"],
  ]);
  assert.deepEqual(out.problems.map((p) => [p.line, p.path]), [
    [3, "integrity.findings[0].kind"],
  ]);
  assert.match(out.problems[0].message, /'integrity\.findings\[0\]\.kind'/);
});
