/**
 * `execution.targets: [a, b, c]` in a YAML file, a JSONL sidecar or a case: every case runs
 * against each target; a case's own `target` or `targets` replaces the file's; a list of one means
 * what `target` means; both keys at once, an empty list or a name listed twice are located errors;
 * `validate` checks every listed name against the targets file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO, normalize } from "../cli/_buffer_io.ts";
import { dataset, line, load, loadError, yamlCase } from "./_helpers.ts";

// The cases list no evaluators: the default llm_judge grades them, so each target names a judge.
const TARGETS = `targets:
  - name: gpt
    provider: mock
    response: ok
    judge_target: judge
  - name: claude
    provider: mock
    response: ok
    judge_target: judge
  - name: local
    provider: mock
    response: ok
    judge_target: judge
  - name: judge
    provider: mock
    judge: true
`;

Deno.test("execution.targets: file-level list, a case's own target or list replaces it, one name is target alone", async () => {
  await using tree = await dataset({
    "a.yaml": `execution:
  targets: [gpt, claude, local]
evalcases:
${yamlCase("all")}${yamlCase("one", "    execution:\n      target: gpt\n")}${
      yamlCase("two", "    execution:\n      targets: [claude, local]\n")
    }${yamlCase("listed-once", "    execution:\n      targets: [local]\n")}`,
  });
  const { cases, diagnostics } = await load(join(tree.dir, "a.yaml"));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases.map((c) => [c.id, c.execution]), [
    ["all", { target: "gpt", targets: ["gpt", "claude", "local"] }],
    ["one", { target: "gpt" }],
    ["two", { target: "claude", targets: ["claude", "local"] }],
    ["listed-once", { target: "local" }],
  ]);
});

Deno.test("execution.targets: a JSONL sidecar's list gives the same cases as the YAML file", async () => {
  await using tree = await dataset({
    "a.yaml": `dataset: d
execution:
  targets: [gpt, claude]
evalcases:
${yamlCase("x")}${yamlCase("y", "    execution:\n      target: local\n")}`,
    "b.yaml": "dataset: d\nexecution:\n  targets: [gpt, claude]\n",
    "b.jsonl": [
      line({ id: "x", expected_outcome: "Goal", input: "Query" }),
      line({ id: "y", expected_outcome: "Goal", input: "Query", execution: { target: "local" } }),
    ].join("\n") + "\n",
  });
  const yaml = await load(join(tree.dir, "a.yaml"));
  const jsonl = await load(join(tree.dir, "b.jsonl"));
  assert.deepEqual(jsonl.diagnostics, []);
  assert.deepEqual(
    jsonl.cases.map((c) => c.execution),
    yaml.cases.map((c) => c.execution),
  );
  assert.deepEqual(jsonl.cases[0].execution.targets, ["gpt", "claude"]);
});

Deno.test("execution.targets: both keys, an empty list and a name twice are errors at their line", async () => {
  await using tree = await dataset({
    "both.yaml": `execution:
  target: gpt
  targets: [gpt, claude]
evalcases:
${yamlCase("a")}`,
    "cases.yaml": `evalcases:
${yamlCase("empty", "    execution:\n      targets: []\n")}${
      yamlCase("twice", "    execution:\n      targets: [gpt, claude, gpt]\n")
    }${yamlCase("fine")}`,
  });
  const both = await loadError(join(tree.dir, "both.yaml"));
  const [first] = both.diagnostics;
  assert.equal(first.line, 3, JSON.stringify(first));
  assert.match(first.message, /execution has both target and targets; keep one/);

  const { cases, diagnostics } = await load(join(tree.dir, "cases.yaml"));
  assert.deepEqual(cases.map((c) => c.id), ["fine"]);
  const byLine = diagnostics.map((d) => [d.line, d.path, d.message]);
  assert.equal(byLine.length, 2, JSON.stringify(byLine));
  assert.equal(byLine[0][0], 6);
  assert.match(String(byLine[0][2]), /targets must name at least one target/);
  assert.equal(byLine[1][0], 11);
  assert.match(String(byLine[1][2]), /targets names 'gpt' twice; list each target once/);
});

Deno.test("validate checks every listed target, at the list, with did-you-mean (YAML and JSONL)", async () => {
  await using tree = await dataset({
    ".agentv/targets.yaml": TARGETS,
    "evals/a.yaml": `evalcases:
${yamlCase("ok", "    execution:\n      targets: [gpt, claude]\n")}${
      yamlCase("typo", "    execution:\n      targets: [gpt, claud]\n")
    }`,
    "evals/b.yaml": "execution:\n  targets: [local, lokal]\n",
    "evals/b.jsonl": line({ id: "j", expected_outcome: "Goal", input: "Query" }) + "\n" +
      line({ id: "k", expected_outcome: "Goal", input: "Q", execution: { targets: ["gtp"] } }) +
      "\n",
  });
  const io = createBufferIO({ cwd: tree.dir });
  const code = await runCli(["validate", "evals/a.yaml", "evals/b.jsonl"], io);
  const out = normalize(io.out());
  assert.equal(code, 1, out);
  assert.match(
    out,
    /^evals\/a\.yaml:11:16: error: Case 'typo': target 'claud' is not defined in \.agentv\/targets\.yaml; did you mean 'claude'\?.*change the case's execution\.targets$/m,
  );
  // The sidecar's list names 'lokal' for the case without its own target; the other case's own
  // list is located in its line.
  assert.match(
    out,
    /^evals\/b\.jsonl:1:\d+: error: Case 'j': target 'lokal' \(the file's default target\) is not defined/m,
  );
  assert.match(
    out,
    /^evals\/b\.jsonl:2:\d+: error: Case 'k': target 'gtp' is not defined.*did you mean 'gpt'\?/m,
  );
  assert.doesNotMatch(out, /Case 'ok'/);
});
