/**
 * What each newer agent CLI (Gemini CLI, Qwen Code, Copilot CLI, opencode) finds in its bubblewrap
 * sandbox, for real (`bwrap`): a stand-in executable of each kind reports what it sees from inside
 * (its home, its state folders, its configuration, Copilot's package cache) into its workspace,
 * then prints a recorded stream of its kind. The sandbox's home is empty and private: agentv
 * seeds what a CLI needs there (Gemini CLI's auth type) or binds the state folder the CLI's own
 * variable names; Copilot's package cache is writable until the CLI has unpacked itself there,
 * then read-only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConsentGrant } from "../../lib/targets/consent.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import type { TargetRequest } from "../../lib/targets/types.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const fixture = (rel: string) => fileURLToPath(new URL(`../../fixtures/${rel}`, import.meta.url));
const STREAMS: Record<string, string> = {
  "gemini-cli": fixture("agents/gemini/shell_edit_and_failing_steps.jsonl"),
  "qwen-code": fixture("agents/qwen/shell_edit_and_failing_step.jsonl"),
  "copilot-cli": fixture("agents/copilot/shell_edit_and_failing_steps.jsonl"),
  opencode: fixture("agents/opencode/shell_edit_and_failing_steps.jsonl"),
};

/** A stand-in agent of `provider` at `path`: runs `checks` into `report.txt`, then its stream. */
async function standIn(path: string, provider: string, checks: string[]): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const script = `#!/bin/sh\n{\n${checks.join("\n")}\n} > report.txt 2>&1\n` +
    `cat > /dev/null\ncat '${STREAMS[provider]}'\n`;
  await Deno.writeTextFile(path, script);
  await Deno.chmod(path, 0o755);
}

/**
 * Runs the target `definition` once (allowed by its own grant, in a fresh workspace) with `env`;
 * returns what its stand-in reported, line by line.
 */
async function report(
  tree: Tree,
  definition: Record<string, unknown> & { name: string; provider: string },
  env: Record<string, string>,
): Promise<string[]> {
  const consent = ConsentGrant.none();
  consent.allow(createTarget(definition, { env }).needs!.map((n) => n.need));
  const target = createTarget(definition, { env, consent, tempDir: tree.dir });
  const workspace = await Deno.makeTempDir({ dir: tree.dir, prefix: "workspace-" });
  const request: TargetRequest = {
    evalCase: { id: "c1", file_paths: [] } as unknown as EvalCase,
    prompt: "hi",
    messages: [{ role: "user", content: "hi" }],
    guidelines: "",
    attempt: 0,
    evalDir: tree.dir,
    cwd: workspace,
    signal: new AbortController().signal,
  };
  await target.invoke(request).catch(() => {}); // the stream's verdict is not what is tested
  return (await Deno.readTextFile(join(workspace, "report.txt"))).trim().split("\n");
}

/** The shell lines that say whether `path` can be written (`<label>=written|refused`). */
function canWrite(label: string, path: string): string {
  return `touch "${path}" 2>/dev/null && echo ${label}=written || echo ${label}=refused`;
}

Deno.test({
  name:
    "gemini-cli in its sandbox: the empty home gets .gemini/settings.json selecting the API key, not the user's; GEMINI_CLI_HOME is its own writable folder instead",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "home/.gemini/settings.json": '{"user": "settings"}\n',
      "gemini-home/.gemini/settings.json": '{"own": "settings"}\n',
    }, { prefix: "agentv-gemini-box-" });
    const definition = {
      name: "g",
      provider: "gemini-cli",
      executable: tree.path("bin/gemini"),
      network: "none",
    };
    await standIn(tree.path("bin/gemini"), "gemini-cli", [
      `cat "\${GEMINI_CLI_HOME:-$HOME}/.gemini/settings.json"; echo`,
      `echo "HOME_ENTRIES=$(ls -A "$HOME")"`,
      canWrite("state", `\${GEMINI_CLI_HOME:-$HOME}/.gemini/state`),
    ]);
    const env = { PATH, HOME: tree.path("home"), GEMINI_API_KEY: "gk-1" };
    assert.deepEqual(await report(tree, definition, env), [
      '{"security":{"auth":{"selectedType":"gemini-api-key"}}}',
      "",
      "HOME_ENTRIES=.gemini",
      "state=written",
    ]);
    // The state it wrote went with its private home: the user's home is as it was.
    await assert.rejects(Deno.stat(tree.path("home/.gemini/state")), Deno.errors.NotFound);

    const own = { ...env, GEMINI_CLI_HOME: tree.path("gemini-home") };
    assert.deepEqual(await report(tree, definition, own), [
      '{"own": "settings"}',
      "",
      "HOME_ENTRIES=",
      "state=written",
    ]);
    assert.ok((await Deno.stat(tree.path("gemini-home/.gemini/state"))).isFile);
  },
});

