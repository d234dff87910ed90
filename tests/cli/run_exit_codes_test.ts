/** CLI: `agentv run` exit codes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, containsSuite, lib, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";

Deno.test("run: exit 0 when all pass, 1 on a fail verdict, `eval` is an alias", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris and ok"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["p2", "ok"]]),
    "evals/b.yaml": containsSuite("b", [["f1", "Berlin"]]),
  });
  const pass = await cli(["run", "evals/a.yaml", "--out", "a.jsonl"], p.dir);
  assert.equal(pass.code, 0, pass.err);
  // not a terminal: plain per-case lines
  assert.match(pass.out, /\[1\/2\].*p[12]/);
  assert.match(pass.out, /\[2\/2\].*p[12]/);
  const fail = await cli(["eval", "evals", "--out", "b.jsonl"], p.dir);
  assert.equal(fail.code, 1, fail.err);
  assert.equal((await rowsOf(join(p.dir, "b.jsonl"))).length, 3);
});

Deno.test("run: an evaluator error exits 1 even when the score is high", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": `evalcases:
  - id: e1
    expected_outcome: x
    input: x
    evaluators:
      - type: contains
        value: Paris
        weight: 5
      - type: code_judge
        script: ["sh", "-c", "exit 3"]
        weight: 0
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir);
  assert.equal(r.code, 1);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.status, "error");
  assert.match(row.error ?? "", /exit|code 3/);
});

Deno.test("run: --threshold gates on mean >= X and no error", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["p2", "Paris"], ["f1", "Rome"]]),
  });
  // mean = 2/3
  assert.equal((await cli(["run", "evals", "--threshold", "0.66", "-q"], p.dir)).code, 0);
  assert.equal((await cli(["run", "evals", "--threshold", "0.67", "-q"], p.dir)).code, 1);
  assert.equal((await cli(["run", "evals", "--threshold", "abc"], p.dir)).code, 2);
});

Deno.test("run: invalid cases are skipped, listed, and make the exit code 1", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": `evalcases:
  - id: good
    expected_outcome: Paris
    input: Capital?
    evaluators:
      - type: contains
        value: Paris
  - id: broken-weight
    expected_outcome: Paris
    input: Capital?
    evaluators:
      - type: contains
        value: Paris
        weight: -1
`,
  });
  const r = await cli(["run", "evals", "--json", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(rows.map((x) => x.eval_id), ["good"]);
  const summary = JSON.parse(r.out);
  assert.ok(JSON.stringify(summary.invalid).includes("broken-weight"));
});

Deno.test("run: exit 2 for usage, dataset and config errors before anything ran", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("x") + "  - name: other\n    provider: mock\n",
    "evals/a.yaml": containsSuite("a", [["p1", "x"]]),
    "evals/bad.yaml": "evalcases: [\n",
  });
  const cases: [string[], RegExp][] = [
    [["run"], /No eval files|file/i],
    [["run", "evals/a.yaml", "--workers", "0"], /--workers/],
    [["run", "evals/a.yaml", "--timeout", "-1"], /--timeout/],
    [["run", "evals/a.yaml", "--bogus"], /bogus/],
    [["run", "evals/missing.yaml"], /missing/],
    [["run", "evals/bad.yaml"], /bad\.yaml/],
    [["run", "evals/a.yaml", "--filter", "zzz*"], /zzz/],
    [["run", "evals/a.yaml", "--targets", "nope.yaml"], /nope\.yaml/],
  ];
  for (const [args, pattern] of cases) {
    const r = await cli(args, p.dir);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
    assert.match(r.err, pattern, args.join(" "));
  }
  // an unknown target lists the defined ones
  const unknown = await cli(["run", "evals/a.yaml", "--target", "gpt"], p.dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /gpt/);
  assert.match(unknown.err, /default/);
  assert.match(unknown.err, /other/);
  assert.deepEqual(
    [...Deno.readDirSync(p.dir)].map((e) => e.name).filter((n) => n.endsWith(".jsonl")),
    [],
  );
});

Deno.test("run: an invalid targets file is exit 2 with file:line:col; conversation_id is copied", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    workers: lots\n",
    "evals/a.yaml":
      "evalcases:\n  - id: c1\n    conversation_id: conv-9\n    expected_outcome: x\n    input: x\n    evaluators: [{type: contains, value: Mock}]\n",
  });
  const r = await cli(["run", "evals"], p.dir);
  assert.equal(r.code, 2);
  assert.match(r.err, /targets\.yaml:4:\d+/);
  await Deno.writeTextFile(join(p.dir, ".agentv/targets.yaml"), mockTargets("Mock"));
  const [row] = await lib(p.dir, ["evals/a.yaml"]);
  assert.equal(row.conversation_id, "conv-9");
});

Deno.test("run --dry-run checks wiring, not answers: exit 0 though the mock answers fail, 1 when a case cannot be wired; skipped cases are counted in the console and --json summaries", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["p2", "Rome"]]) +
      // A case graded only by a code judge: the dry run does not run it, the case is skipped.
      "  - id: judged-by-code\n    expected_outcome: x\n    input: x\n" +
      "    evaluators: [{type: code_judge, script: [sh, -c, exit 3]}]\n",
  });
  const dry = await cli(["run", "evals", "--dry-run", "--out", "d.jsonl"], p.dir);
  assert.equal(dry.code, 0, dry.out + dry.err);
  assert.match(dry.out, /^ {2}Cases: {5}3 run, 2 scored, 1 skipped$/m);
  assert.match(dry.out, /^ {2}Dry run: {3}every case is wired/m);
  const json = await cli(["run", "evals", "--dry-run", "--json", "--out", "j.jsonl"], p.dir);
  assert.equal(json.code, 0, json.err);
  const summary = JSON.parse(json.out);
  assert.equal(summary.skipped, 1);
  assert.equal(summary.verdicts.fail, 2, "the mock answer fails both contains checks");
  // The same cases for real: the answer 'Paris' fails p2, which is a failure.
  const real = await cli(["run", "evals", "--out", "r.jsonl", "--allow-run"], p.dir);
  assert.equal(real.code, 1, real.out + real.err);
  // A case whose target is not defined cannot be wired: the dry run fails.
  await Deno.writeTextFile(
    join(p.dir, "evals/b.yaml"),
    containsSuite("b", [["x1", "Paris"]], "execution:\n  target: nope\n"),
  );
  const broken = await cli(["run", "evals", "--dry-run", "--out", "b.jsonl"], p.dir);
  assert.equal(broken.code, 1, broken.out + broken.err);
  assert.match(broken.out, /Dry run: {3}1 wiring problem/);
});
