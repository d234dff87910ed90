/** Targets: CLI targets (placeholders, cwd, output files, timeouts, healthchecks). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, containsSuite, lib, project, rowsOf } from "../_helpers/run_project.ts";

Deno.test("cli: placeholders are shell-quoted; cwd is relative to the targets file; stdout answer", async () => {
  await using p = await project({
    "agent/reply.sh": `printf '%s|%s|%s|%s' "$(basename "$PWD")" "$1" "$2" "$3"\n`,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: sh reply.sh {EVAL_ID} {ATTEMPT} {PROMPT}
    cwd: ../agent
`,
    "evals/a.yaml": `evalcases:
  - id: quote-me
    expected_outcome: x
    input: "it's $(echo pwned) \`x\` \\"q\\" ; rm -rf /"
    evaluators: [{type: contains, value: x}]
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.status, "ok", row.error ?? r.err);
  const [dir, id, attempt, prompt] = row.candidate_answer.split("|");
  assert.equal(dir, "agent");
  assert.equal(id, "quote-me");
  assert.equal(attempt, "0");
  assert.ok(prompt.includes(`it's $(echo pwned) \`x\` "q" ; rm -rf /`), prompt);
});

Deno.test("cli: default cwd is the eval file's folder; {OUTPUT_FILE} JSON becomes the trace", async () => {
  const agent = `const [out] = Deno.args;
await Deno.writeTextFile(out, JSON.stringify({
  output_messages: [
    { role: "assistant", tool_calls: [{ tool: "search", input: { query: "weather", opts: { n: 3, lang: "en" } } }] },
    { role: "assistant", content: "It is sunny in " + Deno.cwd().split("/").pop() },
  ],
  token_usage: { input: 12, output: 5 },
  cost_usd: 0.01,
  duration_ms: 42,
}));
console.log("this stdout is ignored");
`;
  await using p = await project({
    "evals/agent.ts": agent,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: ${Deno.execPath()} run --quiet --allow-all agent.ts {OUTPUT_FILE}
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: weather?
    evaluators:
      - type: contains
        value: sunny in evals
      - type: tool_trajectory
        mode: exact
        expected:
          - tool: search
            args: {opts: {n: 3}}
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.candidate_answer, "It is sunny in evals");
  assert.equal(row.score, 1);
  assert.deepEqual(row.token_usage, { input: 12, output: 5 });
  assert.equal(row.trace_summary?.cost_usd, 0.01);
  assert.equal(row.trace_summary?.tool_calls_by_name?.search, 1);
  assert.equal(row.output_messages.length, 2);
});

Deno.test("cli: a CLI target is bounded by --timeout and a failing command is an error row", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: slow
    provider: cli
    command_template: sleep 600
    max_retries: 0
  - name: failing
    provider: cli
    command_template: sh -c 'echo boom-detail >&2; exit 4'
    max_retries: 0
`,
    "evals/a.yaml": containsSuite("a", [["c1", "x"]]),
  });
  // `sleep 600` outlives any test run: returning at all shows it was killed at the timeout.
  const [s] = await lib(p.dir, ["evals/a.yaml"], {
    allowRun: true,
    target: "slow",
    timeoutMs: 300,
  });
  assert.equal(s.status, "error");
  assert.match(s.error ?? "", /time/i);
  const [f] = await lib(p.dir, ["evals/a.yaml"], { allowRun: true, target: "failing" });
  assert.equal(f.status, "error");
  assert.match(f.error ?? "", /boom-detail/);
});

Deno.test("cli: {FILES}, {GUIDELINES}, JSON `text` on stdout, and a healthcheck", async () => {
  await using p = await project({
    "evals/notes.md": "some notes",
    "evals/style.instructions.md": "Be terse.",
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: >-
      printf '{"text": "%s", "token_usage": {"input": 1, "output": 2}}' "$(echo {FILES})"
    files_format: "[{basename}]"
    healthcheck:
      type: command
      command_template: touch healthy.flag
  - name: guide
    provider: cli
    command_template: printf '%s' {GUIDELINES}
  - name: unhealthy
    provider: cli
    command_template: echo hi
    healthcheck:
      type: command
      command_template: exit 1
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input:
      - role: user
        content:
          - {type: text, value: "Summarise"}
          - {type: file, value: notes.md}
          - {type: file, value: style.instructions.md}
    evaluators: [{type: contains, value: notes.md}]
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(row.candidate_answer.split(" ").sort(), [
    "[notes.md]",
    "[style.instructions.md]",
  ]);
  assert.deepEqual(row.token_usage, { input: 1, output: 2 });
  await Deno.stat(join(p.dir, "evals", "healthy.flag"));
  const [g] = await lib(p.dir, ["evals/a.yaml"], { allowRun: true, target: "guide" });
  assert.match(g.candidate_answer, /Be terse\./);
  const [u] = await lib(p.dir, ["evals/a.yaml"], { allowRun: true, target: "unhealthy" });
  assert.equal(u.status, "error");
  assert.match(u.error ?? "", /healthcheck/i);
});
