import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { evaluateCodeJudge, lastJsonObject } from "../../lib/scoring/code_judge.ts";
import { summarizeTrace } from "../../lib/scoring/answer.ts";
import { runEvaluator } from "../../lib/scoring/run_evaluator.ts";
import { CodeJudgeSchema, EvaluatorConfigSchema } from "../../lib/schema/evaluator.ts";
import type { OutputMessage } from "../../lib/schema/result.ts";
import { makeCase, makeContext } from "./_context.ts";

const ROOT = fromFileUrl(new URL("../../fixtures/evaluators/", import.meta.url));
const JUDGES = fromFileUrl(new URL("../../fixtures/evaluators/judges/", import.meta.url));
const DENO = ["deno", "run", "--no-config", "--quiet", "--allow-read"];
const deno = (script: string) => [Deno.execPath(), ...DENO.slice(1), script];

function judge(config: Record<string, unknown>) {
  return CodeJudgeSchema.parse({ type: "code_judge", name: "judge", ...config });
}

function context(extra: Parameters<typeof makeContext>[0] = {}) {
  return makeContext({ evalDir: JUDGES, root: ROOT, ...extra });
}

Deno.test("code_judge reads the last JSON object after log lines", async () => {
  const r = await evaluateCodeJudge(
    judge({ script: deno("echo_payload.ts") }),
    context({ outputMessages: [{ role: "assistant", content: "Paris" }] }),
  );
  assert.equal(r.status, "ok");
  assert.equal(r.score, 0.75);
  assert.equal(r.verdict, "borderline");
  assert.deepEqual(r.hits, ["payload read", "42"]);
  assert.deepEqual(r.misses, ["one miss"]);
  assert.equal(r.reasoning, "looked fine");
  assert.deepEqual(r.evaluator_provider_request, {
    script: deno("echo_payload.ts"),
    cwd: JUDGES.replace(/\/$/, ""),
  });
});

Deno.test("code_judge sends every payload key and keeps user data keys as authored", async () => {
  const outputMessages: OutputMessage[] = [
    {
      role: "assistant",
      tool_calls: [{ tool: "readFile", input: { filePath: "src/a.ts" }, output: { lineCount: 3 } }],
    },
    { role: "assistant", content: { riskLevel: "high", ruleIds: ["R1"] } },
  ];
  const evalCase = makeCase({
    id: "risk-1",
    expected_outcome: "Flags the risk",
    input: [
      { role: "system", content: "Be careful." },
      {
        role: "user",
        content: [
          { type: "text", value: "Assess this file" },
          { type: "file", value: "a.ts", path: "/data/a.ts", text: "x" },
        ],
      },
    ],
    expected_output: [{ role: "assistant", content: { riskLevel: "high" } }],
    guideline_paths: ["/data/rules.instructions.md"],
    file_paths: ["/data/rules.instructions.md", "/data/a.ts"],
  });
  const r = await evaluateCodeJudge(
    judge({ script: deno("echo_payload.ts"), maxRisk: 3, fieldPaths: ["riskLevel"] }),
    context({
      evalCase,
      outputMessages,
      candidate: '{"riskLevel":"high","ruleIds":["R1"]}',
      trace: summarizeTrace(outputMessages, { duration_ms: 12 }),
      prompt: "<rendered prompt>",
    }),
  );
  const payload = (r.details as { payload: Record<string, unknown> }).payload;
  assert.deepEqual(Object.keys(payload).sort(), [
    "candidate_answer",
    "config",
    "eval_id",
    "expected_messages",
    "expected_outcome",
    "expected_output",
    "guideline_files",
    "input",
    "input_files",
    "input_messages",
    "input_text",
    "output_messages",
    "question",
    "reference_answer",
    "trace_summary",
  ]);
  assert.equal(payload.question, "<rendered prompt>");
  assert.equal(payload.input_text, "Be careful. Assess this file");
  assert.equal(payload.expected_outcome, "Flags the risk");
  assert.deepEqual(payload.expected_output, [{
    role: "assistant",
    content: { riskLevel: "high" },
  }]);
  assert.deepEqual(payload.expected_messages, payload.expected_output);
  assert.equal(payload.reference_answer, '{\n  "riskLevel": "high"\n}');
  assert.equal(payload.candidate_answer, '{"riskLevel":"high","ruleIds":["R1"]}');
  assert.deepEqual(payload.output_messages, outputMessages);
  assert.deepEqual(payload.guideline_files, ["/data/rules.instructions.md"]);
  assert.deepEqual(payload.input_files, ["/data/a.ts"]);
  assert.deepEqual(payload.input_messages, evalCase.input);
  assert.deepEqual(payload.input, evalCase.input);
  assert.deepEqual(payload.trace_summary, {
    event_count: 1,
    tool_names: ["readFile"],
    tool_calls_by_name: { readFile: 1 },
    error_count: 0,
    duration_ms: 12,
  });
  assert.deepEqual(payload.config, { maxRisk: 3, fieldPaths: ["riskLevel"] });
});

