/**
 * Module code judges: a TS/JS default export run in a worker that may read the dataset root and
 * nothing else; bounded by the timeout; same payload and result rules as script judges.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evaluate } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

Deno.test("module judge: the default export gets the payload and its result is scored", async () => {
  const row = await evaluate(
    "The answer is 391",
    `      - name: mod
        type: code_judge
        module: ../judges/check.ts
        timeout_seconds: 60
        wanted: "391"
      - name: short
        type: code_judge
        script: ../judges/plain.mjs
        timeout_seconds: 60
`,
    {
      files: {
        "judges/check.ts": `import { pick } from "./lib.ts";
export default async function judge(payload: { candidate_answer: string; eval_id: string; config: { wanted: string } }) {
  console.log("logs do not reach stdout");
  await Promise.resolve();
  const ok = payload.candidate_answer.includes(payload.config.wanted);
  return { score: ok ? 1 : 0, hits: [pick(payload.eval_id)], misses: [], reasoning: "checked", details: { n: 1 } };
}
`,
        "judges/lib.ts": "export const pick = (id: string): string => `case ${id}`;\n",
        "judges/plain.mjs":
          "export default (p) => ({ score: 0.5, misses: [p.expected_outcome] });\n",
      },
    },
  );
  assert.equal(row.status, "ok", row.error ?? "");
  const mod = row.evaluator_results.find((e) => e.name === "mod")!;
  assert.equal(mod.status, "ok", mod.error ?? "");
  assert.equal(mod.score, 1);
  assert.deepEqual(mod.hits, ["case c1"]);
  assert.equal(mod.reasoning, "checked");
  assert.deepEqual(mod.details, { n: 1 });
  assert.deepEqual(mod.evaluator_provider_request, { module: "../judges/check.ts" });
  const short = row.evaluator_results.find((e) => e.name === "short")!;
  assert.equal(short.score, 0.5);
  assert.deepEqual(short.misses, ["x"]);
});

Deno.test("module judge: cannot read outside the root, write, use the network, env or run", async () => {
  await using outside = await tempTree({ "secret.txt": "TOP-SECRET" });
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("reached"),
  );
  const row = await evaluate(
    "a",
    `      - name: probe
        type: code_judge
        module: ../probe.ts
        timeout_seconds: 60
        secret: ${JSON.stringify(join(outside.dir, "secret.txt"))}
        url: "http://127.0.0.1:${server.addr.port}/"
`,
    {
      files: {
        "probe.ts":
          `export default async function probe(p: { config: { secret: string; url: string } }) {
  const tries: Record<string, () => unknown> = {
    read_outside: () => Deno.readTextFile(p.config.secret),
    write: () => Deno.writeTextFile(new URL("./written.txt", import.meta.url), "x"),
    net: () => fetch(p.config.url).then((r) => r.text()),
    env: () => Deno.env.get("HOME"),
    run: () => new Deno.Command("echo", { args: ["hi"] }).output(),
    chdir: () => Deno.chdir("/"),
  };
  const details: Record<string, string> = {};
  for (const [name, attempt] of Object.entries(tries)) {
    try {
      await attempt();
      details[name] = "allowed";
    } catch (e) {
      details[name] = (e as Error).name;
    }
  }
  details.read_inside = (await Deno.readTextFile(new URL("./probe.ts", import.meta.url))).slice(0, 6);
  return { score: 1, details };
}
`,
      },
    },
  );
  const probe = row.evaluator_results.find((e) => e.name === "probe")!;
  assert.equal(probe.status, "ok", probe.error ?? "");
  const details = probe.details as Record<string, string>;
  for (const name of ["read_outside", "write", "net", "env", "run", "chdir"]) {
    assert.match(details[name], /NotCapable|PermissionDenied/, `${name}: ${details[name]}`);
  }
  assert.equal(details.read_inside, "export");
});

Deno.test("module judge: a module linked out of the root, a root with a symlink out, a missing default export are errors", async () => {
  await using outside = await tempTree({ "judge.ts": "export default () => ({ score: 1 });\n" });
  const noDefault = await evaluate(
    "a",
    `      - type: code_judge
        module: ../judge.ts
        timeout_seconds: 60
`,
    { files: { "judge.ts": "export const judge = () => ({ score: 1 });\n" } },
  );
  assert.match(noDefault.evaluator_results[0].error ?? "", /default-exported function/);

  const badReply = await evaluate(
    "a",
    `      - type: code_judge
        module: ../judge.ts
        timeout_seconds: 60
`,
    { files: { "judge.ts": "export default () => ({ score: 'high' });\n" } },
  );
  assert.match(badReply.evaluator_results[0].error ?? "", /numeric "score"/);

  // A link inside the root that leads out would let the worker read through it.
  await using linked = await tempTree({});
  await Deno.symlink(join(outside.dir, "judge.ts"), join(linked.dir, "link.ts"));
  const { runEval } = await import("../../mod.ts");
  await Deno.mkdir(join(linked.dir, ".git"));
  await Deno.writeTextFile(join(linked.dir, "judge.ts"), "export default () => ({ score: 1 });\n");
  await Deno.writeTextFile(
    join(linked.dir, "a.yaml"),
    "evalcases:\n  - {id: c1, expected_outcome: x, input: hi, evaluators: [{type: code_judge, module: ./judge.ts, timeout_seconds: 60}]}\n",
  );
  await Deno.mkdir(join(linked.dir, ".agentv"));
  await Deno.writeTextFile(
    join(linked.dir, ".agentv/targets.yaml"),
    "targets:\n  - {name: default, provider: mock, response: hi}\n",
  );
  const { rows } = await runEval({ files: ["a.yaml"], env: {}, cwd: linked.dir });
  assert.match(rows[0].evaluator_results[0].error ?? "", /symlinks that lead outside/);

  // The module itself a link out of the root: refused before the worker starts.
  await Deno.writeTextFile(
    join(linked.dir, "a.yaml"),
    "evalcases:\n  - {id: c1, expected_outcome: x, input: hi, evaluators: [{type: code_judge, module: ./link.ts}]}\n",
  );
  const viaLink = await runEval({ files: ["a.yaml"], env: {}, cwd: linked.dir });
  assert.match(viaLink.rows[0].evaluator_results[0].error ?? "", /outside the dataset root/);
});

Deno.test("module judge: one that never returns is stopped at the timeout", async () => {
  const row = await evaluate(
    "a",
    `      - type: code_judge
        module: ../spin.ts
        timeout_seconds: 0.3
`,
    { files: { "spin.ts": "export default () => { for (;;) { /* busy */ } };\n" } },
  );
  const result = row.evaluator_results[0];
  assert.equal(result.status, "error");
  assert.match(result.error ?? "", /timed out/);
});

Deno.test("validate reports a judge module outside the dataset root at its line", async () => {
  const { validateEvalFile } = await import("../../mod.ts");
  await using p = await tempTree({
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - type: code_judge
        module: ../../elsewhere/judge.ts
`,
  }, { git: true });
  const report = await validateEvalFile(join(p.dir, "evals/a.yaml"), { root: p.dir });
  assert.equal(report.valid, false);
  const d = report.diagnostics.find((x) => /module '\.\.\/\.\.\/elsewhere/.test(x.message));
  assert.ok(d, JSON.stringify(report.diagnostics));
  assert.equal(d.line, 7);
});
