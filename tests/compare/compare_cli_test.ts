/**
 * `agentv compare` end to end (in-process): the corpus baseline/candidate files (copied from the
 * original tool's examples into fixtures/compare/), every output format, the `--fail-on` gates and
 * the usage errors.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCli } from "../../lib/cli/app.ts";
import { compareCommand } from "../../lib/cli/compare.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { jsonl, type RowSpec } from "./_rows.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/compare/", import.meta.url));

async function compare(args: string[], cwd = FIXTURES) {
  const io = createBufferIO({ cwd });
  const code = await runCli(["compare", ...args], io, { commands: [compareCommand] });
  return { code, out: io.out(), err: io.err() };
}

const CORPUS = ["baseline-results.jsonl", "candidate-results.jsonl"];

// The corpus pairs (baseline → candidate, Δ):
//   code-review-001 0.72 → 0.88  +0.16  win  (borderline → pass)
//   code-review-002 0.85 → 0.82  −0.03  tie
//   code-review-003 0.68 → 0.75  +0.07  tie
//   code-gen-001    0.90 → 0.92  +0.02  tie
//   code-gen-002    0.75 → 0.80  +0.05  tie  (borderline → pass)
// mean Δ = 0.27/5 = +0.054; sorted Δ −0.03, 0.02, 0.05, 0.07, 0.16 → median +0.05.
// Sign test: 4 up, 1 down → p = 2·(C(5,0) + C(5,1))/2^5 = 12/32 = 0.375.
// Wilcoxon: |Δ| ranks 0.02→1, 0.03→2, 0.05→3, 0.07→4, 0.16→5; W− = 2; subsets of {1..5} summing to
// ≤ 2: {}, {1}, {2} → p = 2·3/32 = 0.1875 ≥ 0.05, so whatever the bootstrap interval says, five
// cases cannot show a significant change: "no significant change".

Deno.test("compare: the corpus files give a significance-tested verdict in text", async () => {
  const { code, out, err } = await compare(CORPUS);
  assert.equal(code, 0, err);
  const lines = out.split("\n");
  assert.equal(lines[0], "Comparing: baseline-results.jsonl → candidate-results.jsonl");
  assert.match(out, /^code-review-001 +0\.72 +0\.88 +\+0\.16 +✓ win +borderline→pass$/m);
  assert.match(out, /^code-review-002 +0\.85 +0\.82 +-0\.03 += tie +pass$/m);
  assert.match(out, /^Summary: 1 win, 0 losses, 4 ties \| 2 verdict flips \(0 pass→fail\)/m);
  assert.match(out, /mean Δ \+0\.054, median Δ \+0\.050$/m);
  assert.match(out, /Wilcoxon signed-rank p = 0\.1875 \(exact, n = 5\)/);
  assert.match(out, /sign test p = 0\.375 \(4 up, 1 down, 0 unchanged\)/);
  assert.match(out, /10,000 resamples/);
  assert.match(lines.at(-2)!, /^Verdict: no significant change: mean Δ \+0\.054, 95% CI /);
});

Deno.test("compare --json: every pair, the counts and the statistics", async () => {
  const { code, out } = await compare([...CORPUS, "--json"]);
  assert.equal(code, 0);
  const doc = JSON.parse(out);
  assert.equal(doc.matched.length, 5);
  assert.deepEqual(doc.matched[0].eval_id, "code-review-001");
  assert.equal(doc.matched[0].outcome, "win");
  assert.ok(Math.abs(doc.matched[0].delta - 0.16) < 1e-12);
  assert.deepEqual(
    [doc.summary.matched, doc.summary.wins, doc.summary.losses, doc.summary.ties],
    [5, 1, 0, 4],
  );
  assert.equal(doc.summary.total, 10);
  assert.deepEqual(doc.unmatched, { file1: 0, file2: 0 });
  assert.ok(Math.abs(doc.summary.mean_delta - 0.054) < 1e-12);
  assert.ok(Math.abs(doc.summary.median_delta - 0.05) < 1e-12);
  assert.equal(doc.statistics.sign_test.p_value, 0.375);
  assert.equal(doc.statistics.wilcoxon.p_value, 0.1875);
  const ci = doc.statistics.confidence_interval;
  assert.equal(ci.resamples, 10_000);
  assert.ok(ci.low < 0.054 && 0.054 < ci.high);
  assert.equal(doc.statistics.significant, false);
  assert.equal(doc.verdict, "no significant change");
  // --format json is the same document; the same seed gives the same interval.
  const again = await compare([...CORPUS, "--format", "json"]);
  assert.equal(again.out, out);
});

Deno.test("compare --format markdown: verdict, summary table and changed cases", async () => {
  const { code, out } = await compare([...CORPUS, "--format", "markdown"]);
  assert.equal(code, 0);
  assert.match(
    out,
    /^## Comparison: `baseline-results\.jsonl` → `candidate-results\.jsonl`\n\n\*\*Verdict: no significant change:/,
  );
  assert.match(out, /^\| Wins \/ losses \/ ties \(tie: \\\|Δ\\\| ≤ 0\.1\) \| 1 \/ 0 \/ 4 \|$/m);
  assert.match(out, /^\| Sign test p \| 0\.375 \(4 up, 1 down, 0 unchanged\) \|$/m);
  assert.match(
    out,
    /^\| code-review-001 \| 0\.72 \| 0\.88 \| \+0\.16 \| ✅ win \| borderline→pass \|$/m,
  );
  assert.match(out, /^### Verdict flips$/m);
  assert.match(out, /10,000 resamples/);
});

Deno.test("compare --format markdown: ids cannot break the table; text output escapes controls", async () => {
  await using tree = await tempTree({
    "a.jsonl": jsonl([{ id: "a|b<x>\u001b[2J", score: 0.9 }]),
    "b.jsonl": jsonl([{ id: "a|b<x>\u001b[2J", score: 0.1 }]),
  });
  const md = await compare(["a.jsonl", "b.jsonl", "--format", "markdown"], tree.root);
  assert.match(
    md.out,
    /^\| ds\/a\\\|b&lt;x&gt; \\\[2J \| 0\.90 \| 0\.10 \| -0\.80 \| ❌ loss \| pass→fail \|$/m,
  );
  const text = await compare(["a.jsonl", "b.jsonl"], tree.root);
  assert.ok(!text.out.includes("\u001b"), "no raw escape character reaches the terminal");
  assert.match(text.out, /ds\/a\|b<x>\\x1b\[2J/);
});

Deno.test("compare --format html: hands the same pairing to the HTML page", async () => {
  const { code, out } = await compare([...CORPUS, "--format", "html"]);
  assert.equal(code, 0);
  assert.match(out, /^<!DOCTYPE html>/i);
  assert.match(out, /code-review-001/);
});

/** 12 cases that each improve by 0.2, plus one that goes from pass to fail. */
function improvedWithFlip(): { baseline: RowSpec[]; candidate: RowSpec[] } {
  const ids = Array.from({ length: 12 }, (_, i) => `case-${i}`);
  return {
    baseline: [
      ...ids.map((id, i) => ({ id, score: 0.4 + (i % 4) / 100 })),
      { id: "flip", score: 0.9 },
    ],
    candidate: [
      ...ids.map((id, i) => ({ id, score: 0.6 + (i % 4) / 100 + (i % 3) / 100 })),
      { id: "flip", score: 0.5 },
    ],
  };
}

