/**
 * `agentv compare RESULTS...` on several targets, end to end (in-process): a run of three mock
 * targets compared as a leaderboard with Holm-corrected pairs in every format; restricted to two
 * targets the figures are those of the two-file comparison; the gates (`--fail-on regression`
 * against `--baseline`, `--require-best`); `--out` writes the output and refuses to write over a
 * results file compared or its run record.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { cli, containsSuite, project } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { jsonl, type RowSpec } from "./_rows.ts";

async function compare(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(["compare", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** Scores of 30 cases for three targets, spread so that the pairs differ in sign and size. */
function spread(): RowSpec[] {
  const specs: RowSpec[] = [];
  for (let i = 0; i < 30; i++) {
    const base = ((i * 37) % 11) / 20;
    specs.push(
      { id: `c${i}`, target: "A", score: base },
      { id: `c${i}`, target: "B", score: Math.min(1, base + ((i * 7) % 5) / 20) },
      { id: `c${i}`, target: "C", score: Math.max(0, base - ((i * 3) % 4) / 25) },
    );
  }
  return specs;
}

Deno.test("restricted to two targets, the N-way figures are those of the two-file compare", async () => {
  const specs = spread();
  await using tree = await tempTree({
    "abc.jsonl": jsonl(specs),
    "ab.jsonl": jsonl(specs.filter((s) => s.target !== "C")),
    "a.jsonl": jsonl(specs.filter((s) => s.target === "A")),
    "b.jsonl": jsonl(specs.filter((s) => s.target === "B")),
  });
  const two = JSON.parse((await compare(["a.jsonl", "b.jsonl", "--json"], tree.dir)).out);
  const three = JSON.parse((await compare(["abc.jsonl", "--json"], tree.dir)).out);
  const ab = JSON.parse((await compare(["ab.jsonl", "--json"], tree.dir)).out);
  assert.equal(two.kind, undefined, "two files of one target each: the two-run document");
  assert.equal(three.kind, "matrix");
  assert.equal(three.correction.pairs, 3);
  const pairAB = three.pairwise.find((p: { baseline: string; candidate: string }) =>
    p.baseline === "A" && p.candidate === "B"
  );
  // The same pairs, Δ, interval and tests as the two-file compare (before the correction).
  assert.deepEqual(
    [pairAB.cases, pairAB.wins, pairAB.losses, pairAB.ties, pairAB.mean_delta],
    [
      two.summary.matched,
      two.summary.wins,
      two.summary.losses,
      two.summary.ties,
      two.summary.mean_delta,
    ],
  );
  assert.deepEqual(pairAB.statistics.confidence_interval, two.statistics.confidence_interval);
  assert.deepEqual(pairAB.statistics.wilcoxon, two.statistics.wilcoxon);
  assert.deepEqual(pairAB.statistics.sign_test, two.statistics.sign_test);
  // One pair: Holm changes nothing, and the verdict is the two-file one.
  assert.equal(ab.correction.pairs, 1);
  const [only] = ab.pairwise;
  assert.equal(only.statistics.p_holm, two.statistics.wilcoxon.p_value);
  assert.equal(only.statistics.significant, two.statistics.significant);
  assert.deepEqual(only.statistics.confidence_interval, two.statistics.confidence_interval);
  assert.ok(pairAB.statistics.p_holm >= pairAB.statistics.wilcoxon.p_value);
});

const TARGETS = `targets:
  - name: a
    provider: mock
    response: ok a
    cost_usd: 0.01
  - name: b
    provider: mock
    response: nope
    cost_usd: 0.001
  - name: c
    provider: mock
    response: ok c
    cost_usd: 0.02
`;
const IDS = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];

