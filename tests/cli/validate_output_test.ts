/** CLI: `agentv validate` output (text and `--json`) and exit codes. */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "./_buffer_io.ts";
import { dataset, line, yamlCase } from "../dataset/_helpers.ts";

Deno.test("validate prints \u2713/\u2717 lines, file:line:col diagnostics, a summary; exit 0/1", async () => {
  await using ds = await dataset({
    "evals/good.yaml": "evalcases:\n" + yamlCase("a") + yamlCase("b"),
    "evals/bad.yaml": "evalcases:\n" +
      yamlCase("neg", "    evaluators: [{ type: contains, value: x, weight: -1 }]\n"),
    "evals/data.jsonl": line({ id: "a", expected_outcome: "G", input: "Q" }),
    "evals/data.yaml": "dataset: sidecar\n",
    "evals/.agentv/ignored.yaml": "not: an eval file\n",
    "evals/node_modules/x.yaml": "nope: 1\n",
    "evals/run.baseline.jsonl": line({ eval_id: "a", score: 1 }),
  });
  const good = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/good.yaml", "evals/data.jsonl"], good), 0);
  assert.equal(
    good.out(),
    "✓ evals/data.jsonl (1 case)\n✓ evals/good.yaml (2 cases)\n2 files valid (0 errors, 0 warnings)\n",
  );
  const all = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals"], all), 1);
  const out = all.out();
  assert.match(out, /^✗ evals\/bad\.yaml \(0 cases, 1 error\)$/m);
  assert.match(out, /^evals\/bad\.yaml:5:\d+: error: .*weight.*>= 0/m);
  assert.match(out, /^✓ evals\/data\.jsonl \(1 case\)$/m);
  assert.match(out, /^✓ evals\/good\.yaml \(2 cases\)$/m);
  assert.doesNotMatch(out, /data\.yaml|baseline|node_modules|\.agentv/);
  assert.match(out.trimEnd().split("\n").at(-1)!, /1 of 3 files invalid \(1 error, 0 warnings\)/);

  // a sidecar named next to its JSONL (shell-expanded glob) is not validated as an eval file
  const expanded = createBufferIO({ cwd: ds.root });
  assert.equal(
    await runCli(["validate", "evals/data.jsonl", "evals/data.yaml", "evals/good.yaml"], expanded),
    0,
    expanded.out(),
  );
  const globbed = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/*.yaml"], globbed), 1);
  assert.doesNotMatch(globbed.out(), /data\.yaml/);
});

Deno.test("validate --json prints files[] and a summary; --verbose shows the sidecar warning", async () => {
  await using ds = await dataset({
    "evals/a.jsonl": line({ id: "a", expected_outcome: "G", input: "Q" }),
    "evals/b.yaml": "evalcases:\n" +
      yamlCase("neg", "    evaluators: [{ type: contains, value: x, weight: -1 }]\n"),
  });
  const io = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals", "--json"], io), 1);
  const json = JSON.parse(io.out());
  assert.deepEqual(
    json.files.map((f: Record<string, unknown>) => [f.file, f.kind, f.valid, f.cases]),
    [
      ["evals/a.jsonl", "eval", true, 1],
      ["evals/b.yaml", "eval", false, 0],
    ],
  );
  const d = json.files[1].diagnostics[0];
  assert.deepEqual([d.severity, d.file, d.line, d.path], [
    "error",
    "evals/b.yaml",
    5,
    "evalcases[0].evaluators[0].weight",
  ]);
  assert.equal(json.summary.invalid, 1);
  assert.equal(json.summary.errors, 1);
  assert.deepEqual(json.files[0].diagnostics, []);

  const quiet = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/a.jsonl"], quiet), 0);
  assert.doesNotMatch(quiet.out(), /warning:/);
  const verbose = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/a.jsonl", "--verbose"], verbose), 0);
  assert.match(verbose.out(), /^evals\/a\.jsonl: warning: .*[Ss]idecar/m);
  assert.match(verbose.out(), /1 warning/);
});
