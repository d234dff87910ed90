/**
 * What a results row may claim, written as the forgeries they stop: a score outside [0, 1], a
 * verdict its score does not give (a failing case shown as passing), and a second row of one
 * (dataset, case, target, trial) (which readers used to count as an extra trial). Each is a
 * located problem in `readResults`; `report` leaves it out (exit 1), `compare` stops (exit 2).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResults } from "../../lib/results/read_results.ts";
import type { EvaluatorResult } from "../../lib/schema/result.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";
import { row } from "./_rows.ts";

function lines(...values: unknown[]): string {
  return values.map((v) => JSON.stringify(v) + "\n").join("");
}

function judge(score: number, verdict: EvaluatorResult["verdict"]): EvaluatorResult {
  return {
    name: "j",
    type: "llm_judge",
    status: "ok",
    score,
    weight: 1,
    verdict,
    hits: [],
    misses: [],
  };
}

Deno.test("a row whose score is outside [0, 1] is a located problem, and left out", () => {
  const high = { ...row("high", 1), score: 1.5 };
  const low = { ...row("low", 0), score: -0.25 };
  const nested = row("nested", 1, { evaluator_results: [{ ...judge(1, "pass"), score: 7 }] });
  const text = lines(row("ok", 1), high, low, nested);
  const out = parseResults(text, { file: "r.jsonl" });
  assert.deepEqual(out.rows.map((r) => r.eval_id), ["ok"]);
  assert.deepEqual(
    out.problems.map((p) => [p.line, p.path]),
    [[2, "score"], [3, "score"], [4, "evaluator_results[0].score"]],
  );
  const second = text.split("\n")[1];
  assert.equal(out.problems[0].column, second.indexOf('"score":') + 1);
  assert.match(
    out.problems[0].message,
    /'score' is above 1: a score is from 0 to 1 \(found 1\.5\)/,
  );
  assert.match(
    out.problems[1].message,
    /'score' is below 0: a score is from 0 to 1 \(found -0\.25\)/,
  );
});

Deno.test("a row whose verdict its score does not give is a problem", () => {
  const forged = [
    { ...row("fail-as-pass", 0.1), verdict: "pass" },
    { ...row("borderline-as-pass", 0.7), verdict: "pass" },
    { ...row("pass-as-borderline", 0.95), verdict: "borderline" },
    // A fail may be forced, but only by a failing evaluator; none failed here.
    { ...row("unforced-fail", 0.9, { evaluator_results: [judge(0.9, "pass")] }), verdict: "fail" },
  ];
  const out = parseResults(lines(...forged), { file: "r.jsonl" });
  assert.deepEqual(out.rows, []);
  assert.deepEqual(out.problems.map((p) => [p.line, p.path]), [
    [1, "verdict"],
    [2, "verdict"],
    [3, "verdict"],
    [4, "verdict"],
  ]);
  assert.match(
    out.problems[0].message,
    /'verdict' is 'pass' but its score 0\.1 gives 'fail' \(pass >= 0\.8, borderline >= 0\.6, else fail\)/,
  );
  // What agentv writes reads back: verdicts by the thresholds, a fail forced by a required
  // rubric (its evaluator's verdict is fail), error and skipped rows (score 0, fail).
  const written = [
    row("pass", 0.8),
    row("borderline", 0.6),
    row("fail", 0.59),
    {
      ...row("forced", 0.9, { evaluator_results: [judge(1, "pass"), judge(0.8, "fail")] }),
      verdict: "fail",
    },
    row("error", 0, { status: "error", error: "HTTP 500" }),
    row("skipped", 0, { status: "skipped" }),
  ];
  const good = parseResults(lines(...written));
  assert.deepEqual(good.problems, []);
  assert.equal(good.rows.length, 6);
});

Deno.test("a second row of one (dataset, case, target, trial) is an error naming the first line", () => {
  const text = lines(
    row("a", 1),
    row("b", 0.2),
    row("a", 1, { trial: 1 }), // another trial
    row("a", 1, { target: "other" }), // another target
    row("a", 1, { dataset: "other" }), // another dataset
    row("a", 0.1), // the same case run again: forged or merged by hand
  );
  const out = parseResults(text, { file: "r.jsonl" });
  assert.deepEqual(out.rows.map((r) => `${r.dataset}/${r.eval_id}/${r.target}/${r.trial}`), [
    "ds/a/default/0",
    "ds/b/default/0",
    "ds/a/default/1",
    "ds/a/other/0",
    "other/a/default/0",
  ]);
  assert.deepEqual(out.bad_lines, [6]);
  assert.deepEqual(out.duplicates, out.problems);
  assert.deepEqual([out.problems[0].file, out.problems[0].line], ["r.jsonl", 6]);
  assert.match(
    out.problems[0].message,
    /^Duplicate result row: case 'a' of dataset 'ds' on target 'default', trial 0, is also at line 1; expected one row per \(dataset, case, target, trial\); remove one of the two lines$/,
  );
});

Deno.test("report leaves forged rows out (exit 1) and compare refuses them (exit 2), naming the lines", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "nope"]]),
  });
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 1);
  const path = join(p.dir, "o.jsonl");
  const text = await Deno.readTextFile(path);
  const [first, second] = text.trimEnd().split("\n").map((l) => JSON.parse(l));
  const failing = first.verdict === "fail" ? first : second;
  // The failing case shown as passing, a copy of a row, and a score over 1.
  const forged = text +
    JSON.stringify({ ...failing, trial: 1, verdict: "pass" }) + "\n" +
    JSON.stringify(first) + "\n" +
    JSON.stringify({ ...first, trial: 2, score: 100 }) + "\n";
  await Deno.writeTextFile(path, forged);
  const report = await cli(["report", "o.jsonl"], p.dir);
  assert.equal(report.code, 1, report.err);
  assert.match(report.err, /o\.jsonl:3:\d+: warning: Invalid result row: 'verdict' is 'pass'/);
  assert.match(report.err, /o\.jsonl:4:1: warning: Duplicate result row: .* is also at line 1/);
  assert.match(report.err, /o\.jsonl:5:\d+: warning: Invalid result row: 'score' is above 1/);
  assert.match(report.out, /\| a \| 2 \| 1 \| 0 \| 1 \|/, "two cases, one pass, one fail");
  const compare = await cli(["compare", "o.jsonl", "o.jsonl"], p.dir);
  assert.equal(compare.code, 2);
  assert.match(compare.err, /o\.jsonl:4:1: error: Duplicate result row/);
});
