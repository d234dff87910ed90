/**
 * The `gemini-cli`, `qwen-code`, `copilot-cli` and `opencode` targets with a stand-in executable (a shell script that records
 * how it was started and prints a recorded stream of the real CLI), for what the real CLIs cannot
 * be made to do on demand: exact arguments, stdin and environment, a crash, a missing binary.
 * The real CLIs run in tests/targets/*_e2e_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { checkTargetDefinition } from "../../lib/dataset/targets_check.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { TargetError } from "../../lib/targets/types.ts";
import { agentModelEndpoint } from "../../lib/targets/agent_endpoints.ts";
import { opencodeEnv } from "../../lib/targets/opencode.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { makeRequest } from "./_request.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/agents/", import.meta.url));
const TARGET_DOCS = fileURLToPath(new URL("../../docs/targets/", import.meta.url));
const KEY = "sk-agent-stub-SECRET-42";

/** Records argv, stdin, cwd and environment, prints `$STUB_STREAM`, then exits `$STUB_EXIT`. */
const STUB = `#!/bin/sh
out="$STUB_OUT"
printf '%s\\n' "$@" > "$out/args.txt"
cat > "$out/stdin.txt"
pwd > "$out/cwd.txt"
env | sort > "$out/env.txt"
echo "warming up (not JSON)"
[ -n "$STUB_STREAM" ] && cat "$STUB_STREAM"
echo "stub said $MOCK_KEY on stderr" >&2
exit "\${STUB_EXIT:-0}"
`;

interface Kind {
  provider: "gemini-cli" | "qwen-code" | "copilot-cli" | "opencode";
  label: string;
  stream: string;
  errorStream: string;
  /** The agent's own variables in the environment the test gives agentv. */
  own: Record<string, string>;
  /** The variable `base_url` becomes. */
  baseUrlVariable: string;
  /** Its value for `base_url: http://127.0.0.1:9/v1` (default that URL). */
  baseUrlValue?: string;
  install: RegExp;
  expectedArgs: string[];
  expectedStdin: string;
  agentError: string;
  /** The usage the recorded stream reports (none from Copilot CLI). */
  usage?: { input: number; output: number; cached: number };
}

/** Both Gemini CLI and Qwen Code recordings report the scripted usage. */
const RECORDED_USAGE = { input: 4000, output: 145, cached: 2400 };

