/** Evaluators: subprocess code judges (payload, errors, timeouts). */
import assert from "node:assert/strict";
import { evaluate } from "../_helpers/run_project.ts";

Deno.test("code_judge: receives the payload with user keys untouched; logs before the JSON", async () => {
  const judge = `const input = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log("log line one");
console.log("{ not json");
console.log(JSON.stringify({
  score: 0.7,
  hits: ["got " + input.candidate_answer],
  misses: [],
  reasoning: "fine",
  details: { echo_config: input.config, expected: input.expected_output, myCamel: 1 },
}));
`;
  const r = await evaluate(
    "Paris",
    `      - type: code_judge
        script: ["${Deno.execPath()}", "run", "--quiet", "--allow-all", "judge.ts"]
        maxLength: 5
        nested_cfg: {innerKey: 1}
`,
    {
      files: { "evals/judge.ts": judge },
      extraCase:
        "    expected_output:\n      - role: assistant\n        content: {cityName: Paris}\n",
    },
  );
  const e = r.evaluator_results[0];
  assert.equal(e.status, "ok", e.error ?? "");
  assert.equal(e.score, 0.7);
  assert.equal(e.verdict, "borderline");
  assert.deepEqual(e.hits, ["got Paris"]);
  assert.equal(e.reasoning, "fine");
  const details = e.details as Record<string, unknown>;
  assert.deepEqual(details.echo_config, { maxLength: 5, nested_cfg: { innerKey: 1 } });
  assert.ok(JSON.stringify(details.expected).includes("cityName"));
  assert.equal(details.myCamel, 1);
  assert.equal(r.score, 0.7);
});

Deno.test("code_judge: non-JSON reply or non-zero exit is an error with the stderr tail", async () => {
  const noJson = await evaluate(
    "x",
    `      - type: code_judge
        script: "echo oops-stdout; echo judge-stderr-detail >&2"
`,
  );
  assert.equal(noJson.status, "error");
  assert.equal(noJson.evaluator_results[0].status, "error");
  assert.match(noJson.evaluator_results[0].error ?? "", /judge-stderr-detail/);
  assert.equal(noJson.score, 0);
  const exit = await evaluate(
    "x",
    `      - type: code_judge
        script: "echo '{\\"score\\": 1}'; echo crash-detail >&2; exit 2"
`,
  );
  assert.equal(exit.status, "error");
  assert.match(exit.evaluator_results[0].error ?? "", /crash-detail/);
  assert.match(exit.error ?? "", /crash-detail/);
});

Deno.test("code_judge: a judge that runs too long is killed at the timeout", async () => {
  // `sleep 600` outlives any test run: returning at all shows it was killed at the timeout.
  const r = await evaluate(
    "x",
    `      - type: code_judge
        script: "sleep 600"
        timeout_seconds: 0.3
`,
  );
  assert.equal(r.status, "error");
  assert.match(r.evaluator_results[0].error ?? "", /time/i);
});
