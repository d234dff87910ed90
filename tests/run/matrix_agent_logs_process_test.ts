/**
 * Two agent targets run the same case in one run (`--target a,b`, the second `extends:` the
 * first): each keeps its own event log, named after its target, so neither writes over the
 * other's (a fake `claude` executable replays a recorded Claude Code stream).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runEval } from "../../mod.ts";
import { containsSuite, project } from "../_helpers/run_project.ts";

const RECORDED = fileURLToPath(
  new URL("../../fixtures/agents/claude/bash_edit_and_failing_step.jsonl", import.meta.url),
);

Deno.test("two agent targets on one case keep two logs, each named after its target", async () => {
  await using p = await project({
    "bin/claude": `#!/bin/sh\ncat > /dev/null\ncat '${RECORDED}'\n`,
    ".agentv/targets.yaml": "",
    "evals/a.yaml": containsSuite("d", [["fix-1", "x"]]),
  });
  await Deno.chmod(join(p.dir, "bin/claude"), 0o755);
  await Deno.writeTextFile(
    join(p.dir, ".agentv/targets.yaml"),
    `targets:
  - name: claude-a
    provider: claude-code
    executable: ${join(p.dir, "bin/claude")}
  - name: claude-b
    extends: claude-a
    args: [--verbose]
`,
  );
  const { rows } = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    allowRun: true,
    out: join(p.dir, "o.jsonl"),
    target: ["claude-a", "claude-b"],
  });
  const logs = Object.fromEntries(rows.map((r) => [r.target, r.log_path as string]));
  assert.match(logs["claude-a"], /\/\.agentv\/logs\/[^/]+\/fix-1\.claude-a\.jsonl$/);
  assert.match(logs["claude-b"], /\/\.agentv\/logs\/[^/]+\/fix-1\.claude-b\.jsonl$/);
  const [a, b] = await Promise.all(
    [logs["claude-a"], logs["claude-b"]].map((f) => Deno.readTextFile(f)),
  );
  // Each log holds one whole stream: the recording's lines once.
  const lines = (await Deno.readTextFile(RECORDED)).trim().split("\n").length;
  assert.equal(a.trim().split("\n").length, lines);
  assert.equal(b.trim().split("\n").length, lines);
});
