/** A target that cannot be used blocks only the cases that use it; the others run. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { RunConfigError } from "../../lib/run/errors.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { evalCase, set, tempDataset } from "./_helpers.ts";

const TARGETS = `targets:
  - name: default
    provider: mock
    response: ok
  - name: needs_key
    provider: openai
    model: m
    api_key: \${{ BROKEN_TARGET_TEST_KEY }}
  - name: editor
    provider: vscode
`;

Deno.test("runEval() records cases whose target is unknown, lacks a ${{ VAR }} or has an unsupported provider as error rows naming it; other cases run", async () => {
  await using ds = await tempDataset(TARGETS);
  const { rows, summary } = await runEval({
    sets: [set(ds.dir, [
      evalCase("good"),
      evalCase("typo", { target: "defualt" }),
      evalCase("no-key", { target: "needs_key" }),
      evalCase("unsupported", { target: "editor" }),
      evalCase("good-2"),
    ])],
    env: {},
    cwd: ds.dir,
  });
  const byId = new Map(rows.map((r) => [r.eval_id, r]));
  assert.equal(rows.length, 5);
  assert.equal(byId.get("good")!.status, "ok");
  assert.equal(byId.get("good-2")!.status, "ok");
  const typo = byId.get("typo")!;
  assert.equal(typo.status, "error");
  assert.equal(typo.target, "defualt");
  assert.equal(typo.attempts, 0);
  assert.match(typo.error!, /Unknown target 'defualt'.*did you mean 'default'\?/);
  assert.match(typo.error!, /defined targets: default, needs_key, editor/);
  const noKey = byId.get("no-key")!;
  assert.equal(noKey.status, "error");
  assert.equal(noKey.target, "needs_key");
  assert.match(noKey.error!, /BROKEN_TARGET_TEST_KEY/);
  const unsupported = byId.get("unsupported")!;
  assert.equal(unsupported.status, "error");
  assert.equal(unsupported.target, "editor");
  assert.match(unsupported.error!, /vscode/);
  assert.equal(summary.errors.length, 3);
});

Deno.test("runEval() blocks only the cases of a target whose definition is invalid", async () => {
  await using ds = await tempDataset(
    TARGETS + "  - name: bad_workers\n    provider: mock\n    workers: lots\n",
  );
  for (const dryRun of [false, true]) {
    const { rows } = await runEval({
      sets: [set(ds.dir, [evalCase("good"), evalCase("bad", { target: "bad_workers" })])],
      env: {},
      cwd: ds.dir,
      dryRun,
    });
    const byId = new Map(rows.map((r) => [r.eval_id, r]));
    assert.equal(byId.get("good")!.status, "ok");
    assert.equal(byId.get("bad")!.status, "error");
    assert.match(
      byId.get("bad")!.error!,
      /Cannot use target 'bad_workers'.*its definition in .*targets\.yaml:\d+:\d+ is invalid/,
    );
  }
});

Deno.test("runEval() with --dry-run blocks only the cases of an unknown target", async () => {
  await using ds = await tempDataset(TARGETS);
  const { rows } = await runEval({
    sets: [set(ds.dir, [evalCase("good"), evalCase("typo", { target: "nope" })])],
    env: {},
    cwd: ds.dir,
    dryRun: true,
  });
  const byId = new Map(rows.map((r) => [r.eval_id, r]));
  assert.equal(byId.get("good")!.status, "ok");
  assert.equal(byId.get("typo")!.status, "error");
  assert.equal(byId.get("typo")!.dry_run, true);
  assert.match(byId.get("typo")!.error!, /Unknown target 'nope'/);
});

Deno.test("runEval() throws before anything runs when no case's target can be used", async () => {
  await using ds = await tempDataset(TARGETS);
  await assert.rejects(
    () =>
      runEval({
        sets: [set(ds.dir, [evalCase("a", { target: "nope" }), evalCase("b", { target: "zip" })])],
        env: {},
        cwd: ds.dir,
      }),
    (e) =>
      e instanceof RunConfigError && /No case could run/.test(e.message) &&
      /'nope'/.test(e.message) && /'zip'/.test(e.message),
  );
});

Deno.test("agentv run exits 1 (not 2) when one file's target is missing, with error rows for its cases only", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/good.yaml":
      "evalcases:\n  - id: g1\n    expected_outcome: ok\n    input: hi\n    evaluators: [{type: contains, value: ok}]\n",
    "evals/bad.yaml":
      "execution:\n  target: missing_agent\nevalcases:\n  - id: b1\n    expected_outcome: ok\n    input: hi\n  - id: b2\n    expected_outcome: ok\n    input: hi\n",
  }, { git: true });
  for (const dry of [false, true]) {
    const out = join(tree.dir, `out-${dry}.jsonl`);
    const io = createBufferIO({ cwd: tree.dir });
    const code = await runCli(
      ["run", "evals", "--out", out, "--quiet", ...(dry ? ["--dry-run"] : [])],
      io,
    );
    assert.equal(code, 1, io.err() + io.out());
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
      JSON.parse(l) as ResultRow
    );
    const byId = new Map(rows.map((r) => [r.eval_id, r]));
    assert.equal(byId.get("g1")!.status, "ok");
    for (const id of ["b1", "b2"]) {
      assert.equal(byId.get(id)!.status, "error");
      assert.equal(byId.get(id)!.target, "missing_agent");
      assert.match(byId.get(id)!.error!, /Unknown target 'missing_agent'/);
    }
  }
  // Only the broken file: nothing could run, exit 2 with the reason.
  const io = createBufferIO({ cwd: tree.dir });
  const code = await runCli(["run", "evals/bad.yaml", "--dry-run", "--quiet"], io);
  assert.equal(code, 2);
  assert.match(io.err(), /Unknown target 'missing_agent'/);
});
