/**
 * The `pi` target with a stand-in executable (a shell script that records how it was started and
 * the configuration folder it was given, then prints a recorded stream of the real pi), for what
 * the real CLI cannot be made to do on demand: exact arguments, stdin and environment, a crash, a
 * missing binary. The real pi runs in tests/targets/pi_e2e_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { checkTargetDefinition } from "../../lib/dataset/targets_check.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { TargetError } from "../../lib/targets/types.ts";
import { agentModelEndpoint } from "../../lib/targets/agent_endpoints.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { makeRequest } from "./_request.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/agents/pi/", import.meta.url));
const KEY = "sk-pi-stub-SECRET-42";

/**
 * Records argv, stdin, cwd, environment and pi's configuration folder (its path and files), prints
 * `$STUB_STREAM`, then exits `$STUB_EXIT`.
 */
const STUB = `#!/bin/sh
out="$STUB_OUT"
printf '%s\\n' "$@" > "$out/args.txt"
cat > "$out/stdin.txt"
pwd > "$out/cwd.txt"
env | sort > "$out/env.txt"
ls -A "$PI_CODING_AGENT_DIR" > "$out/config_files.txt"
cp "$PI_CODING_AGENT_DIR/models.json" "$out/models.json" 2>/dev/null
echo "warming up (not JSON)"
[ -n "$STUB_STREAM" ] && cat "$STUB_STREAM"
echo "stub said $MOCK_KEY on stderr" >&2
exit "\${STUB_EXIT:-0}"
`;

async function stubTree(): Promise<Tree> {
  const tree = await tempTree({ "bin/pi": STUB, "workspace/.keep": "", "tmp/.keep": "" }, {
    prefix: "agentv-pi-stub-",
  });
  await Deno.chmod(tree.path("bin/pi"), 0o755);
  return tree;
}

function stubTarget(tree: Tree, settings: Record<string, unknown>, env: Record<string, string>) {
  return createTarget({
    name: "agent",
    provider: "pi",
    executable: tree.path("bin/pi"),
    env: ["STUB_OUT", "STUB_STREAM", "STUB_EXIT", "MOCK_KEY"],
    // The stub records what it got outside its workspace: no sandbox (pi in its sandbox runs in
    // pi_e2e_test.ts and sandbox_escape_agents_e2e_test.ts).
    sandbox: "none",
    ...settings,
  }, {
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      TMPDIR: tree.path("tmp"),
      STUB_OUT: tree.root,
      ANTHROPIC_API_KEY: "sk-not-listed",
      OPENAI_API_KEY: "sk-own-variable",
      PI_CODING_AGENT_DIR: "/home/someone/.pi/agent",
      MOCK_KEY: KEY,
      ...env,
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<TargetError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof TargetError, String(error));
  return error;
}

const lines = async (path: string) => (await Deno.readTextFile(path)).trimEnd().split("\n");

Deno.test("pi target starts pi in the workspace with its arguments, the prompt on stdin, its own and the listed variables only, offline, and base_url in the models.json of a private configuration folder removed afterwards", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {
    model: "pi-mock",
    system_prompt: "Work carefully.",
    args: ["--no-skills", "--thinking", "off"],
    base_url: "http://127.0.0.1:9/v1",
  }, { STUB_STREAM: join(FIXTURES, "shell_edit_and_failing_step.jsonl") });
  await target.invoke(makeRequest({ prompt: "Fix the bug.", cwd: tree.path("workspace") }));
  assert.deepEqual(await lines(tree.path("args.txt")), [
    "--mode",
    "json",
    "-p",
    "--no-session",
    "--provider",
    "agentv",
    "--model",
    "pi-mock",
    "--append-system-prompt",
    "Work carefully.",
    "--no-skills",
    "--thinking",
    "off",
  ]);
  assert.equal(await Deno.readTextFile(tree.path("stdin.txt")), "Fix the bug.");
  assert.equal((await Deno.readTextFile(tree.path("cwd.txt"))).trim(), tree.path("workspace"));
  const env = await lines(tree.path("env.txt"));
  for (const line of [`MOCK_KEY=${KEY}`, "OPENAI_API_KEY=sk-own-variable", "PI_OFFLINE=1"]) {
    assert.ok(env.includes(line), line);
  }
  assert.ok(env.includes("PI_TELEMETRY=0"));
  assert.ok(!env.some((l) => l.startsWith("ANTHROPIC_API_KEY=")));
  // The user's own configuration folder is replaced by a private one in the agent's TMPDIR.
  const dir = env.find((l) => l.startsWith("PI_CODING_AGENT_DIR="))!.split("=")[1]!;
  assert.match(dir, new RegExp(`^${tree.path("tmp")}/agentv-pi-`));
  assert.deepEqual(await lines(tree.path("config_files.txt")), ["models.json"]);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(tree.path("models.json"))), {
    providers: {
      agentv: {
        baseUrl: "http://127.0.0.1:9/v1",
        api: "openai-completions",
        apiKey: "OPENAI_API_KEY", // the name: the key itself is never written
        models: [{ id: "pi-mock" }],
      },
    },
  });
  await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
});

