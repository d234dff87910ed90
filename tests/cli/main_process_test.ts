/** Real subprocess runs of `main.ts`: exit codes, streams, colours and Ctrl-C. */
import assert from "node:assert/strict";
import { join } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import { REPO_ROOT } from "./_buffer_io.ts";

const FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--unstable-worker-options",
];

function spawn(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...FLAGS, join(REPO_ROOT, "main.ts"), ...args],
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function agentv(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const output = await spawn(args, options).output();
  const text = new TextDecoder();
  return {
    code: output.code,
    stdout: text.decode(output.stdout),
    stderr: text.decode(output.stderr),
  };
}

Deno.test("main.ts --version prints the version and exits 0", async () => {
  const { code, stdout, stderr } = await agentv(["--version"]);
  assert.deepEqual({ code, stdout, stderr }, {
    code: 0,
    stdout: `agentv ${denoJson.version}\n`,
    stderr: "",
  });
});

Deno.test("main.ts validate: exit 1 for invalid files, plain output when stdout is a pipe", async () => {
  const { code, stdout, stderr } = await agentv(["validate", "fixtures/cli/broken"], {
    env: { FORCE_COLOR: "1" },
  });
  assert.equal(code, 1, stderr);
  assert.match(stdout, /^✗ fixtures\/cli\/broken\/evals\/bad_weight\.yaml \(1 case, 1 error\)$/m);
  assert.ok(!stdout.includes("\x1b["), "no ANSI codes on a pipe");
  assert.equal(stderr, "");
});

Deno.test("main.ts: usage errors exit 2 on stderr without a stack trace", async () => {
  const typo = await agentv(["valdate", "fixtures/cli/project"]);
  assert.equal(typo.code, 2);
  assert.equal(typo.stdout, "");
  assert.match(typo.stderr, /^error: Unknown command 'valdate'; did you mean 'validate'\?/);
  const missing = await agentv(["validate", "fixtures/cli/nothing-here"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nothing-here/);
  assert.doesNotMatch(typo.stderr + missing.stderr, /\n\s+at /);
});

/**
 * Whether process `pid` runs a Web Worker thread (Deno names them `worker-<n>`). Read through
 * `sh`: Deno lets only `--allow-all` read another process's /proc entries.
 */
async function runsWorker(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", `cat /proc/${pid}/task/*/comm 2>/dev/null`],
    stdout: "piped",
    stderr: "null",
  }).output();
  return /^worker-/m.test(new TextDecoder().decode(stdout));
}

Deno.test({
  name: "main.ts: the first Ctrl-C stops validation with exit code 130",
  // The marker that validation has started is read from /proc (Linux only).
  ignore: Deno.build.os !== "linux",
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "agentv_sigint_" });
  try {
    await Deno.mkdir(join(tmp, ".agentv"));
    const text = "evalcases:\n" +
      Array.from(
        { length: 200 },
        (_, i) => `  - id: c${i}\n    expected_outcome: Answers ${i}\n    input: Question ${i}\n`,
      ).join("");
    await Promise.all(
      Array.from({ length: 400 }, (_, i) => Deno.writeTextFile(join(tmp, `e${i}.yaml`), text)),
    );
    const child = spawn(["validate", tmp]);
    // Interrupt once validation is under way: its sandbox worker thread has started (so main.ts
    // has installed its SIGINT listener). Checked every 10 ms; a busy machine only makes it later.
    let exited = false;
    child.status.then(() => exited = true);
    while (!exited && !(await runsWorker(child.pid))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGINT");
    const output = await child.output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 130, stderr);
    assert.match(stderr, /Interrupted/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("main.ts is a sandbox's forwarder with its hidden first argument (what a compiled agentv runs inside a sandbox), and nothing else is", async () => {
  const forwarded = await agentv([
    "__agentv_sandbox_forwarder",
    "[]",
    "--",
    "sh",
    "-c",
    "echo in; exit 3",
  ]);
  assert.deepEqual(forwarded, { code: 3, stdout: "in\n", stderr: "" });
  // A name every object has is no hidden mode: it is an unknown command.
  const inherited = await agentv(["constructor"]);
  assert.equal(inherited.code, 2);
  assert.match(inherited.stderr, /unknown command/i);
});

Deno.test("main.ts: no colours off a TTY or with NO_COLOR; exit codes", async () => {
  const spawn = async (args: string[], env: Record<string, string> = {}) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-worker-options", join(REPO_ROOT, "main.ts"), ...args],
      cwd: REPO_ROOT,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return {
      code: output.code,
      all: text.decode(output.stdout) + text.decode(output.stderr),
    };
  };
  const broken = await spawn(
    ["validate", "fixtures/cli/project", "fixtures/cli/broken/evals/bad_weight.yaml"],
    { NO_COLOR: "1", FORCE_COLOR: "1" },
  );
  assert.equal(broken.code, 1);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(broken.all, /\x1b\[/);
  assert.match(broken.all, /bad_weight\.yaml:8:17: error: .*weight must be >= 0/);
  assert.match(broken.all, /1 of 5 files invalid \(1 error, 0 warnings\)/);
  const usage = await spawn(["validate", "--nope"]);
  assert.equal(usage.code, 2);
});
