/**
 * The `codex` target with a stand-in `codex` executable (a shell script that records how it was
 * started and prints a recorded stream), for what the real CLI cannot be made to do on demand:
 * exact arguments, stdin and environment, a crash, a stream without an answer, a missing binary.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTarget } from "../../lib/targets/registry.ts";
import { TargetError } from "../../lib/targets/types.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { makeRequest } from "./_request.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/agents/codex/", import.meta.url));
const KEY = "sk-codex-stub-SECRET-42";

/** Records argv, stdin, cwd and environment, prints `$STUB_STREAM`, then exits `$STUB_EXIT`. */
const STUB = `#!/bin/sh
out="$STUB_OUT"
printf '%s\\n' "$@" > "$out/args.txt"
cat > "$out/stdin.txt"
pwd > "$out/cwd.txt"
env | sort > "$out/env.txt"
echo "starting codex (not JSON)"
[ -n "$STUB_STREAM" ] && cat "$STUB_STREAM"
echo "{\\"type\\":\\"item.completed\\",\\"item\\":{\\"id\\":\\"x\\",\\"type\\":\\"reasoning\\",\\"text\\":\\"key $MOCK_KEY\\"}}"
echo "something went wrong on stderr" >&2
exit "\${STUB_EXIT:-0}"
`;

async function stubTree(): Promise<Tree> {
  const tree = await tempTree({ "bin/codex": STUB, "workspace/.keep": "" }, {
    prefix: "agentv-codex-stub-",
  });
  await Deno.chmod(tree.path("bin/codex"), 0o755);
  return tree;
}

function stubTarget(tree: Tree, settings: Record<string, unknown>, env: Record<string, string>) {
  return createTarget({
    name: "agent",
    provider: "codex",
    // The stub records what it got outside its workspace: no sandbox (tested elsewhere).
    sandbox: "none",
    executable: tree.path("bin/codex"),
    env: ["STUB_OUT", "STUB_STREAM", "STUB_EXIT", "MOCK_KEY"],
    ...settings,
  }, {
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      STUB_OUT: tree.root,
      OPENAI_API_KEY: "sk-codex-own-variable",
      ANTHROPIC_API_KEY: "sk-not-listed",
      MOCK_KEY: KEY,
      ...env,
    },
  });
}

Deno.test("codex target starts `codex exec --json --skip-git-repo-check -m M [args] -` in the workspace, prompt on stdin after the system prompt, with its own and the listed variables only", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {
    model: "o4-mini",
    args: ["--sandbox", "workspace-write", "-c", 'model_provider="mock"'],
    system_prompt: "Work carefully.",
  }, { STUB_STREAM: join(FIXTURES, "failing_step.jsonl") });
  await target.invoke(makeRequest({ prompt: "Fix the bug.", cwd: tree.path("workspace") }));
  const args = (await Deno.readTextFile(tree.path("args.txt"))).trimEnd().split("\n");
  assert.deepEqual(args, [
    "exec",
    "--json",
    "--skip-git-repo-check",
    "-m",
    "o4-mini",
    "--sandbox",
    "workspace-write",
    "-c",
    'model_provider="mock"',
    "-",
  ]);
  assert.equal(await Deno.readTextFile(tree.path("stdin.txt")), "Work carefully.\n\nFix the bug.");
  assert.equal((await Deno.readTextFile(tree.path("cwd.txt"))).trim(), tree.path("workspace"));
  const env = await Deno.readTextFile(tree.path("env.txt"));
  assert.match(env, new RegExp(`^MOCK_KEY=${KEY}$`, "m"));
  assert.match(env, /^OPENAI_API_KEY=sk-codex-own-variable$/m, "Codex's own key is passed on");
  assert.doesNotMatch(env, /ANTHROPIC_API_KEY/);
});

Deno.test("codex target: the secret-named variables it passes on join the run's secrets, as for every agent target", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {}, {});
  // The run redacts these from everything it writes (rows, logs, reports).
  assert.ok(target.secrets.includes("sk-codex-own-variable"), String(target.secrets));
  assert.ok(target.secrets.includes(KEY), String(target.secrets));
  assert.ok(!target.secrets.includes("sk-not-listed"));
});

Deno.test("codex target returns the parsed trace and usage, prices it, and logs every line redacted", async () => {
  await using tree = await stubTree();
  const pricing = { input_per_mtok: 3, output_per_mtok: 15 };
  const target = stubTarget(tree, { pricing }, {
    STUB_STREAM: join(FIXTURES, "shell_and_edit.jsonl"),
  });
  const logPath = tree.path("logs/run-1/case-1.jsonl");
  const response = await target.invoke(
    makeRequest({ cwd: tree.path("workspace"), logPath }),
  );
  const calls = response.output_messages.flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(calls.map((c) => [c.tool, c.status]), [
    ["command_execution", "ok"],
    ["file_change", "ok"],
  ]);
  assert.equal(response.output_messages.at(-1)?.content, "Updated greeting.txt (saw 1 output).");
  // turn.completed of the recording: 3900 input, 125 output, 2400 cached.
  assert.deepEqual(response.token_usage, { input: 3900, output: 125, cached: 2400 });
  assert.equal(response.cost_usd, (3900 * 3 + 125 * 15) / 1e6);
  assert.equal(response.log_path, logPath);

  const recorded = (await Deno.readTextFile(join(FIXTURES, "shell_and_edit.jsonl")))
    .split("\n").filter((l) => l !== "");
  const log = (await Deno.readTextFile(logPath)).split("\n").filter((l) => l !== "");
  for (const line of recorded) assert.ok(log.includes(line), `log misses ${line}`);
  assert.ok(log.some((l) => l.includes("starting codex (not JSON)")), "non-JSON lines are kept");
  assert.ok(log.every((l) => JSON.parse(l) !== undefined), "the log stays JSONL");
  assert.ok(!log.join("\n").includes(KEY), "the key passed through env is redacted");
});

Deno.test("codex target: an agent error fails the case with the agent's message and keeps the trace so far", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {}, {
    STUB_STREAM: join(FIXTURES, "http_error.jsonl"),
    STUB_EXIT: "1",
  });
  const error = await target.invoke(makeRequest({ cwd: tree.path("workspace") })).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof TargetError);
  assert.equal(
    error.message,
    "Codex target 'agent' reported an error: The model `nope` does not exist",
  );
  assert.equal(error.retryable, false);
  assert.ok(error.partial !== undefined, "the trace so far travels with the error");
});

Deno.test("codex target: a crash without an error event names the exit code and stderr", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {}, { STUB_EXIT: "3" });
  await assert.rejects(
    () => target.invoke(makeRequest({ cwd: tree.path("workspace") })),
    (e: Error) => {
      assert.match(e.message, /^Codex target 'agent' exited with code 3: something went wrong/);
      return true;
    },
  );
});

Deno.test("codex target: a run that ends without an agent message is an error", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, {}, {});
  await assert.rejects(
    () => target.invoke(makeRequest({ cwd: tree.path("workspace") })),
    /Codex target 'agent' ended without a final answer/,
  );
});

Deno.test("codex target: a missing executable is reported with how to install it", async () => {
  await using tree = await stubTree();
  const target = stubTarget(tree, { executable: tree.path("bin/no-such-codex") }, {});
  await assert.rejects(
    () => target.invoke(makeRequest({ cwd: tree.path("workspace") })),
    /could not start: .*no-such-codex' was not found .*npm install -g @openai\/codex/,
  );
});
