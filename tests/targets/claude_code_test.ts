/**
 * The `claude-code` target against a stand-in `claude` (a shell script replaying a recorded
 * stream): the command line, the prompt on stdin, the environment, and how failures become
 * errors. The real CLI is exercised in claude_code_e2e_test.ts. The stand-in records what it got
 * next to itself, outside its workspace, so it runs without agentv's sandbox
 * (`sandbox: none`; the sandbox is tested in tests/targets/sandbox_*_test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTarget } from "../../lib/targets/registry.ts";
import { TargetError, type TargetRequest } from "../../lib/targets/types.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { UntrustedDatasetError } from "../../lib/run/run_permission.ts";
import { project } from "../_helpers/run_project.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";

const RECORDED = fileURLToPath(
  new URL("../../fixtures/agents/claude/bash_edit_and_failing_step.jsonl", import.meta.url),
);
const API_ERROR = fileURLToPath(
  new URL("../../fixtures/agents/claude/api_error.jsonl", import.meta.url),
);

/**
 * A fake `claude` that records its arguments, environment and stdin in `dir`, prints `stream`
 * (a file), writes `stderr`, and exits with `code`.
 */
async function fakeClaude(dir: string, stream: string, code = 0, stderr = ""): Promise<string> {
  const path = join(dir, "claude");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh
printf '%s\\n' "$@" > '${dir}/args.txt'
env > '${dir}/env.txt'
cat > '${dir}/stdin.txt'
pwd > '${dir}/cwd.txt'
cat '${stream}'
printf '%s' '${stderr}' >&2
exit ${code}
`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

function request(tree: Tree, overrides: Partial<TargetRequest> = {}): TargetRequest {
  const evalCase = { id: "c1", file_paths: [] } as unknown as EvalCase;
  return {
    evalCase,
    prompt: "Fix the bug.",
    messages: [],
    guidelines: "",
    attempt: 0,
    evalDir: tree.dir,
    cwd: join(tree.dir, "ws"),
    signal: new AbortController().signal,
    ...overrides,
  };
}

const ENV = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/tester",
  ANTHROPIC_API_KEY: "sk-ant-SECRET-9911",
  ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
  CLAUDECODE: "1",
  CLAUDE_CODE_ENTRYPOINT: "cli",
  OPENAI_API_KEY: "sk-openai-not-for-claude",
  MY_FLAG: "on",
};

async function lines(path: string): Promise<string[]> {
  return (await Deno.readTextFile(path)).trimEnd().split("\n");
}

Deno.test("claude-code builds its command line from the settings and writes the prompt to stdin in the workspace", async () => {
  await using tree = await tempTree({ "ws/.keep": "" });
  const executable = await fakeClaude(tree.dir, RECORDED);
  const target = createTarget({
    name: "agent",
    provider: "claude-code",
    sandbox: "none",
    executable,
    model: "sonnet",
    system_prompt: "Be careful.",
    max_turns: 7,
    allowed_tools: ["Bash", "Edit"],
    args: ["--permission-mode", "acceptEdits"],
    env: ["MY_FLAG"],
  }, { env: ENV });
  const evalCase = { id: "c1", file_paths: ["docs/spec.md"] } as unknown as EvalCase;
  const response = await target.invoke(request(tree, { evalCase }));
  assert.deepEqual(await lines(join(tree.dir, "args.txt")), [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--model",
    "sonnet",
    "--append-system-prompt",
    "Be careful.",
    "--max-turns",
    "7",
    "--allowedTools",
    "Bash,Edit",
    "--permission-mode",
    "acceptEdits",
  ]);
  assert.equal(
    await Deno.readTextFile(join(tree.dir, "stdin.txt")),
    `Fix the bug.\n\n## Input Files\n[File: ${join(tree.dir, "docs/spec.md")}]\n`,
  );
  assert.equal((await Deno.readTextFile(join(tree.dir, "cwd.txt"))).trim(), join(tree.dir, "ws"));
  assert.ok(response.output_messages.length > 0);
  assert.ok(response.cost_usd !== undefined && response.cost_usd > 0);
});

