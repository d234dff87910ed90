/**
 * One definition of "this case or target starts a command or sends environment values", used by
 * the gate and the runner alike: a dataset holding every evaluator kind (code judges as a command
 * string, as argv, as a module; composite members at two depths; code aggregators by `path` and by
 * `script`) and a target of every provider kind (`cli` with a command and an HTTP healthcheck,
 * every agent CLI, every HTTP provider on a loopback server) and a case whose `workspace_repo` has
 * a setup command is run twice. Refused, nothing starts and
 * no server is called. Allowed, a command starts exactly when it was listed and a server is called
 * exactly when its host was. The fixtures are typed by kind, so a new evaluator or provider kind
 * without one does not compile.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DatasetCommand, runEval, UntrustedDatasetError } from "../../mod.ts";
import type { EvaluatorType } from "../../lib/schema/evaluator.ts";
import { EVALUATOR_TYPES } from "../../lib/schema/evaluator.ts";
import { RUNNABLE_PROVIDERS, type RunnableProvider } from "../../lib/schema/targets.ts";
import { type ProviderServer, startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";
import { commitFiles } from "../_helpers/git_repo.ts";

const fixture = (rel: string) => fileURLToPath(new URL(`../../fixtures/${rel}`, import.meta.url));
const SCORE = `echo '{"score": 1}'`;

/** Evaluators of every kind; `M` is the folder markers are touched in. */
function evaluators(M: string): Record<EvaluatorType, Record<string, unknown>[]> {
  const touch = (name: string) => `touch ${M}/M_${name}; ${SCORE}`;
  return {
    llm_judge: [{ type: "llm_judge" }],
    rubric: [{ type: "rubric", rubrics: ["Mentions hi"] }],
    code_judge: [
      { name: "string", type: "code_judge", script: touch("string") },
      { name: "argv", type: "code_judge", script: ["sh", "-c", touch("argv")] },
      { name: "module", type: "code_judge", module: "./judge.ts" },
      { name: "module_script", type: "code_judge", script: "./judge.ts" },
    ],
    composite: [{
      name: "outer",
      type: "composite",
      evaluators: [
        { name: "member", type: "code_judge", script: touch("member") },
        {
          name: "inner",
          type: "composite",
          evaluators: [{ name: "deep", type: "code_judge", script: ["sh", "-c", touch("deep")] }],
          aggregator: { type: "code_judge", script: ["sh", "-c", touch("aggregator_argv")] },
        },
      ],
      aggregator: { type: "code_judge", path: touch("aggregator_path") },
    }, {
      name: "judged",
      type: "composite",
      evaluators: [{ type: "contains", value: "hi" }],
      aggregator: { type: "llm_judge" },
    }],
    tool_trajectory: [{ type: "tool_trajectory", mode: "any_order" }],
    field_accuracy: [{ type: "field_accuracy", fields: [{ path: "a", match: "exact" }] }],
    latency: [{ type: "latency", threshold: 60_000 }],
    cost: [{ type: "cost", budget: 1 }],
    token_usage: [{ type: "token_usage", max_total: 1000 }],
    equals: [{ type: "equals", value: "hi" }],
    contains: [{ type: "contains", value: "hi" }],
    regex: [{ type: "regex", pattern: "h." }],
    is_json: [{ type: "is_json" }],
    json_schema: [{ type: "json_schema", schema: { type: "object" } }],
    file_changes: [{ type: "file_changes", expected: [{ path: "x.txt", change: "added" }] }],
  };
}

/** An agent target whose stand-in executable may write its marker in `M` (outside its workspace). */
const agentTarget = (name: string, provider: string, executable: string, M: string) => ({
  name,
  provider,
  executable,
  writable: [M],
});

