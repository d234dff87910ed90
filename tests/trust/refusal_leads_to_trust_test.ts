/**
 * The hint after a refusal must lead somewhere: `agentv trust .` then lists and stores exactly
 * what the run refused — hidden spellings, a `provider: CLI` target and an environment-to-host
 * send included (the old scan said "No commands found" while the run stayed blocked) — and the
 * next run goes ahead. A targets file `agentv trust` would not find by itself is named in the hint.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";
import { exists, listedNeeds, user } from "./_attack.ts";

const SCORE = `echo '{\\"score\\": 1}'`;

function dataset(serverUrl: string) {
  return {
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: CLI
    command_template: touch TARGET_RAN; echo ok
  - name: remote
    provider: OpenAI
    base_url: ${serverUrl}
    api_key: \${{ OPENAI_API_KEY }}
    model: m
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - name: hidden
        type: "code\\x5fjudge"
        script: "touch HIDDEN_RAN; ${SCORE}"
  - id: c2
    expected_outcome: x
    input: hi
    execution: {target: remote}
    evaluators: [{type: contains, value: ok}]
`,
  };
}

Deno.test("after a refusal, agentv trust . lists and stores exactly what was refused, and the next run proceeds", async () => {
  await using server = startProviderServer("openai");
  await using p = await project(dataset(server.url));
  await using me = await user({ OPENAI_API_KEY: "sk-user-1", PATH: Deno.env.get("PATH") ?? "" });
  const refused = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(refused.code, 2, refused.out + refused.err);
  assert.match(refused.err, /run `agentv trust \.`/);
  const listed = listedNeeds(refused.err);
  assert.equal(listed.length, 3, refused.err);

  const trusted = await me.agentv(["trust", "."], p.dir);
  assert.equal(trusted.code, 0, trusted.out + trusted.err);
  assert.doesNotMatch(trusted.out, /No commands found/);
  assert.deepEqual(listedNeeds(trusted.out), listed);

  const ran = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(ran.code, 0, ran.out + ran.err);
  assert.equal(await exists(join(p.dir, "evals/HIDDEN_RAN")), true);
  assert.equal(await exists(join(p.dir, "evals/TARGET_RAN")), true);
  assert.equal(server.requests.length, 1);
});

Deno.test("a refused run with --targets inside the root names it in the hint, and following the hint works", async () => {
  await using p = await project({
    "config/my-targets.yaml":
      "targets:\n  - {name: default, provider: cli, command_template: echo ok}\n",
    "evals/a.yaml":
      "evalcases:\n  - {id: c1, expected_outcome: x, input: hi, evaluators: [{type: contains, value: ok}]}\n",
  });
  await using me = await user({ PATH: Deno.env.get("PATH") ?? "" });
  const args = ["run", "evals", "--targets", "config/my-targets.yaml", "--out", "o.jsonl"];
  const refused = await me.agentv(args, p.dir);
  assert.equal(refused.code, 2, refused.out + refused.err);
  assert.match(refused.err, /`agentv trust \. --targets config\/my-targets\.yaml`/);
  const trusted = await me.agentv(["trust", ".", "--targets", "config/my-targets.yaml"], p.dir);
  assert.equal(trusted.code, 0, trusted.out + trusted.err);
  assert.deepEqual(listedNeeds(trusted.out), listedNeeds(refused.err));
  const ran = await me.agentv(args, p.dir);
  assert.equal(ran.code, 0, ran.out + ran.err);
});
