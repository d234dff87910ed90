import assert from "node:assert/strict";
import { askJudge, excerpt, extractJsonCandidates } from "../../../lib/scoring/judge_reply.ts";
import { selectJudgeTarget } from "../../../lib/scoring/judge_client.ts";
import type { JudgeClient, JudgeRequest } from "../../../lib/scoring/types.ts";
import { FreeformReplySchema } from "../../../lib/schema/judge_reply.ts";

/** A judge that answers from a list and records what it was asked. */
function scripted(replies: (string | Error)[]): JudgeClient & { asked: JudgeRequest[] } {
  const asked: JudgeRequest[] = [];
  return {
    target: "scripted",
    asked,
    complete(request) {
      asked.push(request);
      const next = replies.shift() ?? "";
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve({ text: next, request: { n: asked.length } });
    },
  };
}

const signal = new AbortController().signal;

Deno.test("extractJsonCandidates finds JSON in fences, in prose and with braces in strings", () => {
  assert.deepEqual(extractJsonCandidates('{"a": 1}'), [{ a: 1 }]);
  assert.deepEqual(extractJsonCandidates('```json\n{"a": 1}\n```'), [{ a: 1 }]);
  assert.deepEqual(extractJsonCandidates('``` {"a": 2} ```'), [{ a: 2 }]);
  assert.deepEqual(
    extractJsonCandidates('Sure {not json}. Result: {"a": "x}y", "b": {"c": 1}} -- done :}'),
    [{ a: "x}y", b: { c: 1 } }],
  );
  assert.deepEqual(extractJsonCandidates('first {"a": 1} then {"b": 2}'), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(extractJsonCandidates("[1, 2]"), []);
  assert.deepEqual(extractJsonCandidates("no json here"), []);
});

Deno.test("askJudge picks the candidate that validates when prose holds another object", async () => {
  const judge = scripted(['Format: {"example": true}. Answer: {"score": 0.5}']);
  const reply = await askJudge(judge, { system: "s", user: "u" }, {
    schema: FreeformReplySchema,
    signal,
  });
  assert.ok(reply.ok);
  assert.equal(reply.value.score, 0.5);
  assert.deepEqual(reply.value.hits, []);
  assert.equal(reply.attempts, 1);
});

Deno.test("askJudge re-asks with the problem and gives up after three calls", async () => {
  const judge = scripted(["", "nope", '{"score": "high"}']);
  const reply = await askJudge(judge, { system: "s", user: "u" }, {
    schema: FreeformReplySchema,
    signal,
  });
  assert.equal(reply.ok, false);
  assert.equal(judge.asked.length, 3);
  assert.equal(judge.asked[0].user, "u");
  assert.match(
    judge.asked[1].user,
    /^u\n\n\[\[ ## note ## \]\]\nYour previous reply could not be used: the reply was empty\./,
  );
  assert.match(judge.asked[2].user, /the reply contained no JSON object/);
  if (!reply.ok) {
    assert.equal(reply.attempts, 3);
    assert.equal(reply.rawExcerpt, '{"score": "high"}');
    assert.match(reply.error, /score: score must be a number between 0\.0 and 1\.0/);
    assert.deepEqual(reply.request, { n: 3 });
  }
});

Deno.test("askJudge does not re-ask when the judge cannot be reached", async () => {
  const judge = scripted([new Error("connection refused")]);
  const reply = await askJudge(judge, { system: "s", user: "u" }, {
    schema: FreeformReplySchema,
    signal,
  });
  assert.equal(reply.ok, false);
  assert.equal(judge.asked.length, 1);
  if (!reply.ok) {
    assert.equal(reply.error, "Judge 'scripted' could not be reached: connection refused");
  }
});

Deno.test("excerpt cuts long replies and says how long they were", () => {
  assert.equal(excerpt("x".repeat(500), 10), "xxxxxxxxxx… (500 chars)");
});

Deno.test("selectJudgeTarget: override wins, unknown names are errors, none is undefined", () => {
  const names = ["agent", "gpt", "claude"];
  assert.equal(
    selectJudgeTarget({ name: "agent", judgeTarget: "gpt" }, { targetNames: names }),
    "gpt",
  );
  assert.equal(
    selectJudgeTarget({ name: "agent", judgeTarget: "gpt" }, {
      targetNames: names,
      override: "claude",
    }),
    "claude",
  );
  assert.equal(selectJudgeTarget({ name: "agent" }, { targetNames: names }), undefined);
  assert.throws(
    () =>
      selectJudgeTarget({ name: "agent", judgeTarget: "gtp" }, {
        targetNames: names,
        targetsFile: "t.yaml",
      }),
    /Target 'agent' has judge_target: 'gtp', which names no target in t\.yaml; defined targets: 'agent', 'gpt', 'claude'/,
  );
  assert.throws(
    () => selectJudgeTarget({ name: "agent" }, { targetNames: names, override: "nope" }),
    /--judge-target 'nope' names no target/,
  );
});
