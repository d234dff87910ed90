/**
 * A command the runner would start that the gate did not list cannot start, by construction:
 * every place agentv starts a dataset's process (code judges, code aggregators, `cli` targets,
 * their healthchecks, agent targets) runs the argv or template of a permit the run's consent
 * grant made, and the grant makes one only for a need the gate listed and the user allowed; a
 * target that sends `${{ VAR }}` values sends them only to its default endpoint or an allowed
 * host. Each is tried here with a grant that holds nothing, and with one that holds another need.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evaluatorCommand, setupCommands } from "../../lib/dataset/dataset_commands.ts";
import { runSetup } from "../../lib/run/workspace_setup.ts";
import { evaluateCodeJudge } from "../../lib/scoring/code_judge.ts";
import { evaluateComposite } from "../../lib/scoring/composite.ts";
import { CommandPermit, ConsentGrant } from "../../lib/targets/consent.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import type { TargetRequest } from "../../lib/targets/types.ts";
import type { CodeJudgeConfig, CompositeConfig } from "../../lib/schema/evaluator.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import { AGENT_PROVIDERS } from "../../lib/schema/target_providers.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { makeContext } from "../scoring/_context.ts";
import { exists } from "./_attack.ts";

const SCORE = `echo '{"score": 1}'`;

function judge(dir: string, name: string): CodeJudgeConfig {
  return { type: "code_judge", name, weight: 1, script: `touch ${dir}/${name}; ${SCORE}` };
}

function request(tree: Tree): TargetRequest {
  return {
    evalCase: { id: "c1", file_paths: [] } as unknown as EvalCase,
    prompt: "hi",
    messages: [{ role: "user", content: "hi" }],
    guidelines: "",
    attempt: 0,
    evalDir: tree.dir,
    cwd: tree.dir,
    signal: new AbortController().signal,
  };
}

/** A grant holding only the need of another code judge. */
function grantForAnother(dir: string): ConsentGrant {
  const grant = ConsentGrant.none();
  grant.allow([evaluatorCommand(judge(dir, "OTHER"), { evalDir: dir })!.need]);
  return grant;
}

Deno.test("a code judge and a code aggregator start nothing their run's grant does not hold", async () => {
  await using tree = await tempTree({});
  const context = (consent: ConsentGrant) =>
    makeContext({ evalDir: tree.dir, root: tree.dir, consent });
  for (const consent of [ConsentGrant.none(), grantForAnother(tree.dir)]) {
    const outcome = await evaluateCodeJudge(judge(tree.dir, "JUDGE_RAN"), context(consent));
    assert.equal(outcome.status, "error");
    assert.match(outcome.error ?? "", /Refused to start .*not among what was listed and allowed/);
    const composite: CompositeConfig = {
      type: "composite",
      name: "c",
      weight: 1,
      evaluators: [{
        type: "contains",
        name: "contains",
        weight: 1,
        value: "",
        mode: "all",
        case_sensitive: true,
      }],
      aggregator: { type: "code_judge", path: `touch ${tree.dir}/AGGREGATOR_RAN; ${SCORE}` },
    };
    const aggregated = await evaluateComposite(composite, context(consent));
    assert.equal(aggregated.status, "error");
  }
  assert.equal(await exists(join(tree.dir, "JUDGE_RAN")), false);
  assert.equal(await exists(join(tree.dir, "AGGREGATOR_RAN")), false);
  // The same judge with its own need allowed does run: the refusal above is the grant's.
  const own = ConsentGrant.none();
  own.allow([evaluatorCommand(judge(tree.dir, "JUDGE_RAN"), { evalDir: tree.dir })!.need]);
  const ran = await evaluateCodeJudge(judge(tree.dir, "JUDGE_RAN"), context(own));
  assert.equal(ran.status, "ok", ran.error ?? "");
  assert.equal(await exists(join(tree.dir, "JUDGE_RAN")), true);
});

