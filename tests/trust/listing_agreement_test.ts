/**
 * One listing: `agentv validate`, `agentv trust --list` and a refused `agentv run` show the same
 * needs at the same places — from the same definition — so reviewing a dataset before running it
 * shows what the run would ask for, hidden spellings and environment-to-host sends included.
 */
import assert from "node:assert/strict";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";
import { listedNeeds, user } from "./_attack.ts";

const SCORE = `echo '{\\"score\\": 1}'`;

Deno.test("validate, trust --list and a refused run list the same needs; validate says when they are trusted", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: Cli
    command_template: echo ok
    env: [GITHUB_TOKEN]
  - name: remote
    provider: openai
    base_url: ${server.url}
    api_key: \${{ OPENAI_API_KEY }}
    model: m
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - {name: hidden, type: "code\\x5fjudge", script: "${SCORE}"}
      - {name: module, type: code_judge, module: ./judge.ts}
  - id: c2
    expected_outcome: x
    input: hi
    execution: {target: remote}
    evaluators: [{type: contains, value: x}]
`,
    "evals/judge.ts": "export default () => ({ score: 1 });\n",
  });
  await using me = await user({ OPENAI_API_KEY: "sk-1", GITHUB_TOKEN: "ghp-1" });
  const refused = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(refused.code, 2, refused.out + refused.err);
  const listed = listedNeeds(refused.err);
  assert.equal(listed.length, 3, refused.err);

  const validated = await me.agentv(["validate", "."], p.dir);
  assert.equal(validated.code, 0, validated.out + validated.err);
  assert.match(
    validated.out,
    /What \. asks consent for \(2 commands and 1 environment-to-host send in 2 files; not trusted/,
  );
  assert.deepEqual(listedNeeds(validated.out), listed);

  const list = await me.agentv(["trust", "--list", "."], p.dir);
  assert.equal(list.code, 0, list.out + list.err);
  assert.deepEqual(listedNeeds(list.out), listed);

  const json = JSON.parse((await me.agentv(["validate", ".", "--json"], p.dir)).out);
  assert.equal(json.consent.length, 1);
  assert.equal(json.consent[0].trusted, false);
  assert.deepEqual(
    json.consent[0].needs.map((n: { kind: string; reads: string[] }) => [n.kind, n.reads]),
    [["cli_target", ["GITHUB_TOKEN"]], ["env_host", ["OPENAI_API_KEY"]], ["code_judge", []]],
  );

  assert.equal((await me.agentv(["trust", "."], p.dir)).code, 0);
  const after = await me.agentv(["validate", "."], p.dir);
  assert.match(after.out, /in 2 files; trusted with agentv trust\)/);
  assert.deepEqual(listedNeeds(after.out), listed);
});

Deno.test("validate of a dataset that asks for nothing prints no consent section", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
    "evals/a.yaml":
      "evalcases:\n  - {id: c1, expected_outcome: x, input: hi, evaluators: [{type: equals, value: hi}]}\n",
  });
  await using me = await user();
  const r = await me.agentv(["validate", "."], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  assert.doesNotMatch(r.out, /asks consent/);
});

Deno.test("validate of a large JSONL file lists what trust --list lists, from the targets file its second worker read", async () => {
  await using server = startProviderServer("openai");
  // Over 1 MiB of cases: the targets file is read (and its definitions posted) by a second
  // sandbox worker, not parsed again on validate's own thread.
  const lines = Array.from({ length: 9000 }, (_, i) =>
    JSON.stringify({
      id: `case-${i}`,
      expected_outcome: `Answers question ${i} ${"politely ".repeat(8)}`,
      input: `What is ${i} + ${i}?`,
      ...(i % 2 === 0 ? { execution: { target: "remote" } } : {}),
      evaluators: [{ type: "contains", value: "x" }],
    }));
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: base
    provider: openai
    base_url: ${server.url}
    api_key: \${{ OPENAI_API_KEY }}
    model: m
  - name: remote
    extends: base
    model: n
  - name: default
    provider: cli
    command_template: echo ok
    env: [GITHUB_TOKEN]
`,
    "evals/big.jsonl": lines.join("\n") + "\n",
  });
  assert.ok((await Deno.stat(`${p.dir}/evals/big.jsonl`)).size > 1 << 20);
  await using me = await user({ OPENAI_API_KEY: "sk-1", GITHUB_TOKEN: "ghp-1" });
  const list = await me.agentv(["trust", "--list", "."], p.dir);
  assert.equal(list.code, 0, list.out + list.err);
  const listed = listedNeeds(list.out);
  assert.equal(listed.length, 3, list.out);
  // An inherited setting is placed where `base` writes it.
  assert.match(listed.find((l) => /'remote'/.test(l)) ?? "", /^\.agentv\/targets\.yaml:4:15: /);
  for (const args of [["validate", "."], ["validate", "evals/big.jsonl"]]) {
    const validated = await me.agentv(args, p.dir);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.out, /✓ evals\/big\.jsonl \(9000 cases\)/);
    assert.deepEqual(listedNeeds(validated.out), listed);
  }
  // With --targets naming a file inside the root: the large file (its definitions posted by the
  // second worker) and a small one (read by validate's own thread) list the same needs.
  await Deno.mkdir(`${p.dir}/cfg`);
  await Deno.copyFile(`${p.dir}/.agentv/targets.yaml`, `${p.dir}/cfg/targets.yaml`);
  await Deno.writeTextFile(`${p.dir}/evals/small.jsonl`, lines[0] + "\n");
  const [big, small] = await Promise.all(
    ["big", "small"].map((name) =>
      me.agentv(["validate", `evals/${name}.jsonl`, "--targets", "cfg/targets.yaml"], p.dir)
    ),
  );
  assert.equal(big.code, 0, big.out + big.err);
  assert.equal(small.code, 0, small.out + small.err);
  assert.equal(listedNeeds(big.out).length, 3, big.out);
  assert.ok(listedNeeds(big.out).every((l) => l.startsWith("cfg/targets.yaml:")), big.out);
  assert.deepEqual(listedNeeds(big.out), listedNeeds(small.out));
});