Deno.test("claude-code passes its own variables and the listed ones, never the nested-session ones or other keys", async () => {
  await using tree = await tempTree({ "ws/.keep": "" });
  const executable = await fakeClaude(tree.dir, RECORDED);
  const target = createTarget(
    { name: "agent", provider: "claude-code", sandbox: "none", executable, env: ["MY_FLAG"] },
    { env: ENV },
  );
  await target.invoke(request(tree));
  const env = Object.fromEntries(
    (await lines(join(tree.dir, "env.txt"))).map((
      l,
    ) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  assert.equal(env.ANTHROPIC_API_KEY, ENV.ANTHROPIC_API_KEY);
  assert.equal(env.ANTHROPIC_BASE_URL, ENV.ANTHROPIC_BASE_URL);
  assert.equal(env.MY_FLAG, "on");
  assert.equal(env.HOME, ENV.HOME);
  for (const absent of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "OPENAI_API_KEY"]) {
    assert.equal(env[absent], undefined, `${absent} reached the agent`);
  }
  // The key Claude Code holds is a secret of the target (redacted from rows and logs).
  assert.ok(target.secrets.includes(ENV.ANTHROPIC_API_KEY));
});

Deno.test("claude-code: an error result fails with the agent's message and keeps the partial trace and the log", async () => {
  await using tree = await tempTree({ "ws/.keep": "" });
  const executable = await fakeClaude(tree.dir, API_ERROR, 1);
  const target = createTarget({
    name: "agent",
    provider: "claude-code",
    sandbox: "none",
    executable,
  }, {
    env: ENV,
  });
  const logPath = join(tree.dir, "logs", "c1.jsonl");
  const error = await target.invoke(request(tree, { logPath })).then(
    () => assert.fail("expected an error"),
    (e) => e,
  );
  assert.ok(error instanceof TargetError);
  const recorded = (await lines(API_ERROR)).map((l) => JSON.parse(l));
  const result = recorded.find((e) => e.type === "result");
  assert.equal(error.message, `Claude Code target 'agent' reported an error: ${result.result}`);
  assert.equal(error.partial?.log_path, logPath);
  assert.equal((await lines(logPath)).length, recorded.length);
});

Deno.test("claude-code: a non-zero exit without a result event fails with the exit code and stderr", async () => {
  await using tree = await tempTree({ "ws/.keep": "", "empty.jsonl": "" });
  const executable = await fakeClaude(
    tree.dir,
    join(tree.dir, "empty.jsonl"),
    3,
    "Invalid API key sk-ant-SECRET-9911",
  );
  const target = createTarget({
    name: "agent",
    provider: "claude-code",
    sandbox: "none",
    executable,
  }, {
    env: ENV,
  });
  await assert.rejects(
    target.invoke(request(tree)),
    (e: Error) =>
      e.message === "Claude Code target 'agent' exited with code 3: Invalid API key ***",
  );
});

Deno.test("claude-code: a clean exit without a final answer is an error", async () => {
  await using tree = await tempTree({ "ws/.keep": "" });
  const recorded = await lines(RECORDED);
  await Deno.writeTextFile(
    join(tree.dir, "cut.jsonl"),
    recorded.filter((l) => JSON.parse(l).type !== "result").join("\n") + "\n",
  );
  const executable = await fakeClaude(tree.dir, join(tree.dir, "cut.jsonl"));
  const target = createTarget({
    name: "agent",
    provider: "claude-code",
    sandbox: "none",
    executable,
  }, {
    env: ENV,
  });
  const error = await target.invoke(request(tree)).then(() => undefined, (e) => e);
  assert.ok(error instanceof TargetError);
  assert.match(error.message, /ended without a final answer/);
  assert.equal(error.partial?.output_messages.flatMap((m) => m.tool_calls ?? []).length, 3);
});

Deno.test("claude-code: a missing executable says how to install Claude Code, in its sandbox or not", async () => {
  await using tree = await tempTree({ "ws/.keep": "" });
  for (const sandbox of bubblewrap.ignore ? ["none"] : ["none", "bubblewrap"]) {
    const target = createTarget({
      name: "agent",
      provider: "claude-code",
      sandbox,
      executable: join(tree.dir, "nope", "claude"),
    }, { env: ENV });
    await assert.rejects(
      target.invoke(request(tree)),
      /could not start: .*npm install -g @anthropic-ai\/claude-code/,
    );
  }
});

Deno.test("claude-code targets are not retried and their timeout_seconds replaces the runner's", () => {
  const plain = createTarget({ name: "a", provider: "claude-code" }, { env: ENV });
  assert.equal(plain.retry.maxRetries, 0);
  assert.equal(plain.timeoutMs, undefined);
  const limited = createTarget(
    { name: "b", provider: "claude-code", timeout_seconds: 30, max_retries: 2 },
    { env: ENV },
  );
  assert.equal(limited.retry.maxRetries, 2);
  assert.ok(limited.timeoutMs !== undefined && limited.timeoutMs > 30_000);
});

Deno.test("a claude-code target in the dataset's own targets file is a command: the run needs trust", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: claude-code
    executable: ./agent.sh
    args: [--permission-mode, acceptEdits]
`,
    "evals/a.yaml":
      "evalcases:\n  - id: c1\n    expected_outcome: x\n    input: hi\n    evaluators: [{type: contains, value: x}]\n",
  });
  const error = await runEval({ files: [join(p.dir, "evals")], cwd: p.dir, env: ENV }).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof UntrustedDatasetError, String(error));
  const [diagnostic] = error.diagnostics;
  assert.equal(diagnostic.file, join(p.dir, ".agentv", "targets.yaml"));
  assert.equal(diagnostic.line, 4);
  assert.equal(
    diagnostic.message,
    `agent target 'default' runs the command: "./agent.sh --permission-mode acceptEdits"`,
  );
});