Deno.test("cli targets, their healthchecks and agent targets start nothing their grant does not hold", async () => {
  await using tree = await tempTree({});
  // A stand-in of every agent kind, each leaving its own marker if it ever starts.
  const agents = AGENT_PROVIDERS.map((kind) => ({
    name: kind,
    provider: kind,
    executable: join(tree.dir, kind),
  }));
  for (const kind of AGENT_PROVIDERS) {
    await Deno.writeTextFile(join(tree.dir, kind), `#!/bin/sh\ntouch ${tree.dir}/${kind}_RAN\n`);
    await Deno.chmod(join(tree.dir, kind), 0o755);
  }
  const definitions = [
    { name: "cli", provider: "cli", command_template: `touch ${tree.dir}/CLI_RAN; echo hi` },
    {
      name: "checked",
      provider: "cli",
      command_template: "echo hi",
      healthcheck: { type: "command", command_template: `touch ${tree.dir}/HEALTH_RAN` },
    },
    ...agents,
  ];
  for (const definition of definitions) {
    // A grant holding the needs of every other target, not this one's.
    const others = ConsentGrant.none();
    for (const other of definitions.filter((d) => d !== definition)) {
      others.allow(createTarget(other, { env: {} }).needs!.map((n) => n.need));
    }
    for (const consent of [ConsentGrant.none(), others]) {
      const target = createTarget(definition, { env: { PATH: "/usr/bin:/bin" }, consent });
      await assert.rejects(target.invoke(request(tree)), /not among what was listed and allowed/);
      if (target.healthcheck) {
        await assert.rejects(target.healthcheck(new AbortController().signal), /Refused/);
      }
    }
  }
  for (const marker of ["CLI_RAN", "HEALTH_RAN", ...AGENT_PROVIDERS.map((k) => `${k}_RAN`)]) {
    assert.equal(await exists(join(tree.dir, marker)), false, `${marker}: it started`);
  }
});

Deno.test("a workspace_repo's setup commands start nothing their run's grant does not hold", async () => {
  await using tree = await tempTree({});
  const repo = {
    url: "../repo",
    commit: "a".repeat(40),
    setup: [["sh", "-c", `touch ${tree.dir}/SETUP_RAN`]],
  };
  const another = ConsentGrant.none();
  another.allow(setupCommands({ ...repo, commit: "b".repeat(40) }).map((c) => c.need));
  for (const consent of [ConsentGrant.none(), another]) {
    await assert.rejects(
      runSetup(tree.dir, repo, { consent, timeoutMs: 10_000 }),
      /Refused to start .*workspace_setup.*not among what was listed and allowed/,
    );
  }
  assert.equal(await exists(join(tree.dir, "SETUP_RAN")), false);
  const own = ConsentGrant.none();
  own.allow(setupCommands(repo).map((c) => c.need));
  await runSetup(tree.dir, repo, { consent: own, timeoutMs: 10_000 });
  assert.equal(await exists(join(tree.dir, "SETUP_RAN")), true);
});

Deno.test("a target that sends ${{ VAR }} values calls no host its grant does not hold", async () => {
  await using server = startProviderServer("openai");
  await using tree = await tempTree({});
  const definition = {
    name: "remote",
    provider: "openai",
    base_url: server.url,
    model: "m",
    api_key: "${{ OPENAI_API_KEY }}",
  };
  const env = { OPENAI_API_KEY: "sk-user-1" };
  for (const consent of [ConsentGrant.none(), grantForAnother(tree.dir)]) {
    const target = createTarget(definition, { env, consent });
    await assert.rejects(target.invoke(request(tree)), /not among what was listed and allowed/);
  }
  assert.equal(server.requests.length, 0);
  const allowed = ConsentGrant.none();
  allowed.allow(createTarget(definition, { env }).needs!.map((n) => n.need));
  await createTarget(definition, { env, consent: allowed }).invoke(request(tree));
  assert.equal(server.requests.length, 1);
});

Deno.test("a permit is made by the grant only", () => {
  const need = { kind: "code_judge" as const, name: "j", command: "id", reads: [], key: "k" };
  assert.throws(
    () => new CommandPermit(Symbol("forged") as never, need),
    /made by ConsentGrant.permit only/,
  );
});

