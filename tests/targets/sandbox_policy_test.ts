/**
 * Which sandbox a command gets from its settings and the run's `--sandbox`, and which model
 * endpoint an agent's sandbox lets through (`base_url`, else what the CLI would use from its
 * environment or arguments, else the provider's public default).
 */
import assert from "node:assert/strict";
import { agentSandbox } from "../../lib/targets/agent_target.ts";
import { claudeCodeEnv } from "../../lib/targets/claude_code.ts";
import { codexArgs, codexEndpoints } from "../../lib/targets/codex.ts";
import { installRoot, programMounts } from "../../lib/targets/sandbox_paths.ts";
import { sandboxPolicy, SandboxUnavailableError } from "../../lib/targets/sandbox_policy.ts";
import { proxyTarget } from "../../lib/targets/sandbox_relay.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { TargetConfigError } from "../../lib/dataset/targets_errors.ts";
import { parseTargetSettings } from "../../lib/dataset/targets_check.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

/** A folder holding a stand-in `bwrap` that succeeds (the policy probes it once). */
async function withBwrap(): Promise<Tree> {
  const tree = await tempTree({ "bin/bwrap": "#!/bin/sh\nexit 0\n" });
  await Deno.chmod(tree.path("bin/bwrap"), 0o755);
  return tree;
}

const base = { baseDir: "/repo/.agentv", os: "linux" as const };

Deno.test("an agent is sandboxed by bubblewrap with network model-only when bwrap is installed; a command is not, and sandboxed has network none", async () => {
  await using tree = await withBwrap();
  const path = tree.path("bin");
  const agent = sandboxPolicy({}, { ...base, label: "a", agent: true, path });
  assert.equal(agent?.mode, "bubblewrap");
  assert.equal(agent?.network, "model-only");
  assert.equal(sandboxPolicy({}, { ...base, label: "c", agent: false, path }), undefined);
  const command = sandboxPolicy({ sandbox: "bubblewrap" }, {
    ...base,
    label: "c",
    agent: false,
    path,
  });
  assert.equal(command?.network, "none");
});

Deno.test("without bwrap an agent runs unsandboxed with one warning; sandbox: bubblewrap then fails naming the fix", () => {
  const warnings: string[] = [];
  const options = { ...base, label: "Claude Code target 'a'", agent: true, path: "/nowhere" };
  const policy = sandboxPolicy({}, { ...options, onWarning: (w) => warnings.push(w) });
  assert.equal(policy, undefined);
  assert.deepEqual(warnings, [
    "Claude Code target 'a' runs without a sandbox: bwrap (bubblewrap) is not installed; " +
    "set sandbox: none to silence this",
  ]);
  assert.throws(
    () => sandboxPolicy({ sandbox: "bubblewrap" }, options),
    (e: Error) =>
      e instanceof SandboxUnavailableError && /apt-get install bubblewrap/.test(e.message),
  );
  // Off Linux there is no bubblewrap either.
  assert.throws(
    () => sandboxPolicy({ sandbox: "bubblewrap" }, { ...options, os: "darwin" }),
    /bubblewrap runs on Linux only \(this is darwin\)/,
  );
  // sandbox: none says so without a warning.
  assert.equal(
    sandboxPolicy({ sandbox: "none" }, { ...options, onWarning: () => assert.fail() }),
    undefined,
  );
});

Deno.test("the run's --sandbox wins over the setting; docker needs an image; relative paths are the file's", async () => {
  await using tree = await withBwrap();
  const path = tree.path("bin");
  const options = { ...base, label: "t", agent: true, path };
  assert.equal(
    sandboxPolicy({ sandbox: "bubblewrap" }, { ...options, override: "none" }),
    undefined,
  );
  assert.equal(
    sandboxPolicy({ sandbox: "none" }, { ...options, agent: false, override: "bubblewrap" })?.mode,
    "bubblewrap",
  );
  assert.throws(() => sandboxPolicy({ sandbox: "docker" }, options), /names no image/);
  const docker = sandboxPolicy({
    sandbox: "docker",
    image: "node:22",
    read_only: ["tools", "/opt/x"],
    writable: ["../cache"],
    allow_hosts: ["Registry.npmjs.org:443", "[::1]:8080", "registry.npmjs.org:443"],
  }, options);
  assert.deepEqual(docker, {
    mode: "docker",
    network: "model-only",
    allowHosts: [{ host: "registry.npmjs.org", port: 443 }, { host: "::1", port: 8080 }],
    readOnly: ["/repo/.agentv/tools", "/opt/x"],
    writable: ["/repo/cache"],
    image: "node:22",
  });
});

