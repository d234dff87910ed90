/**
 * Rows carry the question: the input messages as sent (a file's text inline up to 16 KiB, a larger
 * one by its size and SHA-256, never by its absolute path), the expected outcome and the expected
 * output, redacted like every other field; and rows written before they did still read.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { readResults, runEval } from "../../mod.ts";
import { INLINE_FILE_BYTES } from "../../lib/results/case_question.ts";
import { parseResults } from "../../lib/results/read_results.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { mockTargets, project, SECRET } from "../_helpers/run_project.ts";

const SMALL = "Order 42 shipped on Monday.\n";
const LARGE = "log line\n".repeat(Math.ceil((INLINE_FILE_BYTES + 1) / 9));

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const CASE = `evalcases:
  - id: summarise
    expected_outcome: Says when order 42 shipped
    input:
      - role: system
        content: Be brief.
      - role: user
        content:
          - type: text
            value: When did order 42 ship?
          - type: file
            value: notes.md
          - type: file
            value: big.log
    expected_output:
      - role: assistant
        content: It shipped on Monday.
    evaluators:
      - type: contains
        value: Monday
`;

Deno.test("a row records the input as sent (small files inline, large ones by size and hash), the expected outcome and output", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("It shipped on Monday."),
    "evals/a.yaml": CASE,
    "evals/notes.md": SMALL,
    "evals/big.log": LARGE,
  });
  const out = join(p.dir, "out.jsonl");
  await runEval({ files: ["evals/a.yaml"], env: {}, cwd: p.dir, out, timeoutMs: 5000 });
  const { rows, problems } = await readResults(out);
  assert.deepEqual(problems, []);
  const [row] = rows;
  assert.deepEqual(row.input, [
    { role: "system", content: "Be brief." },
    {
      role: "user",
      content: [
        { type: "text", value: "When did order 42 ship?" },
        {
          type: "file",
          value: "notes.md",
          bytes: SMALL.length,
          sha256: sha256(SMALL),
          text: SMALL,
        },
        { type: "file", value: "big.log", bytes: LARGE.length, sha256: sha256(LARGE) },
      ],
    },
  ]);
  assert.equal(row.expected_outcome, "Says when order 42 shipped");
  assert.deepEqual(row.expected_output, [{ role: "assistant", content: "It shipped on Monday." }]);
  // Neither the large file's text nor any absolute path is in the results file.
  const text = await Deno.readTextFile(out);
  assert.equal(text.includes(LARGE.slice(0, 200)), false);
  assert.equal(text.includes(p.dir), false);
});

Deno.test("a case without an expected output records null, and error rows carry the question too", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("hi"),
    "evals/a.yaml": `evalcases:
  - id: plain
    expected_outcome: Greets
    input: Say hi
    evaluators: [{ type: contains, value: hi }]
  - id: no-target
    expected_outcome: Greets
    input: Say hi
    execution: { target: nowhere }
`,
  });
  const { rows } = await runEval({ files: ["evals/a.yaml"], env: {}, cwd: p.dir, timeoutMs: 5000 });
  const byId = Object.fromEntries(rows.map((r) => [r.eval_id, r]));
  assert.equal(byId.plain.expected_output, null);
  assert.deepEqual(byId.plain.input, [{ role: "user", content: "Say hi" }]);
  assert.equal(byId["no-target"].status, "error");
  assert.deepEqual(byId["no-target"].input, [{ role: "user", content: "Say hi" }]);
  assert.equal(byId["no-target"].expected_outcome, "Greets");
});

Deno.test("a secret in the question, its files or the expected output is redacted in the row", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "done" },
  });
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: \${{ AGENT_TOKEN }}
    model: m
`,
    "evals/a.yaml": `evalcases:
  - id: leaky
    expected_outcome: Never repeats ${SECRET}
    input:
      - role: user
        content:
          - type: text
            value: My key is ${SECRET}, keep it
          - type: file
            value: config.env
    expected_output:
      - role: assistant
        content: I will not repeat ${SECRET}
    evaluators: [{ type: contains, value: done }]
`,
    "evals/config.env": `API_KEY=${SECRET}\n`,
  });
  const out = join(p.dir, "out.jsonl");
  await runEval({
    files: ["evals/a.yaml"],
    env: { AGENT_TOKEN: SECRET },
    cwd: p.dir,
    out,
    allowRun: true,
    timeoutMs: 10_000,
  });
  const text = await Deno.readTextFile(out);
  assert.equal(text.includes(SECRET), false, text);
  const [row] = (await readResults(out)).rows;
  const content = row.input![0].content as { value?: string; text?: string }[];
  assert.equal(content[0].value, "My key is ***, keep it");
  assert.equal(content[1].text, "API_KEY=***\n");
  assert.equal(row.expected_outcome, "Never repeats ***");
  assert.equal(row.expected_output![0].content, "I will not repeat ***");
});

/** A row as agentv wrote it before rows recorded their question. */
const OLDER_ROW = {
  run_id: "2025-12-01T10-00-00-000Z-0a1b2c3d",
  trial: 0,
  timestamp: "2025-12-01T10:00:01.000Z",
  eval_id: "old",
  dataset: "d",
  conversation_id: null,
  target: "default",
  status: "ok",
  score: 1,
  verdict: "pass",
  hits: [],
  misses: [],
  reasoning: null,
  candidate_answer: "hi",
  evaluator_results: [],
  trace_summary: null,
  token_usage: null,
  duration_ms: 3,
  attempts: 1,
  error: null,
};

Deno.test("readResults() reads rows written before rows carried their question", () => {
  const { rows, problems } = parseResults(JSON.stringify(OLDER_ROW) + "\n");
  assert.deepEqual(problems, []);
  assert.equal(rows.length, 1);
  assert.equal("input" in rows[0], false);
  assert.equal("expected_outcome" in rows[0], false);
});

Deno.test("readResults() names a row's input that is not a list of messages", () => {
  const bad = { ...OLDER_ROW, input: "just text" };
  const { rows, problems } = parseResults(JSON.stringify(bad) + "\n");
  assert.equal(rows.length, 0);
  assert.equal(problems[0].path, "input");
  assert.match(problems[0].message, /'input'/);
});

Deno.test("readResults() gives a row of the original tool its question from its request", () => {
  const original = {
    eval_id: "a",
    score: 0.9,
    target: "t",
    timestamp: "2025-01-15T10:00:00Z",
    lm_provider_request: { chat_prompt: [{ role: "user", content: "Capital of France?" }] },
  };
  const { rows, problems } = parseResults(JSON.stringify(original) + "\n");
  assert.deepEqual(problems, []);
  assert.deepEqual(rows[0].input, [{ role: "user", content: "Capital of France?" }]);
  const withText = { ...original, input: "Capital of Spain?", eval_id: "b" };
  assert.deepEqual(parseResults(JSON.stringify(withText) + "\n").rows[0].input, [
    { role: "user", content: "Capital of Spain?" },
  ]);
});