Deno.test("every process agentv starts goes through a permit", async () => {
  // The low-level starters, and the only modules that call them, each taking what it starts from
  // a permit (a new caller must be added here, and given one).
  const lib = new URL("../../lib/", import.meta.url);
  const callers: Record<string, string[]> = {};
  const patterns: Record<string, RegExp> = {
    "new Deno.Command": /new Deno\.Command\(/,
    runShell: /\brunShell\(/,
    runScript: /\brunScript\(/,
    runAgentCli: /\brunAgentCli\(/,
    runJudgeScript: /\brunJudgeScript\(/,
    // Other ways to start a process: none may appear.
    "node:child_process": /["']node:child_process["']/,
    "Deno.run": /\bDeno\.run\(/,
  };
  for await (const path of walk(lib)) {
    const text = await Deno.readTextFile(path);
    const code = text.replace(/^\s*\*.*$/gm, ""); // doc comments hold examples
    const rel = path.slice(lib.pathname.length);
    for (const [name, pattern] of Object.entries(patterns)) {
      if (pattern.test(code)) (callers[name] ??= []).push(rel);
    }
  }
  for (const list of Object.values(callers)) list.sort();
  assert.deepEqual(callers, {
    "new Deno.Command": [
      "run/git.ts",
      "scoring/judge_host.ts",
      "scoring/script_process.ts",
      "targets/agent_cli.ts",
      "targets/sandbox_docker.ts",
      "targets/sandbox_forwarder.ts",
      "targets/sandbox_policy.ts",
      "targets/sandbox_relay_process.ts",
      "targets/shell.ts",
    ],
    runShell: ["targets/cli.ts", "targets/shell.ts"],
    runScript: ["run/workspace_setup.ts", "scoring/judge_sandbox.ts", "scoring/script_process.ts"],
    runJudgeScript: [
      "scoring/code_judge.ts",
      "scoring/composite.ts",
      "scoring/judge_sandbox.ts",
    ],
    runAgentCli: ["targets/agent_cli.ts", "targets/agent_target.ts"],
  });
  const source = (rel: string) => Deno.readTextFile(new URL(rel, lib));
  // The judge host is agentv itself (its own executable, or deno running its own host module)
  // serving module judges under deny-all permissions: agentv's process, not the dataset's.
  assert.match(await source("scoring/judge_host.ts"), /new Deno\.Command\(program,/);
  assert.match(await source("scoring/judge_host.ts"), /Deno\.execPath\(\)/);
  // `ps` (finding an agent's leftover processes) is agentv's own, not the dataset's.
  assert.match(await source("targets/agent_cli.ts"), /new Deno\.Command\("ps"/);
  // A sandbox's relay is agentv itself (its executable, or deno running its own relay module);
  // `docker kill` stops a container agentv named; the forwarder, inside the sandbox, starts what
  // follows its `--`: the permitted argv, after the sandbox's prefix (`sandbox_launch.ts`).
  assert.match(await source("targets/sandbox_relay_process.ts"), /Deno\.execPath\(\)/);
  assert.match(await source("targets/sandbox_docker.ts"), /args: \["kill", name\]/);
  // Whether bwrap can make a sandbox here is found by starting `bwrap … true` (agentv's probe).
  assert.match(await source("targets/sandbox_policy.ts"), /new Deno\.Command\(bwrap,/);
  assert.match(await source("targets/sandbox_policy.ts"), /"--", "true"\]/);
  assert.match(
    await source("targets/sandbox_forwarder.ts"),
    /const \[program, \.\.\.rest\] = args\.slice\(2\)/,
  );
  assert.match(
    await source("targets/sandbox_launch.ts"),
    /\[\.\.\.layout\.prefix, \.\.\.request\.argv\]/,
  );
  assert.match(
    await source("targets/agent_target.ts"),
    /openAgentSandbox\(agent\.sandbox, \[executable, \.\.\.args\]/,
  );
  // `git` (the cache of a `workspace_repo`, checkouts, the files a diff compares with) is
  // agentv's own too; a repository's setup commands run through `runScript` with a permit.
  assert.match(await source("run/git.ts"), /new Deno\.Command\("git",/);
  assert.match(await source("run/workspace_setup.ts"), /runScript\(permit,/);
  assert.match(await source("targets/cli.ts"), /permitOf\(context, "cli_target"\)\.template/);
  assert.match(await source("targets/cli.ts"), /permitOf\(context, "healthcheck"\)\.template/);
  assert.match(await source("targets/agent_target.ts"), /agent\.permit\(\)\.argv/);
  // Every agent kind starts its CLI through invokeAgent only, with its own agent_target permit,
  // in the sandbox its settings give (a new kind must be wired the same way).
  for (const kind of AGENT_PROVIDERS) {
    const module = await source(`targets/${kind.replace("-", "_")}.ts`);
    assert.match(module, /permit: \(\) => permitOf\(context, "agent_target"\)/, kind);
    assert.match(module, /invoke: \(request\) => invokeAgent\(agent, request\)/, kind);
    assert.match(module, /const sandbox = agentSandbox\(settings, context, \{/, kind);
    assert.match(module, /\.\.\.\(sandbox !== undefined \? \{ sandbox \} : \{\}\)/, kind);
  }
  assert.match(await source("scoring/script_process.ts"), /permit: CommandPermit/);
  assert.match(await source("scoring/judge_sandbox.ts"), /argv: permit\.argv/);
});

async function* walk(dir: URL): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.name.endsWith(".ts")) yield url.pathname;
  }
}