const KINDS: Kind[] = [{
  provider: "gemini-cli",
  label: "Gemini CLI",
  stream: "gemini/shell_edit_and_failing_steps.jsonl",
  errorStream: "gemini/api_error.jsonl",
  own: { GEMINI_API_KEY: "gk-own-variable", GOOGLE_CLOUD_PROJECT: "p-1" },
  baseUrlVariable: "GOOGLE_GEMINI_BASE_URL",
  install: /npm install -g @google\/gemini-cli/,
  // The system prompt goes to stdin: Gemini CLI has no flag that appends to its own.
  expectedArgs: [
    "--output-format",
    "stream-json",
    "-m",
    "mock/m-1",
    "--skip-trust",
    "--approval-mode",
    "yolo",
  ],
  expectedStdin: "Work carefully.\n\nFix the bug.",
  agentError: "Model gemini-mock is not served by this gateway",
  usage: RECORDED_USAGE,
}, {
  provider: "qwen-code",
  label: "Qwen Code",
  stream: "qwen/shell_edit_and_failing_step.jsonl",
  errorStream: "qwen/api_error.jsonl",
  own: { OPENAI_API_KEY: "sk-own-variable", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" },
  baseUrlVariable: "OPENAI_BASE_URL",
  install: /npm install -g @qwen-code\/qwen-code/,
  expectedArgs: [
    "--output-format",
    "stream-json",
    "-m",
    "mock/m-1",
    "--append-system-prompt",
    "Work carefully.",
    "--skip-trust",
    "--approval-mode",
    "yolo",
  ],
  expectedStdin: "Fix the bug.",
  agentError: "[API Error: 400 Model qwen-mock is not served by this gateway]",
  usage: RECORDED_USAGE,
}, {
  provider: "copilot-cli",
  label: "Copilot CLI",
  stream: "copilot/shell_edit_and_failing_steps.jsonl",
  errorStream: "copilot/api_error.jsonl",
  own: { COPILOT_PROVIDER_API_KEY: "sk-own-variable", COPILOT_OFFLINE: "true" },
  baseUrlVariable: "COPILOT_PROVIDER_BASE_URL",
  install: /npm install -g @github\/copilot/,
  expectedArgs: [
    "--output-format",
    "json",
    "--model",
    "mock/m-1",
    "--skip-trust",
    "--approval-mode",
    "yolo",
  ],
  expectedStdin: "Work carefully.\n\nFix the bug.",
  agentError: "400 Model copilot-mock is not served by this gateway",
}, {
  provider: "opencode",
  label: "opencode",
  stream: "opencode/shell_edit_and_failing_steps.jsonl",
  errorStream: "opencode/api_error.jsonl",
  own: { OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1" },
  baseUrlVariable: "OPENCODE_CONFIG_CONTENT",
  baseUrlValue: '{"provider":{"mock":{"options":{"baseURL":"http://127.0.0.1:9/v1"}}}}',
  install: /npm install -g opencode-ai/,
  expectedArgs: [
    "run",
    "--format",
    "json",
    "-m",
    "mock/m-1",
    "--skip-trust",
    "--approval-mode",
    "yolo",
  ],
  expectedStdin: "Work carefully.\n\nFix the bug.",
  agentError: "Model opencode-mock is not served by this gateway",
  usage: RECORDED_USAGE,
}];

async function stubTree(): Promise<Tree> {
  const tree = await tempTree({ "bin/agent": STUB, "workspace/.keep": "" }, {
    prefix: "agentv-agent-stub-",
  });
  await Deno.chmod(tree.path("bin/agent"), 0o755);
  return tree;
}

function stubTarget(
  kind: Kind,
  tree: Tree,
  settings: Record<string, unknown>,
  env: Record<string, string>,
) {
  return createTarget({
    name: "agent",
    provider: kind.provider,
    executable: tree.path("bin/agent"),
    env: ["STUB_OUT", "STUB_STREAM", "STUB_EXIT", "MOCK_KEY"],
    // The stub records what it got outside its workspace: no sandbox (tested in
    // sandbox_agent_state_process_test.ts and sandbox_escape_agents_e2e_test.ts).
    sandbox: "none",
    ...settings,
  }, {
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      STUB_OUT: tree.root,
      ANTHROPIC_API_KEY: "sk-not-listed",
      MOCK_KEY: KEY,
      ...kind.own,
      ...env,
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<TargetError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof TargetError, String(error));
  return error;
}

for (const kind of KINDS) {
  Deno.test(`${kind.provider} target starts its CLI in the workspace with its arguments, the prompt on stdin, its own and the listed variables only, and base_url as ${kind.baseUrlVariable}`, async () => {
    await using tree = await stubTree();
    const target = stubTarget(kind, tree, {
      model: "mock/m-1",
      system_prompt: "Work carefully.",
      args: ["--skip-trust", "--approval-mode", "yolo"],
      base_url: "http://127.0.0.1:9/v1",
    }, { STUB_STREAM: join(FIXTURES, kind.stream) });
    await target.invoke(makeRequest({ prompt: "Fix the bug.", cwd: tree.path("workspace") }));
    const args = (await Deno.readTextFile(tree.path("args.txt"))).trimEnd().split("\n");
    assert.deepEqual(args, kind.expectedArgs);
    assert.equal(await Deno.readTextFile(tree.path("stdin.txt")), kind.expectedStdin);
    assert.equal((await Deno.readTextFile(tree.path("cwd.txt"))).trim(), tree.path("workspace"));
    const env = await Deno.readTextFile(tree.path("env.txt"));
    assert.match(env, new RegExp(`^MOCK_KEY=${KEY}$`, "m"));
    for (const [name, value] of Object.entries(kind.own)) {
      assert.match(env, new RegExp(`^${name}=${value}$`, "m"), `${name} is passed on`);
    }
    const baseUrl = kind.baseUrlValue ?? "http://127.0.0.1:9/v1";
    assert.ok(env.split("\n").includes(`${kind.baseUrlVariable}=${baseUrl}`), env);
    assert.doesNotMatch(env, /ANTHROPIC_API_KEY/);
  });

  Deno.test(`${kind.provider} target returns the parsed trace and usage, and logs every line redacted`, async () => {
    await using tree = await stubTree();
    const target = stubTarget(kind, tree, { pricing: { input_per_mtok: 3, output_per_mtok: 15 } }, {
      STUB_STREAM: join(FIXTURES, kind.stream),
    });
    const logPath = tree.path("logs/run-1/case-1.jsonl");
    const response = await target.invoke(makeRequest({ cwd: tree.path("workspace"), logPath }));
    const calls = response.output_messages.flatMap((m) => m.tool_calls ?? []);
    assert.equal(calls.length, 4);
    assert.ok(calls.every((c) => typeof c.duration_ms === "number"), "every call is timed");
    assert.equal(response.output_messages.at(-1)?.content, "Updated greeting.txt.");
    assert.deepEqual(response.token_usage, kind.usage);
    assert.equal(
      response.cost_usd,
      kind.usage && (kind.usage.input * 3 + kind.usage.output * 15) / 1e6,
    );
    assert.ok(typeof response.duration_ms === "number");
    const recorded = (await Deno.readTextFile(join(FIXTURES, kind.stream))).split("\n")
      .filter((l) => l !== "");
    const log = (await Deno.readTextFile(logPath)).split("\n").filter((l) => l !== "");
    for (const line of recorded) assert.ok(log.includes(line), `log misses ${line.slice(0, 80)}`);
    assert.ok(log.some((l) => l.includes("warming up (not JSON)")), "non-JSON lines are kept");
    assert.ok(log.some((l) => l.includes('"agentv.stderr"')), "stderr lines are kept");
    assert.ok(!log.join("\n").includes(KEY), "the key passed through env is redacted");
  });

  Deno.test(`${kind.provider} target: the agent's API error fails the case with its message and the trace so far`, async () => {
    await using tree = await stubTree();
    const target = stubTarget(kind, tree, {}, {
      STUB_STREAM: join(FIXTURES, kind.errorStream),
      STUB_EXIT: "1",
    });
    const error = await failure(target.invoke(makeRequest({ cwd: tree.path("workspace") })));
    assert.equal(
      error.message,
      `${kind.label} target 'agent' reported an error: ${kind.agentError}`,
    );
    assert.equal(error.retryable, false);
    assert.ok(error.partial !== undefined, "the trace so far travels with the error");
  });

  Deno.test(`${kind.provider} target: a crash without a stream names the exit code and the redacted stderr`, async () => {
    await using tree = await stubTree();
    const target = stubTarget(kind, tree, {}, { STUB_EXIT: "41" });
    const error = await failure(target.invoke(makeRequest({ cwd: tree.path("workspace") })));
    assert.match(error.message, new RegExp(`^${kind.label} target 'agent' exited with code 41: `));
    assert.match(error.message, /stub said \*+/);
    assert.ok(!error.message.includes(KEY));
  });

  Deno.test(`${kind.provider} target: a missing executable is reported with how to install it, in its sandbox or not`, async () => {
    await using tree = await stubTree();
    for (const sandbox of bubblewrap.ignore ? ["none"] : ["none", "bubblewrap"]) {
      const target = stubTarget(kind, tree, {
        executable: tree.path("bin/no-such-agent"),
        sandbox,
      }, {});
      const error = await failure(target.invoke(makeRequest({ cwd: tree.path("workspace") })));
      assert.match(error.message, /could not start: .*no-such-agent' was not found/, sandbox);
      assert.match(error.message, kind.install, sandbox);
    }
  });
}

Deno.test("the model endpoint of each new agent kind: base_url, else the variable the CLI reads, else the provider's default", () => {
  const cases = [
    ["gemini-cli", "GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com"],
    ["qwen-code", "OPENAI_BASE_URL", "https://api.openai.com/v1"],
    ["copilot-cli", "COPILOT_PROVIDER_BASE_URL", "https://api.githubcopilot.com"],
  ] as const;
  for (const [kind, variable, fallback] of cases) {
    const settings = { name: "a", provider: kind };
    const fromEnv = { [variable]: "http://127.0.0.1:2/v1" };
    const withBase = { ...settings, base_url: "http://127.0.0.1:1/v1" };
    assert.equal(agentModelEndpoint(kind, withBase, fromEnv), "http://127.0.0.1:1/v1", kind);
    assert.equal(agentModelEndpoint(kind, settings, fromEnv), "http://127.0.0.1:2/v1", kind);
    assert.equal(agentModelEndpoint(kind, settings, {}), fallback, kind);
  }
  // opencode's built-in providers that agentv knows call their public endpoints.
  const opencode = { name: "o", provider: "opencode", model: "anthropic/claude-sonnet-4-5" };
  assert.equal(agentModelEndpoint("opencode", opencode, {}), "https://api.anthropic.com/v1");
  // Agents whose endpoint agentv cannot tell from here.
  const other = { ...opencode, model: "my-gateway/some-model" };
  assert.equal(agentModelEndpoint("opencode", other, {}), undefined);
  assert.equal(
    agentModelEndpoint("claude-code", { name: "c", provider: "claude-code" }, {}),
    undefined,
  );
});

/** The executable and the start of the arguments each new agent kind starts by default. */
const EXECUTABLES = {
  "gemini-cli": ["gemini", "--output-format", "stream-json"],
  "qwen-code": ["qwen", "--output-format", "stream-json"],
  "copilot-cli": ["copilot", "--output-format", "json"],
  opencode: ["opencode", "run", "--format", "json"],
} as const;

Deno.test("the docs' gemini-cli, qwen-code, copilot-cli and opencode examples are valid targets that start what the docs say", async () => {
  const pages = await Promise.all(
    Object.keys(EXECUTABLES).map((kind) => Deno.readTextFile(`${TARGET_DOCS}${kind}.md`)),
  );
  const blocks = pages.flatMap((page) => [...page.matchAll(/```yaml\n([\s\S]*?)```/g)])
    .map((m) => m[1]!)
    .filter((b) => /provider: (gemini-cli|qwen-code|copilot-cli|opencode)$/m.test(b));
  const examples = blocks.flatMap((b) => parse(b) as Record<string, unknown>[])
    .filter((t) => Object.hasOwn(EXECUTABLES, String(t.provider)));
  assert.deepEqual(examples.map((t) => t.provider).sort(), Object.keys(EXECUTABLES).sort());
  for (const example of examples) {
    assert.deepEqual(checkTargetDefinition(example).issues, [], JSON.stringify(example));
    const target = createTarget(example as { name: string; provider: string }, {
      env: { OPENAI_API_KEY: "k", GEMINI_API_KEY: "k", COPILOT_GITHUB_TOKEN: "k" },
    });
    const [need] = (target.needs ?? []).map((n) => n.need);
    assert.equal(need?.kind, "agent_target");
    const start = EXECUTABLES[example.provider as keyof typeof EXECUTABLES];
    assert.deepEqual(need?.argv?.slice(0, start.length), start);
    const args = (example.args ?? []) as string[];
    assert.deepEqual(need?.argv?.slice(need.argv.length - args.length), args);
  }
});

Deno.test("opencode's base_url is merged into the OPENCODE_CONFIG_CONTENT given, as the model's provider's baseURL; without a provider in the model it is a config error", () => {
  const given = JSON.stringify({
    provider: { local: { npm: "@ai-sdk/openai-compatible", options: { apiKey: "{env:K}" } } },
    share: "disabled",
  });
  const target = { name: "o", provider: "opencode", model: "local/qwen3" } as const;
  const env = { OPENCODE_CONFIG_CONTENT: given };
  const url = "http://127.0.0.1:7/v1";
  assert.equal(agentModelEndpoint("opencode", target, env), undefined);
  assert.equal(agentModelEndpoint("opencode", { ...target, base_url: url }, env), url);
  const merged = JSON.parse(
    opencodeEnv(env, { ...target, base_url: url }).OPENCODE_CONFIG_CONTENT!,
  );
  assert.deepEqual(merged, {
    provider: {
      local: { npm: "@ai-sdk/openai-compatible", options: { apiKey: "{env:K}", baseURL: url } },
    },
    share: "disabled",
  });
  assert.throws(
    () => createTarget({ name: "o", provider: "opencode", model: "qwen3", base_url: url }, { env }),
    (e: Error) => /model 'qwen3' names no provider/.test(e.message),
  );
  assert.throws(
    () => createTarget({ ...target, base_url: url }, { env: { OPENCODE_CONFIG_CONTENT: "[1" } }),
    /OPENCODE_CONFIG_CONTENT is not a JSON object/,
  );
});
