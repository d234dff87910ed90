import assert from "node:assert/strict";
import { createDryRunJudge, createDryRunTarget, rubricIds } from "../../lib/run/dry_run.ts";

Deno.test("createDryRunJudge() scores 1.0 and satisfies every rubric listed in the prompt", async () => {
  const judge = createDryRunJudge();
  const reply = await judge.complete({
    system: "Grade",
    user: "[[ ## rubrics ## ]]\n- [clear] (REQUIRED) (weight: 1): Is clear\n- [short]: Is short\n",
  }, new AbortController().signal);
  const parsed = JSON.parse(reply.text);
  assert.equal(parsed.score, 1);
  assert.deepEqual(parsed.checks.map((c: { id: string }) => c.id), ["clear", "short"]);
  assert.ok(parsed.checks.every((c: { satisfied: boolean }) => c.satisfied));
  assert.deepEqual(rubricIds('{"id": "x"}\n - [y] text'), ["y", "x"]);
});

Deno.test("createDryRunTarget() answers the mock reply and honours an aborted signal", async () => {
  const target = createDryRunTarget("default", { workers: 2 });
  assert.equal(target.workers, 2);
  const request = {
    evalCase: {} as never,
    prompt: "q",
    messages: [],
    guidelines: "",
    attempt: 0,
    evalDir: ".",
  };
  const response = await target.invoke({ ...request, signal: new AbortController().signal });
  assert.deepEqual(response.output_messages, [{
    role: "assistant",
    content: '{"answer":"Mock dry-run response"}',
  }]);
  const aborted = new AbortController();
  aborted.abort(new Error("stop"));
  await assert.rejects(() => target.invoke({ ...request, signal: aborted.signal }), /stop/);
});
