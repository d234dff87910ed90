/**
 * Evaluator results are bounded: a judge that returns a 100-million-character reasoning (or huge
 * details, or a million hits) gets a visible `…[truncated N bytes]` and every row of the run is
 * kept; a row that still cannot be serialised is written as an error row saying why.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createRunRecorder } from "../../lib/results/recorder.ts";
import { ResultsWriteError } from "../../lib/results/results_writer.ts";
import {
  boundList,
  boundResultFields,
  truncateText,
  VALUE_CAP_BYTES,
} from "../../lib/scoring/result_bounds.ts";
import type { ResultRow } from "../../mod.ts";
import { rowsOf } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { moduleJudge, runJudgedCases } from "./_judge_run.ts";

Deno.test("a module judge returning a 100-million-character reasoning is truncated and the run keeps every row", async () => {
  const run = await runJudgedCases([
    { id: "huge", evaluators: moduleJudge("../judges/huge.ts") },
    { id: "fine", evaluators: moduleJudge("../judges/fine.ts") },
    { id: "after", evaluators: moduleJudge("../judges/fine.ts") },
  ], {
    "judges/huge.ts": `export default () => ({
  score: 1,
  reasoning: "r".repeat(100_000_000),
  hits: Array.from({ length: 1_000_000 }, (_, i) => "hit " + i),
  details: { blob: "d".repeat(50_000_000), list: Array(1_000_000).fill(7) },
});
`,
    "judges/fine.ts": "export default () => ({ score: 1, reasoning: 'fine' });\n",
  });
  assert.equal(run.status, "finished");
  assert.deepEqual(Object.keys(run.rows).sort(), ["after", "fine", "huge"]);
  const huge = run.rows.huge.evaluator_results[0];
  assert.equal(huge.status, "ok", huge.error ?? "");
  assert.equal(huge.score, 1);
  assert.match(huge.reasoning ?? "", /^r+…\[truncated \d+ bytes\]$/);
  assert.ok((huge.reasoning ?? "").length < 70_000);
  assert.match(huge.hits.at(-1) ?? "", /^…\[truncated \d+ bytes\]$/);
  assert.ok(huge.hits.length < 1002);
  const details = JSON.stringify(huge.details);
  assert.match(details, /…\[truncated \d+ bytes\]/);
  assert.ok(details.length < 2 * VALUE_CAP_BYTES, `${details.length}`);
  assert.equal(run.rows.fine.evaluator_results[0].reasoning, "fine");
});

Deno.test("truncateText, boundList and boundResultFields cut with the number of bytes left out", () => {
  assert.equal(truncateText("abcdef", 4), "abcd…[truncated 2 bytes]");
  assert.equal(truncateText("héllo", 3), "hé…[truncated 3 bytes]");
  assert.equal(truncateText("😀😀", 5), "😀…[truncated 4 bytes]");
  assert.equal(truncateText("short", 100), "short");
  const list = boundList(Array(5000).fill("y".repeat(100)));
  assert.ok(list.length < 1001);
  assert.match(list.at(-1)!, /^…\[truncated \d+ bytes\]$/);
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const bounded = boundResultFields({
    reasoning: "x",
    error: "e".repeat(100_000),
    details: { cyclic, big: 10n },
    evaluator_provider_request: { prompt: "p".repeat(1_000_000) },
  });
  assert.equal(bounded.reasoning, "x");
  assert.match(bounded.error!, /…\[truncated 34464 bytes\]$/);
  assert.deepEqual(bounded.details, { cyclic: { a: 1, self: "[circular]" }, big: "10" });
  assert.match(JSON.stringify(bounded.evaluator_provider_request), /truncated \d+ bytes/);
});

function row(id: string, extra: Record<string, unknown> = {}): ResultRow {
  return {
    run_id: "r",
    trial: 0,
    timestamp: "2026-01-01T00:00:00.000Z",
    eval_id: id,
    dataset: "d",
    conversation_id: null,
    target: "t",
    status: "ok",
    score: 1,
    verdict: "pass",
    hits: [],
    misses: [],
    reasoning: null,
    candidate_answer: "a",
    evaluator_results: [],
    trace_summary: null,
    output_messages: [],
    token_usage: null,
    duration_ms: 1,
    attempts: 1,
    error: null,
    ...extra,
  };
}

Deno.test("a row that cannot be serialised is written as an error row naming why; later rows are written", async () => {
  await using tree = await tempTree({});
  const out = join(tree.dir, "out.jsonl");
  const recorder = createRunRecorder({ resultsPath: out });
  const options = {
    target: null,
    targets_file: null,
    judge_target: null,
    filter: null,
    workers: 1,
    timeout_ms: 1000,
    dry_run: false,
    threshold: null,
    root: null,
  };
  recorder.onEvent(
    await recorder.open({
      type: "run_started",
      total: 3,
      files: [],
      workers: 1,
      dry_run: false,
      options,
    }),
  );
  const finished = (r: ResultRow, done: number) =>
    recorder.onEvent({ type: "case_finished", row: r, done, total: 3 });
  finished(row("a"), 1);
  finished(row("bad", { details: { n: 10n } }), 2);
  finished(row("c"), 3);
  recorder.onEvent({ type: "run_finished", summary: recorder.summarize({}) });
  assert.equal(recorder.writeFailure, undefined);
  const rows = await rowsOf(out);
  assert.deepEqual(rows.map((r) => r.eval_id), ["a", "bad", "c"]);
  assert.equal(rows[1].status, "error");
  assert.match(rows[1].error ?? "", /could not be serialised as JSON \(TypeError: .*BigInt/);
  assert.equal(recorder.rows[1].status, "error");
  const record = JSON.parse(await Deno.readTextFile(`${out}.run.json`));
  assert.equal(record.status, "finished");
});

Deno.test("the results-file hint names the cause: free space only when the disk is full", () => {
  const full = new ResultsWriteError(
    "o.jsonl",
    0,
    new Error("No space left on device (os error 28)"),
  );
  assert.match(full.hint, /free space/);
  const tooLarge = new ResultsWriteError("o.jsonl", 0, new Error("File too large (os error 27)"));
  assert.match(tooLarge.hint, /size limit/);
  assert.doesNotMatch(tooLarge.hint, /free space/);
  const denied = new ResultsWriteError("o.jsonl", 0, new Deno.errors.PermissionDenied("no"));
  assert.match(denied.hint, /writable/);
});