Deno.test("code_judge sends config: null when there are no extra keys", async () => {
  const r = await evaluateCodeJudge(judge({ script: deno("echo_payload.ts") }), context());
  assert.equal((r.details as { payload: { config: unknown } }).payload.config, null);
});

Deno.test("code_judge treats a reply without a JSON object as an error with stderr", async () => {
  const r = await evaluateCodeJudge(judge({ script: deno("not_json.ts") }), context());
  assert.equal(r.status, "error");
  assert.equal(r.score, 0);
  assert.equal(r.verdict, "fail");
  assert.match(r.error ?? "", /^Code judge printed no JSON object/);
  assert.match(r.error ?? "", /stdout: I think the answer is good, score 1/);
  assert.match(r.error ?? "", /stderr: warning: no JSON produced/);
  assert.match(r.misses[0], /^Evaluator 'judge' failed: Code judge printed no JSON object/);
});

Deno.test("code_judge treats a non-zero exit as an error with the stderr tail", async () => {
  const r = await evaluateCodeJudge(judge({ script: deno("exit_nonzero.ts") }), context());
  assert.equal(r.status, "error");
  assert.equal(r.score, 0);
  const error = r.error ?? "";
  assert.match(error, /^Code judge exited with code 3: \.\.\.\(truncated, last 2000 chars\)\n/);
  assert.match(error, /FATAL: rule file missing$/);
  const tailText = error.slice(error.indexOf("\n") + 1);
  assert.equal(tailText.length, 2000);
});

Deno.test("code_judge kills a script that exceeds timeout_seconds", async () => {
  // The script never ends: returning at all shows it was killed.
  const r = await evaluateCodeJudge(
    judge({ script: deno("sleep_forever.ts"), timeout_seconds: 0.5 }),
    context(),
  );
  assert.equal(r.status, "error");
  assert.match(r.error ?? "", /^Code judge timed out after 500ms and was killed/);
});

Deno.test("code_judge timeout kills the whole process group of a shell script", async () => {
  // The background `sleep` keeps stdout open for 10 minutes unless the whole group is killed.
  const r = await evaluateCodeJudge(
    judge({ script: "sleep 600 & sleep 600" }),
    context({ timeoutMs: 300 }),
  );
  assert.equal(r.status, "error");
  assert.match(r.error ?? "", /timed out after 300ms/);
});

Deno.test("code_judge is killed when the run is interrupted", async () => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 200);
  const r = await evaluateCodeJudge(
    judge({ script: deno("sleep_forever.ts") }),
    context({ signal: controller.signal }),
  );
  clearTimeout(timer);
  assert.equal(r.status, "error");
  assert.equal(r.error, "interrupted");
});

Deno.test("code_judge runs a string script through sh -c", async () => {
  const r = await evaluateCodeJudge(
    judge({ script: `echo "log line"; echo '{"score": 0.7, "hits": ["shell"]}'` }),
    context(),
  );
  assert.equal(r.score, 0.7);
  assert.equal(r.verdict, "borderline");
  assert.deepEqual(r.hits, ["shell"]);
  const request = r.evaluator_provider_request as Record<string, unknown>;
  assert.deepEqual(request.script, [
    "sh",
    "-c",
    `echo "log line"; echo '{"score": 0.7, "hits": ["shell"]}'`,
  ]);
});

Deno.test("code_judge clamps the score and works when the script ignores stdin", async () => {
  const r = await evaluateCodeJudge(judge({ script: deno("ignore_stdin.ts") }), context());
  assert.equal(r.status, "ok");
  assert.equal(r.score, 1);
  assert.equal(r.reasoning, "generous");
});

