/**
 * Project infrastructure, as processes: the compile task's permission flags are enough for the CLI,
 * the public API's docs lint clean, `.ci/run` is sound. (Publishing is tests/project/
 * jsr_publish_test.ts, in its own tier.)
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };
import { COMMANDS } from "../../lib/cli/commands.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function deno(
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return {
    code: output.code,
    stdout: text.decode(output.stdout),
    stderr: text.decode(output.stderr),
  };
}

/** The runtime flags (permissions, unstable features) of a `deno compile` task. */
function runtimeFlags(task: string): string[] {
  return task.split(/\s+/).filter((arg) =>
    /^--(allow|deny)-[a-z-]+(=.*)?$/.test(arg) || /^--unstable-[a-z-]+$/.test(arg) ||
    arg === "--no-prompt"
  );
}

Deno.test("main.ts validates fixtures with exactly the compile task's permission flags", async () => {
  const tasks = denoJson.tasks as Record<string, string>;
  const flags = runtimeFlags(tasks["compile:linux-x64"]);
  assert.ok(flags.includes("--unstable-worker-options"), flags.join(" "));
  for (const name of Object.keys(tasks).filter((n) => n.startsWith("compile:"))) {
    assert.deepEqual(runtimeFlags(tasks[name]), flags, `${name} grants the same permissions`);
    assert.match(
      tasks[name],
      /--include lib\/dataset\/load_worker\.ts/,
      `${name} bundles the worker`,
    );
    assert.match(
      tasks[name],
      /--include lib\/scoring\/module_judge_worker\.ts/,
      `${name} bundles the module judge worker`,
    );
    // The registry imports command modules by computed specifiers, which compile cannot see.
    for (const command of COMMANDS) {
      const path = `lib/cli/${command.module.replace(/^\.\//, "")}`;
      assert.ok(tasks[name].split(/\s+/).includes(path), `${name} must --include ${path}`);
    }
  }
  const valid = await deno(["run", ...flags, "main.ts", "validate", "fixtures/cli/project"]);
  assert.equal(valid.code, 0, valid.stderr + valid.stdout);
  assert.match(valid.stdout, /✓ fixtures\/cli\/project\/evals\/geography\.yaml \(2 cases\)/);
  const invalid = await deno(["run", ...flags, "main.ts", "validate", "fixtures/cli/broken"]);
  assert.equal(invalid.code, 1, invalid.stderr + invalid.stdout);
  assert.match(invalid.stdout, /^fixtures\/cli\/broken\/evals\/\S+:\d+:\d+: error: /m);
});

Deno.test("deno doc --lint mod.ts is clean", async () => {
  const result = await deno(["doc", "--lint", "mod.ts"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
});

Deno.test(".ci/run is an executable bash script that installs a pinned Deno and runs the tests", async () => {
  const path = `${ROOT}.ci/run`;
  const info = await Deno.stat(path);
  assert.ok(((info.mode ?? 0) & 0o111) !== 0, ".ci/run is executable");
  const text = await Deno.readTextFile(path);
  assert.match(text, /^#!\/usr\/bin\/env bash\n/);
  assert.match(text, /npm install --global [^\n]*"deno@\$\{DENO_VERSION\}"/);
  assert.match(text, /DENO_VERSION="\d+\.\d+\.\d+"/);
  assert.match(text, /\ndeno task test( .*)?\n/);
  const syntax = await new Deno.Command("bash", { args: ["-n", path] }).output();
  assert.equal(syntax.code, 0, new TextDecoder().decode(syntax.stderr));
});
