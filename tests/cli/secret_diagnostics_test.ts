/** CLI: diagnostics about a targets file never echo a literal secret in their source excerpt. */
import assert from "node:assert/strict";
import { cli, project } from "../_helpers/run_project.ts";

const CASES = `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators: [{type: contains, value: x}]
`;

const SECRETS = [
  "12345678901",
  "sk-abcdefgh12345",
  "sk-list-item-2",
  "Bearer-98765",
  "sk-flow-4321",
];

const TARGETS = `targets:
  - name: default
    provider: openai
    model: m
    api_key: 12345678901
  - name: listed
    provider: openai
    model: m
    api_key: [sk-abcdefgh12345, b]
  - name: block
    provider: openai
    model: m
    api_key:
      - sk-list-item-2
  - name: header
    provider: openai
    model: m
    headers:
      Authorization: [Bearer-98765]
  - {name: flow, provider: openai, model: m, api_key: 4321, x_api_key: [sk-flow-4321]}
`;

Deno.test("a literal api_key of the wrong type is masked in validate and run diagnostics", async () => {
  await using p = await project({ ".agentv/targets.yaml": TARGETS, "evals/a.yaml": CASES });
  const validate = await cli(["validate", "."], p.dir);
  const run = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(validate.code, 1, validate.out + validate.err);
  assert.equal(run.code, 2, run.out + run.err);
  const validateText = validate.out + validate.err;
  for (
    const expected of [
      "targets.yaml:5:14: error: api_key must be a string\n  5 |     api_key: ***\n",
      "targets.yaml:9:14: error: api_key must be a string\n  9 |     api_key: ***\n",
      "targets.yaml:14:7: error: api_key must be a string\n  14 |       ***\n",
    ]
  ) assert.ok(validateText.includes(expected), `validate lacks ${expected}:\n${validateText}`);
  // run reports only the target its case uses (an invalid target blocks only its own cases).
  assert.match(run.err, /targets\.yaml:5:14\b.*api_key must be a string/);
  for (const [where, text] of [["validate", validateText], ["run", run.out + run.err]]) {
    for (const secret of SECRETS) {
      assert.ok(!text.includes(secret), `${where} echoes ${secret}:\n${text}`);
    }
  }
});

Deno.test("a YAML syntax error on an api_key line does not echo the key", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: openai\n    api_key: sk-secret-value: oops\n",
    "evals/a.yaml": CASES,
  });
  const r = await cli(["validate", "."], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out + r.err, /targets\.yaml:4:\d+: error: /);
  assert.ok(!(r.out + r.err).includes("sk-secret-value"), r.out + r.err);
});