/** A target of every provider kind (HTTP ones on their own loopback server). */
function targets(
  M: string,
  servers: Record<"openai" | "azure" | "anthropic" | "gemini" | "health", ProviderServer>,
): Record<RunnableProvider, Record<string, unknown>[]> {
  const key = "${{ PROVIDER_KEY }}";
  return {
    mock: [{ name: "mock", provider: "mock", response: "hi" }],
    cli: [{
      name: "cli",
      provider: "cli",
      command_template: `touch ${M}/M_cli; echo hi`,
      healthcheck: { type: "command", command_template: `touch ${M}/M_healthcheck` },
    }, {
      name: "cli_http",
      provider: "cli",
      command_template: `touch ${M}/M_cli_http; echo hi`,
      healthcheck: { type: "http", url: `${servers.health.url}/health?token=\${{ TOKEN }}` },
    }],
    // The stand-in agents touch their marker outside their workspace: their sandbox lets them.
    "claude-code": [agentTarget("claude", "claude-code", `${M}/bin/claude`, M)],
    codex: [agentTarget("codex", "codex", `${M}/bin/codex`, M)],
    "gemini-cli": [agentTarget("gemini_cli", "gemini-cli", `${M}/bin/gemini`, M)],
    "qwen-code": [agentTarget("qwen", "qwen-code", `${M}/bin/qwen`, M)],
    "copilot-cli": [agentTarget("copilot", "copilot-cli", `${M}/bin/copilot`, M)],
    opencode: [agentTarget("opencode", "opencode", `${M}/bin/opencode`, M)],
    pi: [agentTarget("pi", "pi", `${M}/bin/pi`, M)],
    openai: [{
      name: "openai",
      provider: "openai",
      base_url: servers.openai.url,
      model: "m",
      api_key: key,
    }],
    azure: [{
      name: "azure",
      provider: "azure",
      endpoint: servers.azure.url,
      model: "d",
      api_key: key,
    }],
    anthropic: [{
      name: "anthropic",
      provider: "anthropic",
      base_url: servers.anthropic.url,
      model: "m",
      api_key: key,
    }],
    gemini: [{ name: "gemini", provider: "gemini", base_url: servers.gemini.url, api_key: key }],
  };
}

const agent = (marker: string, stream: string) =>
  `#!/bin/sh\ntouch '${marker}'\ncat > /dev/null\ncat '${stream}'\n`;

async function everyKind() {
  const servers = {
    openai: startProviderServer("openai", { fallback: { type: "reply", text: "hi" } }),
    azure: startProviderServer("azure", { fallback: { type: "reply", text: "hi" } }),
    anthropic: startProviderServer("anthropic", { fallback: { type: "reply", text: "hi" } }),
    gemini: startProviderServer("gemini", { fallback: { type: "reply", text: "hi" } }),
    health: startProviderServer("openai"),
  };
  const p = await project({ "evals/judge.ts": "export default () => ({ score: 1 });\n" });
  const M = p.dir;
  const [commit] = await commitFiles(join(M, "repo"), [{ "README.md": "a repository\n" }]);
  const byKind = evaluators(M);
  const allTargets = targets(M, servers);
  assert.deepEqual(Object.keys(byKind).sort(), [...EVALUATOR_TYPES].sort());
  assert.deepEqual(Object.keys(allTargets).sort(), [...RUNNABLE_PROVIDERS].sort());
  const cases = [
    ...Object.values(byKind).flat().map((e, i) => ({
      id: `e${i}`,
      expected_outcome: "says hi",
      input: "hi",
      execution: { target: "mock" },
      evaluators: [e],
    })),
    ...Object.values(allTargets).flat().map((t) => ({
      id: `t_${t.name}`,
      expected_outcome: "says hi",
      input: "hi",
      execution: { target: t.name },
      evaluators: [{ type: "contains", value: "hi" }],
    })),
    {
      id: "repo_setup",
      expected_outcome: "says hi",
      input: "hi",
      execution: {
        target: "mock",
        workspace_repo: { url: "../repo", commit, setup: [["sh", "-c", `touch ${M}/M_setup`]] },
      },
      evaluators: [{ type: "contains", value: "hi" }],
    },
  ];
  // JSON is YAML: the files are written as JSON so every value is quoted exactly.
  await Deno.writeTextFile(join(M, "evals/all.yaml"), JSON.stringify({ evalcases: cases }));
  await Deno.mkdir(join(M, ".agentv"));
  await Deno.writeTextFile(
    join(M, ".agentv/targets.yaml"),
    JSON.stringify({ targets: Object.values(allTargets).flat() }),
  );
  await Deno.mkdir(join(M, "bin"));
  const claudeStream = fixture("agents/claude/bash_edit_and_failing_step.jsonl");
  await Deno.writeTextFile(join(M, "bin/claude"), agent(`${M}/M_claude`, claudeStream));
  const codexStream = fixture("agents/codex/shell_and_edit.jsonl");
  await Deno.writeTextFile(join(M, "bin/codex"), agent(`${M}/M_codex`, codexStream));
  const geminiStream = fixture("agents/gemini/shell_edit_and_failing_steps.jsonl");
  await Deno.writeTextFile(join(M, "bin/gemini"), agent(`${M}/M_gemini`, geminiStream));
  const qwenStream = fixture("agents/qwen/shell_edit_and_failing_step.jsonl");
  await Deno.writeTextFile(join(M, "bin/qwen"), agent(`${M}/M_qwen`, qwenStream));
  const copilotStream = fixture("agents/copilot/shell_edit_and_failing_steps.jsonl");
  await Deno.writeTextFile(join(M, "bin/copilot"), agent(`${M}/M_copilot`, copilotStream));
  const opencodeStream = fixture("agents/opencode/shell_edit_and_failing_steps.jsonl");
  await Deno.writeTextFile(join(M, "bin/opencode"), agent(`${M}/M_opencode`, opencodeStream));
  const piStream = fixture("agents/pi/shell_edit_and_failing_step.jsonl");
  await Deno.writeTextFile(join(M, "bin/pi"), agent(`${M}/M_pi`, piStream));
  for (const bin of ["claude", "codex", "gemini", "qwen", "copilot", "opencode", "pi"]) {
    await Deno.chmod(join(M, "bin", bin), 0o755);
  }
  return {
    p,
    servers,
    run: (allowRun: Parameters<typeof runEval>[0]["allowRun"]) =>
      runEval({
        files: ["evals/all.yaml"],
        env: { PROVIDER_KEY: "pk-1", TOKEN: "tk-1", PATH: Deno.env.get("PATH") ?? "" },
        cwd: M,
        allowRun,
      }),
    async [Symbol.asyncDispose]() {
      for (const s of Object.values(servers)) await s.close();
      await p[Symbol.asyncDispose]();
    },
  };
}