Deno.test("the model endpoint: base_url, else the CLI's own variable or argument, else the public default", async () => {
  await using tree = await withBwrap();
  const context = (env: Record<string, string>) => ({
    name: "a",
    secrets: [],
    env: { PATH: tree.path("bin"), ...env },
  });
  const endpoints = (
    settings: Record<string, string>,
    env: Record<string, string>,
    urls: string[],
  ) =>
    agentSandbox(settings, context(env), { label: "a", endpoints: urls, stateDirs: [] })?.endpoints;
  // Claude Code: base_url becomes ANTHROPIC_BASE_URL, which is the endpoint.
  const env = claudeCodeEnv({ PATH: "/bin" }, [], "http://127.0.0.1:8080");
  assert.equal(env.ANTHROPIC_BASE_URL, "http://127.0.0.1:8080");
  assert.deepEqual(
    endpoints({ base_url: "http://gw:9000/v1" }, {}, ["https://api.anthropic.com"]),
    [
      { host: "gw", port: 9000 },
    ],
  );
  assert.deepEqual(endpoints({}, {}, ["https://api.anthropic.com"]), [
    { host: "api.anthropic.com", port: 443 },
  ]);
  // Codex: base_url is a provider override before the target's own arguments, and its endpoint.
  const args = codexArgs({
    name: "c",
    provider: "codex",
    base_url: "http://127.0.0.1:9/v1",
    args: ["-x"],
  });
  assert.deepEqual(args, [
    "exec",
    "--json",
    "--skip-git-repo-check",
    "-c",
    'model_providers.agentv={name="agentv",base_url="http://127.0.0.1:9/v1",wire_api="responses",env_key="OPENAI_API_KEY"}',
    "-c",
    "model_provider=agentv",
    "-x",
    "-",
  ]);
  assert.deepEqual(codexEndpoints(args, {}), ["http://127.0.0.1:9/v1"]);
  const provider = 'model_providers.m={name="m",base_url="http://127.0.0.1:7/v1",env_key="K"}';
  assert.deepEqual(codexEndpoints(["-c", provider, "-c", "model_provider=m"], {}), [
    "http://127.0.0.1:7/v1",
  ]);
  assert.deepEqual(codexEndpoints(["-c", 'openai_base_url="http://h:1/v1"'], {}), [
    "http://h:1/v1",
  ]);
  assert.deepEqual(codexEndpoints([], { OPENAI_BASE_URL: "http://gw:8080/v1" }), [
    "http://gw:8080/v1",
  ]);
  assert.deepEqual(codexEndpoints([], {}), ["https://api.openai.com/v1"]);
});

Deno.test("an agent target asking for a sandbox it cannot have is a configuration error naming it", () => {
  assert.throws(
    () =>
      createTarget({ name: "boxed", provider: "codex", sandbox: "docker" }, {
        env: { PATH: "/nowhere" },
      }),
    (e: Error) =>
      e instanceof TargetConfigError && /Codex target 'boxed' .*names no image/.test(e.message),
  );
});

Deno.test("the sandbox settings are checked: kinds, network rules, host:port", () => {
  const parse = (extra: Record<string, unknown>) =>
    parseTargetSettings({ name: "a", provider: "claude-code", ...extra });
  assert.doesNotThrow(() =>
    parse({ sandbox: "docker", image: "x", network: "none", allow_hosts: ["h:1"], workdir: "/w" })
  );
  assert.throws(() => parse({ sandbox: "firejail" }), /sandbox must be none, bubblewrap or docker/);
  assert.throws(() => parse({ network: "internet" }), /network must be model-only, none or host/);
  assert.throws(() => parse({ allow_hosts: ["example.com"] }), /allow_hosts entries are host:port/);
  assert.throws(() => parse({ allow_hosts: ["example.com:70000"] }), /host:port/);
  assert.throws(() => parse({ workdir: "work" }), /workdir must be an absolute path/);
  assert.throws(() => parse({ base_url: "ftp://x" }), /base_url must be an http\(s\) URL/);
});