Deno.test("code_judge requires a numeric score in the reply", async () => {
  const r = await evaluateCodeJudge(judge({ script: deno("no_score.ts") }), context());
  assert.equal(r.status, "error");
  assert.match(r.error ?? "", /no numeric "score" \(got "high"\)/);
});

Deno.test("code_judge reports a program that cannot start", async () => {
  const r = await evaluateCodeJudge(judge({ script: ["agentv-no-such-program-xyz"] }), context());
  assert.equal(r.status, "error");
  assert.match(r.error ?? "", /^Code judge could not start 'agentv-no-such-program-xyz': /);
});

Deno.test("code_judge resolves cwd from the eval folder and keeps it inside the root", async () => {
  const r = await evaluateCodeJudge(
    judge({ script: deno("../echo_payload.ts"), cwd: "sub" }),
    context(),
  );
  assert.equal(r.status, "ok");
  assert.equal((r.details as { cwd: string }).cwd, `${JUDGES}sub`);

  const outside = await evaluateCodeJudge(
    judge({ script: deno("echo_payload.ts"), cwd: "../.." }),
    context(),
  );
  assert.equal(outside.status, "error");
  assert.match(outside.error ?? "", /outside the dataset root/);

  const missing = await evaluateCodeJudge(
    judge({ script: deno("echo_payload.ts"), cwd: "nope" }),
    context(),
  );
  assert.match(missing.error ?? "", /^cwd 'nope' does not exist/);
});

Deno.test("code_judge errors become error results with name and weight via runEvaluator", async () => {
  const config = EvaluatorConfigSchema.parse({
    type: "code_judge",
    name: "strict",
    weight: 2,
    script: deno("not_json.ts"),
  });
  const r = await runEvaluator(config, context());
  assert.equal(r.name, "strict");
  assert.equal(r.weight, 2);
  assert.equal(r.status, "error");
  assert.ok(r.evaluator_provider_request);
});

Deno.test("lastJsonObject() picks the final object and skips trailing noise lines", () => {
  assert.deepEqual(lastJsonObject('{"score": 1}'), { score: 1 });
  assert.deepEqual(lastJsonObject('log\n{"score": 0}\n{"score": 0.5}\n'), { score: 0.5 });
  assert.deepEqual(lastJsonObject('a\n{\n  "score": 0.3\n}\n'), { score: 0.3 });
  assert.deepEqual(lastJsonObject('{"score": 0.4}\ndone.'), { score: 0.4 });
  assert.equal(lastJsonObject("[1]\nplain"), undefined);
});

Deno.test("code_judge with target: lets the script call the judge through the proxy", async () => {
  const seen: string[] = [];
  const judgeClient = {
    target: "judge-mock",
    complete: (req: { system: string; user: string }) => {
      seen.push(`${req.system}|${req.user}`);
      return Promise.resolve({ text: `judged: ${req.user}`, request: {} });
    },
  };
  const script = [
    Deno.execPath(),
    "run",
    "--no-config",
    "--quiet",
    "--allow-env",
    "--allow-net=127.0.0.1",
    "proxy_judge.ts",
  ];
  const r = await evaluateCodeJudge(
    judge({ script, target: { max_calls: 2 } }),
    context({ judge: judgeClient, outputMessages: [{ role: "assistant", content: "Paris" }] }),
  );
  assert.equal(r.status, "ok", r.error ?? "");
  assert.equal(r.score, 1);
  assert.deepEqual(r.details, {
    info: { targetName: "judge-mock", maxCalls: 2, callCount: 0, availableTargets: ["judge-mock"] },
    raw_text: 'judged: Is "Paris" right?',
    unauthorized: 401,
    batch: 429,
    batch_error: "Max calls exceeded (limit: 2)",
  });
  assert.deepEqual(seen, ['Be brief|Is "Paris" right?']);
  const request = r.evaluator_provider_request as Record<string, unknown>;
  assert.deepEqual(request.target_proxy, { call_count: 1, max_calls: 2 });
  assert.doesNotMatch(JSON.stringify(r), /[0-9a-f]{64}/, "the proxy token is never recorded");
});

Deno.test("code_judge with target: but no judge is an error naming the fix", async () => {
  const r = await evaluateCodeJudge(judge({ script: ["true"], target: true }), context());
  assert.equal(r.status, "error");
  assert.match(r.error ?? "", /set judge_target/);
});