Deno.test({
  name:
    "qwen-code in its sandbox: QWEN_HOME and QWEN_RUNTIME_DIR are writable, made when missing; without them the home is empty",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "home/.qwen/settings.json": "{}\n",
      "qwen-home/settings.json": '{"own": true}\n',
    }, { prefix: "agentv-qwen-box-" });
    const definition = {
      name: "q",
      provider: "qwen-code",
      executable: tree.path("bin/qwen"),
      network: "none",
    };
    await standIn(tree.path("bin/qwen"), "qwen-code", [
      `echo "HOME_ENTRIES=$(ls -A "$HOME")"`,
      `cat "$QWEN_HOME/settings.json" 2>/dev/null || echo no-settings`,
      canWrite("home", "$QWEN_HOME/state"),
      canWrite("runtime", "$QWEN_RUNTIME_DIR/socket"),
    ]);
    const env = { PATH, HOME: tree.path("home") };
    assert.deepEqual(await report(tree, definition, env), [
      "HOME_ENTRIES=",
      "no-settings",
      "home=refused",
      "runtime=refused",
    ]);
    const own = {
      ...env,
      QWEN_HOME: tree.path("qwen-home"),
      QWEN_RUNTIME_DIR: tree.path("runtime"),
    };
    assert.deepEqual(await report(tree, definition, own), [
      "HOME_ENTRIES=",
      '{"own": true}',
      "home=written",
      "runtime=written",
    ]);
    assert.ok((await Deno.stat(tree.path("runtime/socket"))).isFile);
  },
});

Deno.test({
  name:
    "copilot-cli in its sandbox: its package cache is writable until this version is unpacked there, then read-only; COPILOT_HOME is writable",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "tools/node_modules/@github/copilot/package.json":
        '{"name": "@github/copilot", "version": "9.9.9"}\n',
    }, { prefix: "agentv-copilot-box-" });
    const executable = tree.path("tools/node_modules/@github/copilot/copilot");
    const definition = {
      name: "c",
      provider: "copilot-cli",
      executable,
      network: "none",
      env: ["XDG_CACHE_HOME"],
    };
    const version = "$XDG_CACHE_HOME/copilot/pkg/linux-x64/9.9.9";
    await standIn(executable, "copilot-cli", [
      // What Copilot CLI does: unpack itself once, then run from there.
      `if [ -f "${version}/index.js" ]; then echo found; else`,
      `  mkdir -p "${version}" && echo unpacked > "${version}/index.js" && echo unpacking; fi`,
      canWrite("cache", `${version}/extra.js`),
      canWrite("state", "$COPILOT_HOME/config.json"),
    ]);
    const env = {
      PATH,
      HOME: tree.path("home"),
      XDG_CACHE_HOME: tree.path("cache"),
      COPILOT_HOME: tree.path("copilot-home"),
    };
    assert.deepEqual(await report(tree, definition, env), [
      "unpacking",
      "cache=written",
      "state=written",
    ]);
    const unpacked = tree.path("cache/copilot/pkg/linux-x64/9.9.9/index.js");
    assert.equal(await Deno.readTextFile(unpacked), "unpacked\n");
    await Deno.remove(tree.path("cache/copilot/pkg/linux-x64/9.9.9/extra.js"));
    // The next case finds it unpacked, and cannot change it.
    assert.deepEqual(await report(tree, definition, env), [
      "found",
      "cache=refused",
      "state=written",
    ]);
    // Another version unpacked there does not count: this one may still unpack.
    await Deno.rename(
      tree.path("cache/copilot/pkg/linux-x64/9.9.9"),
      tree.path("cache/copilot/pkg/linux-x64/9.9.8"),
    );
    assert.deepEqual((await report(tree, definition, env)).slice(0, 2), [
      "unpacking",
      "cache=written",
    ]);
  },
});

Deno.test({
  name:
    "opencode in its sandbox: OPENCODE_CONFIG is readable, OPENCODE_CONFIG_DIR and the opencode folder of each XDG home given are writable",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "opencode.json": '{"share": "disabled"}\n',
      "config-dir/.keep": "",
      "data/.keep": "",
    }, { prefix: "agentv-opencode-box-" });
    const definition = {
      name: "o",
      provider: "opencode",
      executable: tree.path("bin/opencode"),
      network: "none",
      env: ["XDG_DATA_HOME"],
    };
    await standIn(tree.path("bin/opencode"), "opencode", [
      `cat "$OPENCODE_CONFIG"`,
      canWrite("config", "$OPENCODE_CONFIG"),
      canWrite("config_dir", "$OPENCODE_CONFIG_DIR/plugin.js"),
      `mkdir -p "$XDG_DATA_HOME/opencode/storage" && echo data=written || echo data=refused`,
    ]);
    const env = {
      PATH,
      HOME: tree.path("home"),
      OPENCODE_CONFIG: tree.path("opencode.json"),
      OPENCODE_CONFIG_DIR: tree.path("config-dir"),
      XDG_DATA_HOME: tree.path("data"),
    };
    assert.deepEqual(await report(tree, definition, env), [
      '{"share": "disabled"}',
      "config=refused",
      "config_dir=written",
      "data=written",
    ]);
    assert.ok((await Deno.stat(tree.path("data/opencode/storage"))).isDirectory);
  },
});

Deno.test({
  name:
    "an agent whose model endpoint agentv cannot tell is warned about when its model-only sandbox would reach nothing",
  ignore: bubblewrap.ignore,
  fn() {
    bubblewrap.require();
    const warnings: string[] = [];
    const make = (extra: Record<string, unknown>) =>
      createTarget({ name: "o", provider: "opencode", model: "my-gateway/some-model", ...extra }, {
        env: { PATH },
        onWarning: (w) => warnings.push(w),
      });
    make({});
    assert.deepEqual(warnings, [
      "opencode target 'o' runs in a sandbox with network: model-only, but agentv cannot tell " +
      "its model endpoint (it comes from the CLI's own configuration): it can reach nothing; " +
      "set base_url, or name the endpoint in allow_hosts",
    ]);
    make({ allow_hosts: ["gateway.example:443"] });
    make({ network: "none" });
    // A built-in provider's public endpoint is known.
    make({ model: "anthropic/claude-sonnet-4-5" });
    assert.equal(warnings.length, 1);
  },
});