Deno.test("the relay's proxy understands CONNECT host:port and absolute http:// requests only", () => {
  assert.deepEqual(proxyTarget("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n"), {
    connect: true,
    endpoint: { host: "::1", port: 8443 },
  });
  assert.deepEqual(proxyTarget("GET http://Example.com/x HTTP/1.1\r\n\r\n"), {
    connect: false,
    endpoint: { host: "example.com", port: 80 },
  });
  for (
    const head of [
      "GET /x HTTP/1.1\r\n\r\n",
      "GET https://example.com/ HTTP/1.1\r\n\r\n",
      "CONNECT example.com HTTP/1.1\r\n\r\n",
      "CONNECT user@example.com:443 HTTP/1.1\r\n\r\n",
      "garbage\r\n\r\n",
    ]
  ) assert.equal(proxyTarget(head), undefined, head);
});

Deno.test("a program in a hidden place gets its folder readable, never a whole home or /tmp, nor a PATH entry that is one", async () => {
  await using tree = await tempTree({ "home/.local/bin/agent": "#!/bin/sh\n", "tools/bin/x": "" });
  await Deno.chmod(tree.path("home/.local/bin/agent"), 0o755);
  const hidden = [tree.path("home")];
  const env = {
    PATH: [tree.path("home/.local/bin"), tree.path("home"), "/tmp", "/usr/bin"].join(":"),
  };
  // In a hidden home: its folder (which is also a PATH entry); the home itself and /tmp are not.
  assert.deepEqual(programMounts("agent", env, "/", hidden), [tree.path("home/.local/bin")]);
  // A program right in a folder that is all hidden (here: the home) is bound alone.
  await Deno.writeTextFile(tree.path("home/agent2"), "#!/bin/sh\n");
  await Deno.chmod(tree.path("home/agent2"), 0o755);
  assert.deepEqual(
    programMounts(tree.path("home/agent2"), { PATH: "/usr/bin" }, "/", hidden),
    [tree.path("home/agent2")],
  );
});

Deno.test("an npm-installed CLI needs its whole node_modules readable, anything else its own folder", () => {
  assert.equal(
    installRoot("/root/.cache/agentv-tools/node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
    "/root/.cache/agentv-tools/node_modules",
  );
  assert.equal(
    installRoot("/home/u/.local/share/claude/versions/2.1/claude"),
    "/home/u/.local/share/claude/versions/2.1",
  );
});

Deno.test("a bwrap that cannot make a sandbox here (user namespaces off) is no sandbox for an agent, with the reason, and an error when asked for", async () => {
  await using tree = await tempTree({
    "bin/bwrap": "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
  });
  await Deno.chmod(tree.path("bin/bwrap"), 0o755);
  const options = { ...base, label: "Codex target 'c'", agent: true, path: tree.path("bin") };
  const warnings: string[] = [];
  assert.equal(sandboxPolicy({}, { ...options, onWarning: (w) => warnings.push(w) }), undefined);
  assert.deepEqual(warnings, [
    "Codex target 'c' runs without a sandbox: bwrap cannot make a sandbox here " +
    "(bwrap: setting up uid map: Permission denied); set sandbox: none to silence this",
  ]);
  assert.throws(
    () => sandboxPolicy({ sandbox: "bubblewrap" }, options),
    /asks for sandbox: bubblewrap, but bwrap cannot make a sandbox here \(bwrap: setting up uid map/,
  );
});

Deno.test("the sandboxing page's example is a valid targets file", async () => {
  const { parse } = await import("yaml");
  const section = await Deno.readTextFile(new URL("../../docs/sandbox.md", import.meta.url));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, "the section shows a targets file");
  const { targets } = parse(block) as { targets: Record<string, unknown>[] };
  assert.deepEqual(targets.map((t) => t.name), ["claude", "boxed-script"]);
  for (const t of targets) {
    assert.doesNotThrow(() => parseTargetSettings(t as { name: string; provider: string }));
  }
});