/** 12 cases that each drop by about 0.2 and stay failing (no verdict flip). */
function regressedNoFlip(): { baseline: RowSpec[]; candidate: RowSpec[] } {
  const ids = Array.from({ length: 12 }, (_, i) => `case-${i}`);
  return {
    baseline: ids.map((id, i) => ({ id, score: 0.5 + (i % 4) / 100 })),
    candidate: ids.map((id, i) => ({ id, score: 0.3 + (i % 4) / 100 - (i % 3) / 100 })),
  };
}

Deno.test("compare --fail-on: each gate's exit code", async () => {
  await using tree = await tempTree({
    "flip-old.jsonl": jsonl(improvedWithFlip().baseline),
    "flip-new.jsonl": jsonl(improvedWithFlip().candidate),
    "drop-old.jsonl": jsonl(regressedNoFlip().baseline),
    "drop-new.jsonl": jsonl(regressedNoFlip().candidate),
  });
  const gate = async (files: string[], mode?: string) =>
    (await compare([...files, ...(mode ? ["--fail-on", mode] : [])], tree.root)).code;
  const flip = ["flip-old.jsonl", "flip-new.jsonl"];
  const drop = ["drop-old.jsonl", "drop-new.jsonl"];
  const corpus = CORPUS.map((f) => FIXTURES + f);

  // Improved overall (12 of 13 up: the interval is above 0), but one pass→fail flip.
  const improved = await compare([...flip, "--json"], tree.root);
  assert.equal(JSON.parse(improved.out).verdict, "improved");
  assert.deepEqual(
    [await gate(flip), await gate(flip, "regression"), await gate(flip, "flips")],
    [0, 1, 1],
  );
  assert.equal(await gate(flip, "significant"), 0);
  // Significantly worse (12 of 12 down: sign test p = 2/4096), no flip.
  const dropped = await compare([...drop, "--fail-on", "significant"], tree.root);
  assert.equal(dropped.code, 1);
  assert.match(dropped.out, /^Verdict: regressed: mean Δ -0\.2/m);
  assert.match(dropped.err, /--fail-on significant: the mean score is significantly lower/);
  assert.deepEqual([await gate(drop, "regression"), await gate(drop, "flips")], [1, 0]);
  const flipped = await compare([...flip, "--fail-on", "regression"], tree.root);
  assert.match(flipped.err, /--fail-on regression: 1 case\(s\) went from pass to fail\n$/);
  // The corpus: no significant change, no pass→fail.
  for (const mode of ["regression", "flips", "significant"]) {
    assert.equal(await gate(corpus, mode), 0, mode);
  }
});

