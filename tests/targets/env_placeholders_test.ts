/** Targets: `${{ VAR }}` placeholders and the precedence of env sources. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";

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
