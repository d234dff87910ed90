/** Targets: a secret from `${{ }}` never appears in results, logs, errors or returned rows. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults, runEval, type RunEvent } from "../../mod.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { byId, cli, containsSuite, FAST_RETRY, project, SECRET } from "../_helpers/run_project.ts";

Deno.test("secrets: a key from ${{ }} never appears in results, logs, errors or --verbose", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      { type: "status", status: 500, message: `bad key ${SECRET}` },
      { type: "reply", text: `echo ${SECRET}` },
    ],
    fallback: { type: "status", status: 401, message: `Incorrect API key provided: ${SECRET}` },
  });
  await using p = await project({
    ".env": `MY_API_KEY=${SECRET}\n`,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: \${{ MY_API_KEY }}
    model: m
    headers:
      x-custom-auth: "Token \${{ MY_API_KEY }}"
${FAST_RETRY}`,
    "evals/a.yaml": containsSuite("a", [["c1", "echo"], ["c2", "x"]]),
  });
  const r = await cli(
    ["run", "evals", "--verbose", "--workers", "1", "--allow-run", "--out", "o.jsonl"],
    p.dir,
  );
  assert.equal(server.requests[0].headers.authorization, `Bearer ${SECRET}`);
  const file = await Deno.readTextFile(join(p.dir, "o.jsonl"));
  const rows = byId((await readResults(join(p.dir, "o.jsonl"))).rows);
  assert.equal(rows.c2.status, "error");
  for (const [where, text] of [["stdout", r.out], ["stderr", r.err], ["results", file]]) {
    assert.ok(!text.includes(SECRET), `${where} leaks the key:\n${text}`);
  }
});

Deno.test("runEval without `out` still never returns the secret in rows or summary", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: `leaked ${SECRET}` }],
    fallback: { type: "status", status: 401, message: `bad key ${SECRET}` },
  });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: \${{ OPENAI_API_KEY }}\n    model: m\n`,
    "evals/a.yaml": containsSuite("a", [["c1", "leaked"], ["c2", "x"]]),
  });
  const events: RunEvent[] = [];
  const result = await runEval({
    files: ["evals/a.yaml"],
    env: { OPENAI_API_KEY: SECRET },
    cwd: p.dir,
    allowRun: true,
    workers: 1,
    onEvent: (e) => events.push(e),
  });
  const text = JSON.stringify({ result, events });
  assert.ok(!text.includes(SECRET), text);
});
