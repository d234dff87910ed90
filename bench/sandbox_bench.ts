/**
 * The sandbox's own start-up cost per case, measured alternately in the same run (median of 15
 * after one warm-up of each; nothing asserted about wall-clock):
 *
 * - a trivial process (`true`) started as a starter starts it (`openSandbox`, spawn, wait, close):
 *   no sandbox, `bubblewrap` with `network: none` (bwrap only) and with `network: model-only`
 *   (bwrap, the relay process outside and the forwarder inside);
 * - with the real Claude Code and Gemini CLI installed (tests/_helpers/agent_clis.ts): a one-turn
 *   case through `runEval` against each one's loopback mock, `sandbox: none` vs the default
 *   sandbox (median of 5).
 *
 * Run: `deno run --allow-read --allow-write --allow-env --allow-net=127.0.0.1 --allow-run
 * bench/sandbox_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { openSandbox } from "../lib/targets/sandbox_launch.ts";
import type { SandboxPolicy } from "../lib/targets/sandbox_policy.ts";
import type { NetworkMode } from "../lib/schema/sandbox.ts";
import { runEval } from "../lib/run/run_eval.ts";
import { locateAgentCli } from "../tests/_helpers/agent_clis.ts";
import { startAnthropicSseServer } from "../tests/_helpers/anthropic_sse_server.ts";
import { startGeminiSseServer } from "../tests/_helpers/gemini_sse_server.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One start of `true`: in a sandbox with `network`, or without one; ms to exit and clean up. */
async function startTrue(network: NetworkMode | undefined, dir: string): Promise<number> {
  const started = performance.now();
  const request = {
    argv: ["true"],
    env: { PATH, HOME: dir },
    cwd: dir,
    writable: [dir],
    endpoints: [{ host: "127.0.0.1", port: 9 }],
  };
  const policy: SandboxPolicy | undefined = network === undefined ? undefined : {
    mode: "bubblewrap",
    network,
    allowHosts: [],
    readOnly: [],
    writable: [],
  };
  const box = policy !== undefined ? await openSandbox(policy, request) : undefined;
  const [program, ...args] = box?.argv ?? request.argv;
  const status = await new Deno.Command(program, {
    args,
    cwd: dir,
    env: { ...(box?.env ?? request.env) },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  await box?.close();
  if (status.code !== 0) throw new Error(`${network ?? "none"}: exit ${status.code}`);
  return performance.now() - started;
}

/** Alternates the variants `rounds` times after a warm-up; the median of each. */
async function alternate<K extends string>(
  variants: Record<K, () => Promise<number>>,
  rounds: number,
): Promise<Record<K, number>> {
  const times = {} as Record<K, number[]>;
  const keys = Object.keys(variants) as K[];
  for (const k of keys) await variants[k]();
  for (let i = 0; i < rounds; i++) {
    for (const k of keys) (times[k] ??= []).push(await variants[k]());
  }
  return Object.fromEntries(keys.map((k) => [k, median(times[k])])) as Record<K, number>;
}

/** An agent CLI benchmarked through one case: its target settings, variables and mock server. */
interface AgentBench {
  /** Target settings besides the name and executable (JSON values are YAML). */
  target(serverUrl: string): Record<string, unknown>;
  /** Its variables (besides `PATH`, `HOME`, `TMPDIR`). */
  env(serverUrl: string): Record<string, string>;
  /** Its loopback model server, answering one text turn. */
  server(): AsyncDisposable & { url: string };
}

const AGENTS: Record<"claude" | "gemini", AgentBench> = {
  claude: {
    target: () => ({ provider: "claude-code" }),
    env: (url) => ({
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: "sk-bench",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    }),
    server: () => startAnthropicSseServer({ turns: [{ text: "hi" }] }),
  },
  gemini: {
    // Its auth type: in the case's home below (no sandbox), seeded by agentv (its sandbox).
    target: (url) => ({
      provider: "gemini-cli",
      model: "gemini-mock",
      base_url: url,
      args: ["--skip-trust"],
    }),
    env: () => ({ GEMINI_API_KEY: "gk-bench" }),
    server: () => startGeminiSseServer({ turns: [{ text: "hi" }] }),
  },
};

/** One case through an agent CLI: a single text turn from its mock, `sandbox` as given. */
async function agentCase(
  agent: AgentBench,
  executable: string,
  sandbox: "none" | "default",
): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "agentv-sandbox-bench-" });
  await using server = agent.server();
  try {
    for (const sub of [".agentv", "evals", ".git", ".gemini"]) await Deno.mkdir(join(dir, sub));
    await Deno.writeTextFile(
      join(dir, ".gemini/settings.json"),
      JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }),
    );
    const settings = {
      name: "default",
      ...agent.target(server.url),
      executable,
      ...(sandbox === "none" ? { sandbox: "none" } : {}),
    };
    await Deno.writeTextFile(
      join(dir, ".agentv/targets.yaml"),
      `targets:\n  - ${
        Object.entries(settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n    ")
      }\n`,
    );
    await Deno.writeTextFile(
      join(dir, "evals/a.yaml"),
      "evalcases:\n  - id: a\n    expected_outcome: x\n    input: hi\n    evaluators: [{type: contains, value: hi}]\n",
    );
    const started = performance.now();
    const { rows } = await runEval({
      files: [join(dir, "evals")],
      cwd: dir,
      env: { PATH, HOME: dir, TMPDIR: dir, ...agent.env(server.url) },
      allowRun: true,
      workers: 1,
    });
    if (rows[0]?.status !== "ok") throw new Error(`agent case: ${rows[0]?.error}`);
    return performance.now() - started;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const dir = await Deno.makeTempDir({ prefix: "agentv-sandbox-bench-" });
try {
  const start = await alternate({
    none: () => startTrue(undefined, dir),
    "bubblewrap, network none": () => startTrue("none", dir),
    "bubblewrap, network model-only": () => startTrue("model-only", dir),
  }, 15);
  console.log("Starting `true` (median of 15, ms):");
  for (const [name, ms] of Object.entries(start)) {
    console.log(`  ${name.padEnd(32)} ${ms.toFixed(1)}  (+${(ms - start.none).toFixed(1)})`);
  }
  for (const [name, label] of [["claude", "Claude Code"], ["gemini", "Gemini CLI"]] as const) {
    const cli = await locateAgentCli(name);
    if (cli.path === undefined) continue;
    const path = cli.path;
    const cases = await alternate({
      none: () => agentCase(AGENTS[name], path, "none"),
      "default sandbox": () => agentCase(AGENTS[name], path, "default"),
    }, 5);
    console.log(`A one-turn ${label} case through runEval (median of 5, ms):`);
    for (const [variant, ms] of Object.entries(cases)) {
      console.log(`  ${variant.padEnd(32)} ${ms.toFixed(1)}  (+${(ms - cases.none).toFixed(1)})`);
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