Deno.test("compare: one-side-only cases are listed; --delta changes what is a tie", async () => {
  await using tree = await tempTree({
    "a.jsonl": jsonl([{ id: "x", score: 0.5 }, { id: "gone", score: 1 }]),
    "b.jsonl": jsonl([{ id: "x", score: 0.56 }, { id: "new", score: 0 }]),
  });
  const tie = await compare(["a.jsonl", "b.jsonl"], tree.root);
  assert.match(tie.out, /^Only in baseline \(1\):\n {2}ds\/gone {2}1\.00 pass$/m);
  assert.match(tie.out, /^Only in candidate \(1\):\n {2}ds\/new {2}0\.00 fail$/m);
  assert.match(tie.out, /1 paired case \(2 → 2 rows\)/);
  assert.match(tie.out, /0 wins, 0 losses, 1 tie/);
  const win = await compare(["a.jsonl", "b.jsonl", "--delta", "0.05"], tree.root);
  assert.match(win.out, /1 win, 0 losses, 0 ties/);
});

Deno.test("compare: above 100 pairs only the changed cases are listed, worst first", async () => {
  const ids = Array.from({ length: 120 }, (_, i) => `c${String(i).padStart(3, "0")}`);
  const changed: Record<string, number> = { c007: 0.3, c050: 0.9, c100: 0.45 }; // from 0.5
  await using tree = await tempTree({
    "a.jsonl": jsonl(ids.map((id) => ({ id, score: 0.5 }))),
    "b.jsonl": jsonl(
      ids.map((id) =>
        id === "c099"
          ? { id, score: 0, status: "error" as const }
          : { id, score: changed[id] ?? 0.5 }
      ),
    ),
  });
  const { out } = await compare(["a.jsonl", "b.jsonl"], tree.root);
  const listed = out.split("\n").filter((l) => /^ds\/c\d{3} /.test(l)).map((l) => l.split(" ")[0]);
  // c099 errored (score 0: Δ −0.5), c007 −0.2, c050 +0.4; c100 (−0.05) is a tie, not listed.
  assert.deepEqual(listed, ["ds/c099", "ds/c007", "ds/c050"]);
  assert.match(
    out,
    /^\(changed cases only, worst first: 117 ties without a verdict flip not listed; --json/m,
  );
  assert.match(out, /^Errors: 0 baseline trials and 1 candidate trial of the paired cases/m);
});

Deno.test("compare: unreadable rows are reported as file:line errors (exit 2)", async () => {
  await using tree = await tempTree({
    "bad.jsonl": jsonl([{ id: "a", score: 1 }]) +
      'not json\n[1, 2]\n{"eval_id": "z", "score": "high", "target": "t", "timestamp": "x"}\n',
    "good.jsonl": jsonl([{ id: "a", score: 1 }]),
    "empty.jsonl": "\n",
  });
  const bad = await compare(["bad.jsonl", "good.jsonl"], tree.root);
  assert.equal(bad.code, 2);
  assert.equal(bad.out, "");
  // Every bad line is named (file:line:col), none is silently dropped from the comparison.
  assert.match(bad.err, /^bad\.jsonl:2:1: error: Not JSON/m);
  assert.match(bad.err, /^bad\.jsonl:3:1: error: Not a result row: found an array/m);
  assert.match(bad.err, /^bad\.jsonl:4:\d+: error: .*'score'/m);
  const empty = await compare(["good.jsonl", "empty.jsonl"], tree.root);
  assert.equal(empty.code, 2);
  assert.match(empty.err, /^empty\.jsonl: error: The candidate results file has no result rows/m);
});

Deno.test("compare: usage errors exit 2 with a hint", async () => {
  const cases: [string[], RegExp][] = [
    [[], /agentv compare takes results files: one run of several targets, or several runs/],
    [
      ["baseline-results.jsonl"],
      /Nothing to compare: baseline-results\.jsonl holds the rows of one target/,
    ],
    [
      [...CORPUS, "--baseline", "candidate-results.json"],
      /--baseline 'candidate-results\.json' names none of the compared targets; did you mean 'candidate-results\.jsonl'\?/,
    ],
    [
      ["baseline-results.jsonl", "missing.jsonl"],
      /candidate results file 'missing\.jsonl' does not exist/,
    ],
    [[...CORPUS, "--delta=-1"], /--delta must be a number >= 0/],
    [[...CORPUS, "--delta", "abc"], /--delta must be a number >= 0/],
    [[...CORPUS, "--fail-on", "worse"], /--fail-on must be one of regression, flips, significant/],
    [[...CORPUS, "--format", "pdf"], /--format must be one of text, markdown, json, html/],
    [
      [...CORPUS, "--json", "--format", "markdown"],
      /--json and --format markdown ask for two outputs/,
    ],
    [[...CORPUS, "--seed", "1.5"], /--seed must be a whole number/],
  ];
  for (const [args, message] of cases) {
    const { code, out, err } = await compare(args);
    assert.equal(code, 2, args.join(" "));
    assert.equal(out, "");
    assert.match(err, message);
    assert.match(err, /^hint: /m);
  }
});