async function markers(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name.startsWith("M_")) names.push(e.name);
  return names.sort();
}

/** The markers listed commands touch: named in the command, or (agents) in the script it names. */
function listedMarkers(needs: readonly DatasetCommand[]): string[] {
  return needs.flatMap((n) =>
    n.kind === "agent_target"
      ? (n.names ?? []).map((f) => `M_${f.split("/").at(-1)}`)
      : [...n.command.matchAll(/M_\w+/g)].map((m) => m[0])
  ).sort();
}

Deno.test("every evaluator and provider kind: refused, nothing starts and no server is called", async () => {
  await using setup = await everyKind();
  const error = await setup.run(false).then(() => undefined, (e) => e);
  assert.ok(error instanceof UntrustedDatasetError, String(error));
  const needs = error.requests.flatMap((r) => r.files.flatMap((f) => f.commands));
  assert.deepEqual(listedMarkers(needs), [
    "M_aggregator_argv",
    "M_aggregator_path",
    "M_argv",
    "M_claude",
    "M_cli",
    "M_cli_http",
    "M_codex",
    "M_copilot",
    "M_deep",
    "M_gemini",
    "M_healthcheck",
    "M_member",
    "M_opencode",
    "M_pi",
    "M_qwen",
    "M_setup",
    "M_string",
  ]);
  const hosts = needs.filter((n) => n.kind === "env_host").map((n) => n.host).sort();
  const { openai, azure, anthropic, gemini, health } = setup.servers;
  assert.deepEqual(
    hosts,
    [openai, azure, anthropic, gemini, health].map((s) => new URL(s.url).origin).sort(),
  );
  assert.deepEqual(await markers(setup.p.dir), []);
  for (const [kind, s] of Object.entries(setup.servers)) {
    assert.equal(s.requests.length, 0, `the ${kind} server was called`);
  }
});

Deno.test("every evaluator and provider kind: allowed, a command starts and a host is called exactly when listed", async () => {
  await using setup = await everyKind();
  const listed: DatasetCommand[] = [];
  const { rows } = await setup.run((request) => {
    listed.push(...request.files.flatMap((f) => f.commands));
    return true;
  });
  assert.ok(rows.length > 20);
  // Every target was usable: none of the rows is a target error.
  assert.deepEqual(rows.filter((r) => /Cannot use target/.test(r.error ?? "")), []);
  assert.deepEqual(await markers(setup.p.dir), listedMarkers(listed));
  const called = Object.values(setup.servers).filter((s) => s.requests.length > 0)
    .map((s) => new URL(s.url).origin).sort();
  const hosts = listed.filter((n) => n.kind === "env_host").map((n) => n.host!).sort();
  assert.deepEqual(called, hosts);
  assert.equal(called.length, 5);
});