Deno.test("a run of three mock targets compared: leaderboard, Holm-corrected pairs, fronts, every format", async () => {
  await using p = await project({
    ".agentv/targets.yaml": TARGETS,
    "evals/a.yaml": containsSuite("d", IDS.map((id) => [id, "ok"])),
  });
  const ran = await cli(["run", "evals", "--target", "a,b,c", "--out", "run.jsonl"], p.dir);
  assert.equal(ran.code, 1, ran.err);
  const text = await compare(["run.jsonl"], p.dir);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^Comparing 3 targets \(baseline a\): 8 cases, 24 rows from run\.jsonl$/m);
  const board = text.out.split("\n").filter((l) => /^ {2}\d /.test(l)).map((l) => l.trim());
  // a and c score 1 on every case (input order breaks the tie); b scores 0.
  assert.deepEqual(board.map((l) => l.split(/\s+/)[1]), ["a", "c", "b"]);
  // b−a: eight Δ of −1: Wilcoxon p = 2/2⁸ = 0.0078125 (shown 0.007813), Holm for 3 pairs: p-values sorted
  // 0.0078125 (a–b), 0.0078125 (b–c), 1 (a–c) → 3 · 0.0078125 = 0.0234375, then 0.0234375, 1.
  assert.match(
    text.out,
    /^ {2}a → b +8 cases +Δ -1\.000 \(95% CI -1\.000 to -1\.000\) +a better$/m,
  );
  assert.match(
    text.out,
    /Wilcoxon p = 0\.007813, Holm-corrected for 3 pairs p = 0\.02344; sign test p = 0\.007813/,
  );
  assert.match(text.out, /^ {2}a → c +8 cases +Δ 0\.000 .* no significant difference$/m);
  // Cost per case: a $0.01, b $0.001, c $0.02. c is beaten by a (same score, cheaper); b is
  // the cheapest.
  assert.match(text.out, /^Pareto front: score vs cost per case: a, b; score vs p50 latency: /m);
  assert.match(text.out, /^Cases: the verdicts differ on 8 of 8 /m);
  assert.match(text.out, /^Verdict: no single best: a and c are not significantly beaten/m);

  const md = await compare(["run.jsonl", "--format", "markdown"], p.dir);
  assert.match(md.out, /^## agentv compare: 3 targets, 8 cases$/m);
  assert.match(
    md.out,
    /^\| a → b \| 8 \| -1\.000 \| -1\.000 to -1\.000 \| 0\.007813 \| 0\.02344 \|/m,
  );
  assert.match(md.out, /Cases whose verdicts differ \(8\)/);
  const json = JSON.parse((await compare(["run.jsonl", "--json"], p.dir)).out);
  assert.deepEqual(json.leaderboard.map((s: { label: string }) => s.label), ["a", "c", "b"]);
  assert.deepEqual(json.top, ["a", "c"]);
  assert.equal(json.cases.length, 8);
  assert.deepEqual(json.cases[0].arms.b, { score: 0, verdict: "fail", trials: 1, errors: 0 });
  const html = await compare(["run.jsonl", "--format", "html"], p.dir);
  assert.match(html.out, /^<!DOCTYPE html>/);
  assert.match(html.out, /<title>agentv compare: a, b, c<\/title>/);
});

Deno.test("the gates: --fail-on regression against --baseline, --require-best NAME", async () => {
  await using p = await project({
    ".agentv/targets.yaml": TARGETS,
    "evals/a.yaml": containsSuite("d", IDS.map((id) => [id, "ok"])),
  });
  await cli(["run", "evals", "--target", "a,b,c", "--out", "run.jsonl"], p.dir);
  const regression = await compare(["run.jsonl", "--fail-on", "regression"], p.dir);
  assert.equal(regression.code, 1);
  assert.match(
    regression.err,
    /^agentv compare: --fail-on regression: b is significantly worse than the baseline a \(Holm-corrected p = 0\.02344\)$/m,
  );
  const fromB = await compare(["run.jsonl", "--baseline", "b", "--fail-on", "regression"], p.dir);
  assert.equal(fromB.code, 0, fromB.err);
  assert.match(fromB.out, /\(baseline b\)/);
  assert.equal((await compare(["run.jsonl", "--require-best", "c"], p.dir)).code, 0);
  const best = await compare(["run.jsonl", "--require-best", "b"], p.dir);
  assert.equal(best.code, 1);
  assert.match(best.err, /--require-best b: b is significantly beaten by a/);
  assert.match(best.err, /--require-best b: b is significantly beaten by c/);
  const unknown = await compare(["run.jsonl", "--require-best", "d"], p.dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /--require-best 'd' names none of the compared targets/);
  assert.match(unknown.err, /hint: the targets compared: a, b, c/);
});

Deno.test("compare --out writes the output, never over a results file compared or its run record", async () => {
  await using p = await project({
    ".agentv/targets.yaml": TARGETS,
    "evals/a.yaml": containsSuite("d", [["c1", "ok"], ["c2", "ok"]]),
  });
  await cli(["run", "evals", "--target", "a,b", "--out", "run.jsonl"], p.dir);
  const before = await Deno.readTextFile(join(p.dir, "run.jsonl"));
  for (const out of ["run.jsonl", "run.jsonl.run.json", "evals/a.yaml"]) {
    const refused = await compare(["run.jsonl", "--out", out], p.dir);
    assert.equal(refused.code, 2, out);
    assert.match(refused.err, new RegExp(`--out '${out.replaceAll(".", "\\.")}' is the`));
  }
  assert.equal(await Deno.readTextFile(join(p.dir, "run.jsonl")), before);
  const written = await compare(
    ["run.jsonl", "--format", "markdown", "--out", "out/cmp.md"],
    p.dir,
  );
  assert.equal(written.code, 0, written.err);
  assert.equal(written.out, "");
  assert.match(written.err, /^Wrote the markdown comparison to out\/cmp\.md$/m);
  assert.match(await Deno.readTextFile(join(p.dir, "out/cmp.md")), /^## agentv compare: 2 targets/);
});