Deno.test("pi target without base_url: an empty private configuration folder, pi's own provider from the model, and the variables a target lists", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, { model: "anthropic/claude-sonnet-4-5", env: ["STUB_OUT"] }, {
    PI_OFFLINE: "0",
  });
  await target.invoke(makeRequest({ cwd: tree.path("workspace") })).catch(() => {});
  assert.deepEqual(await lines(tree.path("args.txt")), [
    "--mode",
    "json",
    "-p",
    "--no-session",
    "--model",
    "anthropic/claude-sonnet-4-5",
  ]);
  assert.deepEqual(await lines(tree.path("config_files.txt")), [""]);
  const env = await lines(tree.path("env.txt"));
  assert.ok(env.includes("PI_OFFLINE=0"), "a PI_OFFLINE given is kept");
  assert.ok(!env.some((l) => l.startsWith("MOCK_KEY=")), "MOCK_KEY is not listed");
  assert.equal(
    agentModelEndpoint(
      "pi",
      { name: "p", provider: "pi", model: "anthropic/claude-sonnet-4-5" },
      {},
    ),
    undefined,
  );
  assert.equal(
    agentModelEndpoint("pi", { name: "p", provider: "pi", model: "openai/gpt-5" }, {}),
    "https://api.openai.com/v1",
  );
});

Deno.test("pi target with base_url but no model is a target configuration error", async () => {
  await using tree = await stubTree();
  assert.throws(
    () => stubTarget(tree, { base_url: "http://127.0.0.1:9/v1" }, {}),
    (e: Error) => /Target 'agent' sets base_url but no model/.test(e.message),
  );
});

Deno.test("pi target returns the parsed trace and usage, and logs every line redacted", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, { pricing: { input_per_mtok: 3, output_per_mtok: 15 } }, {
    STUB_STREAM: join(FIXTURES, "shell_edit_and_failing_step.jsonl"),
  });
  const logPath = tree.path("logs/run-1/case-1.jsonl");
  const response = await target.invoke(makeRequest({ cwd: tree.path("workspace"), logPath }));
  const calls = response.output_messages.flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(calls.map((c) => [c.tool, c.status]), [
    ["bash", "ok"],
    ["read", "ok"],
    ["edit", "ok"],
    ["bash", "error"],
  ]);
  assert.ok(calls.every((c) => typeof c.duration_ms === "number"), "every call is timed");
  assert.equal(response.output_messages.at(-1)?.content, "Updated greeting.txt.");
  const usage = { input: 4000, output: 145, cached: 2400 };
  assert.deepEqual(response.token_usage, usage);
  assert.equal(response.cost_usd, (usage.input * 3 + usage.output * 15) / 1e6);
  assert.equal(response.turns, 4);
  const log = await Deno.readTextFile(logPath);
  assert.match(log, /"type":"agent_end"/);
  assert.match(log, /warming up \(not JSON\)/);
  assert.ok(!log.includes(KEY), "the key passed through env is redacted");
});

Deno.test("pi target: the agent's API error (exit 0) fails the case with its message and the trace so far", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {}, { STUB_STREAM: join(FIXTURES, "api_error.jsonl") });
  const error = await failure(target.invoke(makeRequest({ cwd: tree.path("workspace") })));
  assert.equal(
    error.message,
    "pi target 'agent' reported an error: 400 Model pi-mock is not served by this gateway",
  );
  assert.equal(error.retryable, false);
  assert.ok(error.partial !== undefined, "the trace so far travels with the error");
});

Deno.test("pi target: a crash without a stream names the exit code and the redacted stderr; a missing executable says how to install pi", async () => {
  await using tree = await stubTree();
  const crashed = await failure(
    stubTarget(tree, {}, { STUB_EXIT: "41" }).invoke(
      makeRequest({ cwd: tree.path("workspace") }),
    ),
  );
  assert.match(crashed.message, /^pi target 'agent' exited with code 41: /);
  assert.match(crashed.message, /stub said \*+/);
  const missing = await failure(
    stubTarget(tree, { executable: tree.path("bin/no-such-agent") }, {}).invoke(
      makeRequest({ cwd: tree.path("workspace") }),
    ),
  );
  assert.match(missing.message, /could not start: .*no-such-agent' was not found/);
  assert.match(missing.message, /npm install -g @mariozechner\/pi-coding-agent/);
  // Nothing is left in the agent's TMPDIR.
  assert.deepEqual([...Deno.readDirSync(tree.path("tmp"))].map((e) => e.name), [".keep"]);
});

Deno.test("the docs' pi example is a valid target that starts what the docs say", async () => {
  const page = await Deno.readTextFile(new URL("../../docs/targets/pi.md", import.meta.url));
  const [example] = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .flatMap((m) => parse(m[1]!) as Record<string, unknown>[]);
  assert.equal(example?.provider, "pi");
  assert.deepEqual(checkTargetDefinition(example!).issues, []);
  const target = createTarget(example as { name: string; provider: string }, {
    env: { OPENAI_API_KEY: "k" },
  });
  const [need] = (target.needs ?? []).map((n) => n.need);
  assert.equal(need?.kind, "agent_target");
  assert.deepEqual(need?.argv, [
    "pi",
    ...["--mode", "json", "-p", "--no-session", "--provider", "agentv"],
    ...["--model", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "--no-skills", "--no-context-files"],
  ]);
});
