import assert from "node:assert/strict";
import { join } from "node:path";
import { parseCliOutput } from "../../lib/targets/cli_output.ts";
import { renderCommandTemplate } from "../../lib/targets/cli.ts";
import { createTarget, resolveTarget } from "../../lib/targets/registry.ts";
import { invokeWithRetry } from "../../lib/targets/retry.ts";
import { manualTimer } from "../_helpers/manual_timer.ts";
import { loadTargetsFile } from "../../lib/dataset/targets_file.ts";
import { makeCase, makeRequest } from "./_request.ts";
import { FIXTURES } from "./_request.ts";

const BIN = join(FIXTURES, "bin");

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "agentv-cli-test-" });
}

/** Whether `pid` is a running process (a zombie waiting to be reaped counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  // Through `sh`: Deno lets only `--allow-all` read another process's /proc entries.
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", `cat /proc/${pid}/stat 2>/dev/null`],
    stdout: "piped",
    stderr: "null",
  }).output();
  const stat = new TextDecoder().decode(stdout);
  return stat !== "" && !/^\d+ \(.*\) [ZX]/.test(stat);
}

/** Polls (every 10 ms, 10 s at most) until `check` holds; a loaded machine only makes it slower. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return await check();
}

Deno.test("cli target reads the original JSON format from {OUTPUT_FILE} and deletes it", async () => {
  const tmp = await tempDir();
  const target = createTarget({
    name: "agent",
    provider: "cli",
    command_template: `sh ${BIN}/agent_json.sh --prompt {PROMPT} --output {OUTPUT_FILE}`,
  }, { env: {}, tempDir: tmp });
  const response = await target.invoke(makeRequest({ prompt: `it's "quoted" $HOME` }));
  assert.deepEqual(response.output_messages, [
    {
      role: "assistant",
      tool_calls: [{ tool: "search", input: { q: `it's "quoted" $HOME` }, id: "t1" }],
    },
    { role: "assistant", content: `answer to: it's "quoted" $HOME` },
  ]);
  assert.deepEqual(response.token_usage, { input: 12, output: 3 });
  assert.equal(response.cost_usd, 0.0004);
  assert.equal(response.duration_ms, 42);
  assert.deepEqual([...Deno.readDirSync(tmp)], []);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("cli target keeps the output file with keep_temp_files", async () => {
  const tmp = await tempDir();
  const target = createTarget({
    name: "agent",
    provider: "cli",
    command_template: `sh ${BIN}/write_text.sh {OUTPUT_FILE} {PROMPT}`,
    keep_temp_files: true,
  }, { env: {}, tempDir: tmp });
  const response = await target.invoke(
    makeRequest({ prompt: "plain\r\nanswer", evalCase: makeCase({ id: "weird id/1" }) }),
  );
  assert.deepEqual(response.output_messages, [{ role: "assistant", content: "plain\nanswer" }]);
  const files = [...Deno.readDirSync(tmp)].map((e) => e.name);
  assert.equal(files.length, 1);
  assert.match(files[0], /^agentv-weird_id_1-\d+-[a-z0-9]{7}\.json$/);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("cli target without {OUTPUT_FILE} answers from stdout; placeholders are shell-quoted", async () => {
  const target = createTarget({
    name: "args",
    provider: "cli",
    command_template: `sh ${BIN}/print_args.sh {PROMPT} {GUIDELINES} {EVAL_ID} {ATTEMPT} {FILES}`,
    files_format: "--file={path} --name={basename}",
  }, { env: {} });
  const response = await target.invoke(makeRequest({
    prompt: "a 'b' $(echo pwned) `x`",
    guidelines: "",
    attempt: 2,
    evalCase: makeCase({
      id: "c-1",
      file_paths: ["/abs/one.md", "rel/two words.txt", "/abs/one.md"],
    }),
    evalDir: "/work",
  }));
  assert.deepEqual(
    String(response.output_messages[0].content).split("\n").slice(1),
    [
      "[a 'b' $(echo pwned) `x`]",
      "[]",
      "[c-1]",
      "[2]",
      "[--file=/abs/one.md]",
      "[--name=one.md]",
      "[--file=/work/rel/two words.txt]",
      "[--name=two words.txt]",
    ],
  );
});

Deno.test("cli cwd is relative to the targets file folder; default is the eval file's folder", async () => {
  const file = await loadTargetsFile(join(FIXTURES, "project", ".agentv", "targets.yaml"));
  const agent = resolveTarget(file, "agent", { env: {} });
  const r = await agent.invoke(makeRequest({ prompt: "hello" }));
  assert.equal(r.output_messages.at(-1)?.content, "answer to: hello");

  const pwd = createTarget(
    { name: "pwd", provider: "cli", command_template: "pwd" },
    { env: {}, targetsFileDir: "/somewhere/else" },
  );
  const evalDir = join(FIXTURES, "project", "evals", "sub");
  const r2 = await pwd.invoke(makeRequest({ evalDir }));
  assert.equal(r2.output_messages[0].content, evalDir);
  const relative = createTarget(
    { name: "pwd", provider: "cli", command_template: "pwd", cwd: "../evals" },
    { env: {}, targetsFileDir: join(FIXTURES, "project", ".agentv") },
  );
  const r3 = await relative.invoke(makeRequest({ evalDir }));
  assert.equal(r3.output_messages[0].content, join(FIXTURES, "project", "evals"));
});

Deno.test("a non-zero exit fails with the exit code and the stderr tail", async () => {
  const target = createTarget(
    { name: "broken", provider: "cli", command_template: `sh ${BIN}/fail.sh` },
    { env: {} },
  );
  const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
  assert.equal(error.name, "TargetError");
  assert.equal(error.retryable, false);
  assert.equal(
    error.message,
    "CLI target 'broken' exited with code 3: agent crashed: model unavailable",
  );
});

Deno.test("a missing output file is an error naming it", async () => {
  const target = createTarget(
    { name: "lazy", provider: "cli", command_template: "true {OUTPUT_FILE}" },
    { env: {} },
  );
  await assert.rejects(
    target.invoke(makeRequest()),
    /did not write its \{OUTPUT_FILE\} '.*agentv-case-1-/,
  );
});

Deno.test("timeout_seconds kills the whole process group, grandchildren included", async () => {
  const tmp = await tempDir();
  const pidFile = join(tmp, "pid");
  const target = createTarget({
    name: "slow",
    provider: "cli",
    command_template: `sh ${BIN}/slow.sh ${pidFile}`,
    timeout_seconds: 0.3,
    max_retries: 0,
  }, { env: {} });
  const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
  assert.equal(error.retryable, true);
  assert.match(error.message, /timed out after 0\.3s/);
  const pid = Number(await Deno.readTextFile(pidFile));
  // The group was sent SIGKILL; the grandchild is gone once the kernel has delivered it.
  assert.ok(
    await eventually(async () => !(await isAlive(pid))),
    "the grandchild `sleep 30` survived",
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("the runner's attempt timeout and outer abort kill a CLI agent too", async () => {
  const tmp = await tempDir();
  const target = createTarget({
    name: "slow",
    provider: "cli",
    command_template: `sh ${BIN}/slow.sh ${join(tmp, "pid")}`,
    max_retries: 1,
    retry_initial_delay_ms: 1,
  }, { env: {} });
  const { request: _r, attempt: _a, ...base } = { ...makeRequest(), request: undefined };
  const readPid = () => {
    try {
      return Deno.readTextFileSync(join(tmp, "pid")).trim();
    } catch {
      return "";
    }
  };
  // Each attempt's 200 ms pass once its agent runs: its script has written the grandchild's pid
  // (the marker). Time is driven, so a slow start cannot time an attempt out before that.
  const clock = manualTimer();
  const timedOut = invokeWithRetry(target, base, {
    timeoutMs: 200,
    signal: new AbortController().signal,
    timer: clock.timer,
  }).then(() => undefined, (e) => e);
  const grandchildren: number[] = [];
  for (const attempt of [1, 2]) {
    assert.ok(await eventually(() => /^\d+$/.test(readPid())), `attempt ${attempt} never started`);
    grandchildren.push(Number(readPid()));
    await Deno.remove(join(tmp, "pid"));
    clock.elapse();
  }
  const error = await timedOut;
  assert.equal(error.attempts, 2);
  assert.match(error.message, /timed out after 0\.2s/);
  assert.deepEqual(clock.armed.map((t) => [t.ms, t.fired]), [[200, true], [200, true]]);
  for (const pid of grandchildren) {
    assert.ok(
      await eventually(async () => !(await isAlive(pid))),
      "a grandchild survived the timeout",
    );
  }

  // Abort once the agent is running: its script has written the grandchild's pid (the marker).
  const controller = new AbortController();
  const call = invokeWithRetry(target, base, { timeoutMs: 60_000, signal: controller.signal });
  assert.ok(await eventually(() => /^\d+$/.test(readPid())), "the agent never started");
  controller.abort();
  await assert.rejects(call, /Interrupted/);
  const grandchild = Number(readPid());
  assert.ok(
    await eventually(async () => !(await isAlive(grandchild))),
    "the grandchild survived the abort",
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("a command healthcheck runs once before the first call; a failure fails the calls", async () => {
  const tmp = await tempDir();
  const counter = join(tmp, "count");
  const ok = createTarget({
    name: "hc",
    provider: "cli",
    command_template: "echo answer",
    healthcheck: { type: "command", command_template: `sh ${BIN}/count.sh ${counter} ok` },
  }, { env: {} });
  assert.ok(ok.healthcheck);
  await ok.healthcheck!(new AbortController().signal);
  await ok.invoke(makeRequest());
  const r = await ok.invoke(makeRequest());
  assert.equal(r.output_messages[0].content, "answer");
  assert.equal((await Deno.readTextFile(counter)).trim().split("\n").length, 1);

  const bad = createTarget({
    name: "hc-bad",
    provider: "cli",
    command_template: "echo answer",
    healthcheck: { type: "command", command_template: `sh ${BIN}/count.sh ${counter} fail` },
  }, { env: {} });
  await assert.rejects(
    bad.invoke(makeRequest()),
    /CLI healthcheck failed for 'hc-bad': exited with code 1: not ready/,
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("an http healthcheck GETs the URL and fails on non-2xx", async () => {
  let status = 200;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok", { status }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/health`;
  try {
    const target = createTarget({
      name: "web",
      provider: "cli",
      command_template: "echo hi",
      healthcheck: { type: "http", url },
    }, { env: {} });
    await target.healthcheck!(new AbortController().signal);
    status = 503;
    const other = createTarget({
      name: "web2",
      provider: "cli",
      command_template: "echo hi",
      healthcheck: { type: "http", url },
    }, { env: {} });
    await assert.rejects(
      other.healthcheck!(new AbortController().signal),
      /CLI healthcheck failed for 'web2': GET .* returned HTTP 503/,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("renderCommandTemplate quotes in one pass and leaves unknown text alone", () => {
  assert.equal(
    renderCommandTemplate("run {PROMPT} {OUTPUT_FILE} {path} {FILES}", {
      PROMPT: "{OUTPUT_FILE}",
      GUIDELINES: "",
      EVAL_ID: "x",
      ATTEMPT: "0",
      FILES: [],
      OUTPUT_FILE: "/tmp/o.json",
    }, { os: "linux" }),
    "run '{OUTPUT_FILE}' '/tmp/o.json' {path} ",
  );
  assert.equal(
    renderCommandTemplate("a {PROMPT}", {
      PROMPT: 'say "hi"',
      GUIDELINES: "",
      EVAL_ID: "",
      ATTEMPT: "0",
      FILES: [],
      OUTPUT_FILE: "",
    }, { os: "windows" }),
    'a "say ""hi"""',
  );
});

Deno.test("parseCliOutput follows the original rules, JSON-encoding a non-string text", () => {
  const warnings: string[] = [];
  const onWarning = (m: string) => warnings.push(m);
  assert.deepEqual(parseCliOutput('{"text": {"a": 1}}').output_messages, [
    { role: "assistant", content: '{"a":1}' },
  ]);
  assert.deepEqual(parseCliOutput('{"answer": "x"}').output_messages, [
    { role: "assistant", content: '{"answer": "x"}' },
  ]);
  assert.deepEqual(parseCliOutput("[1, 2]").output_messages, [
    { role: "assistant", content: "[1, 2]" },
  ]);
  const bad = parseCliOutput('{"text": "t", "token_usage": {"input": "many"}}', { onWarning });
  assert.deepEqual(bad.output_messages, [
    { role: "assistant", content: '{"text": "t", "token_usage": {"input": "many"}}' },
  ]);
  const negative = parseCliOutput('{"text": "t", "cost_usd": -1, "duration_ms": 5}', { onWarning });
  assert.deepEqual(negative, {
    output_messages: [{ role: "assistant", content: "t" }],
    duration_ms: 5,
  });
  assert.equal(warnings.length, 2);
  assert.match(warnings[1], /ignoring negative cost_usd value \(-1\)/);
});
