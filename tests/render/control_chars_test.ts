/**
 * Report: control characters in ids, messages and paths (from a dataset or a target) are shown
 * as visible escapes on the console and in diagnostics; results rows keep the raw text.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { renderDiagnostic } from "../../lib/render/diagnostics.ts";
import { createProgressReporter, renderSummary } from "../../lib/render/console.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { escapeControl } from "../../lib/text/escape_control.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";

const EVIL_ID = "ok\x1b[2J\rFAKE\nline\u202e\x07";
const SHOWN_ID = "ok\\x1b[2J\\rFAKE\\nline\\u202e\\x07";

/** Any character a terminal would act on (newlines between lines are the caller's). */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function row(overrides: Partial<ResultRow>): ResultRow {
  return {
    timestamp: "2025-01-01T00:00:00.000Z",
    eval_id: EVIL_ID,
    dataset: "d",
    target: "t\x1b]0;title\x07",
    status: "error",
    score: 0,
    verdict: "fail",
    hits: [],
    misses: [],
    candidate_answer: "",
    evaluator_results: [],
    output_messages: [],
    duration_ms: 5,
    attempts: 1,
    error: "boom\r\n[2/2] pass  1.000  forged",
    ...overrides,
  } as ResultRow;
}

Deno.test("escapeControl() shows controls as escapes and leaves other text alone", () => {
  assert.equal(escapeControl(EVIL_ID), SHOWN_ID);
  assert.equal(escapeControl("tab\there \u0085 café ✓ 😀"), "tab\\there \\x85 café ✓ 😀");
});

Deno.test("progress lines and the summary escape control characters in ids and messages", () => {
  let out = "";
  const progress = createProgressReporter({ write: (t) => out += t, isTTY: false, color: false });
  const rows = [row({}), row({ status: "ok", verdict: "pass", score: 1, error: undefined })];
  rows.forEach((r, i) =>
    progress.onEvent({ type: "case_finished", row: r, done: i + 1, total: 2 })
  );
  progress.finish();
  out += renderSummary(summarizeResults(rows), { color: false });
  assert.doesNotMatch(out, RAW_CONTROL);
  assert.ok(out.includes(`[1/2] ERROR  ${SHOWN_ID}: boom\\r\\n[2/2] pass`), out);
  assert.ok(out.includes(`${SHOWN_ID} [t\\x1b]0;title\\x07]: boom\\r\\n`), out);
  // The forged "[2/2] pass" never starts a line of its own.
  assert.equal(out.split("\n").filter((l) => l.startsWith("[2/2]")).length, 1);
});

Deno.test("diagnostics escape control characters in the message and the file name", () => {
  const text = renderDiagnostic({
    severity: "error",
    file: "/repo/evals/a\x1b[31m\n.yaml",
    line: 3,
    column: 5,
    message: `Case '${EVIL_ID}': bad weight`,
  }, { cwd: "/repo" });
  assert.equal(text, `evals/a\\x1b[31m\\n.yaml:3:5: error: Case '${SHOWN_ID}': bad weight`);
});

Deno.test("run prints a control-laden id escaped; the results row keeps it raw", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    response: Paris\n",
    "evals/a.yaml": `evalcases:
  - id: ${JSON.stringify(EVIL_ID)}
    expected_outcome: x
    input: q
    evaluators:
      - type: contains
        value: Paris
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.out + r.err, RAW_CONTROL);
  assert.ok(r.out.includes(SHOWN_ID), r.out);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(rows[0].eval_id, EVIL_ID);
});
