/** Targets: `${{ VAR }}` placeholders and the precedence of env sources. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";

Deno.test("targets: ${{ VAR }} whole and embedded; process env > nearest .env > outer .env", async () => {
  await using p = await project({
    ".env": "WHOLE=root-whole\nPART=root-part\nONLY_ROOT=r\nPROC=root-proc\n",
    "evals/.env": "PART=near-part\nPROC=near-proc\n",
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: "\${{ WHOLE }}|pre-\${{PART}}-post|\${{ ONLY_ROOT }}|\${{ PROC }}"
  - name: broken
    provider: mock
    response: "\${{ NEVER_SET_VAR }}"
`,
    "evals/a.yaml": containsSuite("a", [["c1", "root-whole"]]),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir, { env: { PROC: "process" } });
  assert.equal(r.code, 0, r.err); // the broken target is never used: no error
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.candidate_answer, "root-whole|pre-near-part-post|r|process");
  const broken = await cli(["run", "evals", "--target", "broken"], p.dir);
  assert.equal(broken.code, 2);
  assert.match(broken.err, /NEVER_SET_VAR/);
  assert.match(broken.err, /broken/);
});

Deno.test("targets: a ${{ VAR }} inside a base_url is checked after substitution: validate accepts it, run reaches the URL it makes", async () => {
  await using server = startProviderServer("openai", { steps: ["Paris"] });
  const port = new URL(server.url).port;
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    api_key: sk-test
    model: m
    base_url: http://127.0.0.1:\${{ PORT }}/v1
`,
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"]]),
  });
  const valid = await cli(["validate", "evals"], p.dir, { env: { PORT: port } });
  assert.equal(valid.code, 0, valid.out + valid.err);
  assert.doesNotMatch(valid.out, /must be an http\(s\) URL/);
  const ran = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir, {
    env: { PORT: port },
  });
  assert.equal(ran.code, 0, ran.out + ran.err);
  assert.equal((await rowsOf(join(p.dir, "o.jsonl")))[0].candidate_answer, "Paris");
  assert.equal(server.requests[0].path, "/v1/chat/completions");
  // The URL it makes is checked once substituted.
  const bad = await cli(["run", "evals", "--allow-run"], p.dir, { env: { PORT: "80 /x" } });
  assert.equal(bad.code, 2, bad.out + bad.err);
  assert.match(
    bad.err,
    /after substituting \$\{\{ \}\} variables: base_url must be an http\(s\) URL/,
  );
  // A placeholder whose value is missing keeps its own error.
  const missing = await cli(["run", "evals", "--allow-run"], p.dir);
  assert.equal(missing.code, 2, missing.out + missing.err);
  assert.match(missing.err, /needs environment variable 'PORT' \(setting 'base_url'\)/);
});
