/**
 * The judge host as the released binary starts it: `main.ts` given the compile task's exact
 * permission flags runs a module judge end to end, and `main.ts __agentv_judge_host` (what a
 * compiled agentv runs as its judge host) serves a call whose worker reads only what it was given.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import { JUDGE_HOST_ARG } from "../../lib/scoring/module_judge_host.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { project } from "../_helpers/run_project.ts";

/** The runtime flags (permissions, unstable features) of the `compile:linux-x64` task. */
function compileFlags(): string[] {
  return (denoJson.tasks as Record<string, string>)["compile:linux-x64"].split(/\s+/).filter((a) =>
    /^--(allow|deny)-[a-z-]+(=.*)?$/.test(a) || /^--unstable-[a-z-]+$/.test(a)
  );
}

Deno.test("main.ts with exactly the compile task's flags runs a module judge in its host", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    response: '391'\n",
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: q
    evaluators:
      - type: code_judge
        module: ../judges/check.ts
        timeout_seconds: 60
`,
    "judges/check.ts":
      "export default (p: { candidate_answer: string }) => ({ score: p.candidate_answer === '391' ? 1 : 0 });\n",
  });
  const out = join(p.dir, "out.jsonl");
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...compileFlags(), join(REPO_ROOT, "main.ts"), "run", "evals", "--out", out],
    cwd: p.dir,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  assert.equal(result.code, 0, text.decode(result.stderr) + text.decode(result.stdout));
  const row = JSON.parse((await Deno.readTextFile(out)).trim());
  assert.equal(row.evaluator_results[0].status, "ok", row.evaluator_results[0].error);
  assert.equal(row.score, 1);
});

Deno.test("main.ts __agentv_judge_host serves calls; the worker reads only its read list", async () => {
  await using p = await project({
    ".env": "SECRET=1\n",
    "ok.txt": "fine",
    "judge.ts": `export default async (paths: string[]) => {
  const out: string[] = [];
  for (const path of paths) {
    out.push(await Deno.readTextFile(path).catch((e) => (e as Error).name));
  }
  return { score: 1, hits: out };
};
`,
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...compileFlags(), join(REPO_ROOT, "main.ts"), JUDGE_HOST_ARG],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const request = {
    url: new URL(`file://${join(p.dir, "judge.ts")}`).href,
    payload: [join(p.dir, "ok.txt"), join(p.dir, ".env")],
    read: [join(p.dir, "judge.ts"), join(p.dir, "ok.txt")],
  };
  await writer.write(new TextEncoder().encode(`tok\n${JSON.stringify(request)}\n`));
  await writer.close();
  const output = new TextDecoder().decode((await child.output()).stdout).trim();
  assert.match(output, /^tok /);
  const reply = JSON.parse(output.slice(4));
  assert.equal(reply.ok, true, reply.error);
  assert.deepEqual(reply.value.hits, ["fine", "NotCapable"]);
});
