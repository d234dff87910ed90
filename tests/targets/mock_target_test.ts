/** Targets: the mock provider. */
import assert from "node:assert/strict";
import { lib, project } from "../_helpers/run_project.ts";

Deno.test("mock: response object, echo, tool_calls, delay_ms", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: obj
    provider: mock
    response: {answer: 42, nested: {camelKey: true}}
  - name: echo
    provider: mock
    echo: true
  - name: tools
    provider: mock
    response: done
    delay_ms: 150
    tool_calls:
      - tool: lookup
        input: {id: 7}
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: Echo this please
    evaluators: [{type: is_json}]
`,
  });
  const [obj] = await lib(p.dir, ["evals/a.yaml"], { target: "obj" });
  assert.deepEqual(JSON.parse(obj.candidate_answer), { answer: 42, nested: { camelKey: true } });
  assert.equal(obj.score, 1);
  const [echo] = await lib(p.dir, ["evals/a.yaml"], { target: "echo" });
  assert.match(echo.candidate_answer, /Echo this please/);
  const [tools] = await lib(p.dir, ["evals/a.yaml"], { target: "tools" });
  assert.equal(tools.candidate_answer, "done");
  assert.equal(tools.trace_summary?.tool_calls_by_name?.lookup, 1);
  assert.ok(tools.duration_ms >= 140, `duration ${tools.duration_ms}`);
});
