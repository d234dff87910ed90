/**
 * Contract tests for issue 3 (`agentv run`, targets, runner, results, deterministic
 * evaluators), written black-box from the issue text and the README: only `mod.ts` exports and
 * the CLI (`runCli` with a buffer IO, or `main.ts` as a subprocess) are used.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { readResults, type ResultRow, runEval, type RunEvent } from "../../mod.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { createBufferIO, REPO_ROOT } from "../cli/_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const SECRET = "sk-test-SECRET-123";

/** A temp project with `.git` (the dataset root) and the given files. */
function project(files: Record<string, string>): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-c3-", git: true });
}

async function cli(
  args: string[],
  cwd: string,
  options: { env?: Record<string, string>; interruptAfterMs?: number } = {},
) {
  const io = createBufferIO({ cwd, env: options.env ?? {} });
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.interruptAfterMs !== undefined) {
    timer = setTimeout(() => io.interrupt(), options.interruptAfterMs);
  }
  try {
    const code = await runCli(args, io);
    return { code, out: io.out(), err: io.err() };
  } finally {
    clearTimeout(timer);
  }
}

async function rowsOf(path: string): Promise<ResultRow[]> {
  return (await readResults(path)).rows;
}

/** Runs eval files (relative to `dir`) through `runEval` and returns the rows in id order. */
async function lib(
  dir: string,
  files: string[],
  options: { targetOverride?: string; targetsFile?: string; timeoutMs?: number } = {},
): Promise<ResultRow[]> {
  const { rows } = await runEval({ files, env: {}, cwd: dir, timeoutMs: 5000, ...options });
  return rows.sort((a, b) => a.eval_id.localeCompare(b.eval_id));
}

function byId(rows: ResultRow[]): Record<string, ResultRow> {
  return Object.fromEntries(rows.map((r) => [r.eval_id, r]));
}

/** A YAML list of `contains` cases. */
function containsSuite(dataset: string, cases: [string, string][], extra = ""): string {
  return `dataset: ${dataset}\n${extra}evalcases:\n` +
    cases.map(([id, value]) =>
      `  - id: ${id}\n    expected_outcome: Mentions ${value}\n    input: Say ${value}\n` +
      `    evaluators:\n      - type: contains\n        value: ${JSON.stringify(value)}\n`
    ).join("");
}

const mockTargets = (response: string, extra = "") =>
  `targets:\n  - name: default\n    provider: mock\n    response: ${
    JSON.stringify(response)
  }\n${extra}`;

// ---------------------------------------------------------------------------------------------
// §1 the command: exit codes and options
// ---------------------------------------------------------------------------------------------

Deno.test("run: exit 0 when all pass, 1 on a fail verdict, `eval` is an alias", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris and ok"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["p2", "ok"]]),
    "evals/b.yaml": containsSuite("b", [["f1", "Berlin"]]),
  });
  const pass = await cli(["run", "evals/a.yaml", "--out", "a.jsonl"], p.dir);
  assert.equal(pass.code, 0, pass.err);
  // not a terminal: plain per-case lines
  assert.match(pass.out, /\[1\/2\].*p[12]/);
  assert.match(pass.out, /\[2\/2\].*p[12]/);
  const fail = await cli(["eval", "evals", "--out", "b.jsonl"], p.dir);
  assert.equal(fail.code, 1, fail.err);
  assert.equal((await rowsOf(join(p.dir, "b.jsonl"))).length, 3);
});

Deno.test("run: an evaluator error exits 1 even when the score is high", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": `evalcases:
  - id: e1
    expected_outcome: x
    input: x
    evaluators:
      - type: contains
        value: Paris
        weight: 5
      - type: code_judge
        script: ["sh", "-c", "exit 3"]
        weight: 0
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.status, "error");
  assert.match(row.error ?? "", /exit|code 3/);
});

Deno.test("run: --threshold gates on mean >= X and no error", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["p2", "Paris"], ["f1", "Rome"]]),
  });
  // mean = 2/3
  assert.equal((await cli(["run", "evals", "--threshold", "0.66", "-q"], p.dir)).code, 0);
  assert.equal((await cli(["run", "evals", "--threshold", "0.67", "-q"], p.dir)).code, 1);
  assert.equal((await cli(["run", "evals", "--threshold", "abc"], p.dir)).code, 2);
});

Deno.test("run: invalid cases are skipped, listed, and make the exit code 1", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": `evalcases:
  - id: good
    expected_outcome: Paris
    input: Capital?
    evaluators:
      - type: contains
        value: Paris
  - id: broken-weight
    expected_outcome: Paris
    input: Capital?
    evaluators:
      - type: contains
        value: Paris
        weight: -1
`,
  });
  const r = await cli(["run", "evals", "--json", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(rows.map((x) => x.eval_id), ["good"]);
  const summary = JSON.parse(r.out);
  assert.ok(JSON.stringify(summary.invalid).includes("broken-weight"));
});

Deno.test("run: exit 2 for usage, dataset and config errors before anything ran", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("x") + "  - name: other\n    provider: mock\n",
    "evals/a.yaml": containsSuite("a", [["p1", "x"]]),
    "evals/bad.yaml": "evalcases: [\n",
  });
  const cases: [string[], RegExp][] = [
    [["run"], /No eval files|file/i],
    [["run", "evals/a.yaml", "--workers", "0"], /--workers/],
    [["run", "evals/a.yaml", "--timeout", "-1"], /--timeout/],
    [["run", "evals/a.yaml", "--bogus"], /bogus/],
    [["run", "evals/missing.yaml"], /missing/],
    [["run", "evals/bad.yaml"], /bad\.yaml/],
    [["run", "evals/a.yaml", "--filter", "zzz*"], /zzz/],
    [["run", "evals/a.yaml", "--targets", "nope.yaml"], /nope\.yaml/],
  ];
  for (const [args, pattern] of cases) {
    const r = await cli(args, p.dir);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
    assert.match(r.err, pattern, args.join(" "));
  }
  // an unknown target lists the defined ones
  const unknown = await cli(["run", "evals/a.yaml", "--target", "gpt"], p.dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /gpt/);
  assert.match(unknown.err, /default/);
  assert.match(unknown.err, /other/);
  assert.deepEqual(
    [...Deno.readDirSync(p.dir)].map((e) => e.name).filter((n) => n.endsWith(".jsonl")),
    [],
  );
});

Deno.test("run: --out defaults to <root>/.agentv/results/<dataset>-<UTC timestamp>.jsonl", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("x"),
    "evals/deep/a.yaml": containsSuite("my-data", [["p1", "x"]]),
  });
  const before = Date.now();
  const r = await cli(["run", "deep/a.yaml"], join(p.dir, "evals"));
  assert.equal(r.code, 0, r.err);
  const files = [...Deno.readDirSync(join(p.dir, ".agentv", "results"))].map((e) => e.name);
  assert.equal(files.length, 1);
  const m = /^my-data-(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d)(?:-(\d{3}))?Z\.jsonl$/.exec(
    files[0],
  );
  assert.ok(m, files[0]);
  const stamp = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +(m[7] ?? 0));
  assert.ok(Math.abs(stamp - before) < 60_000, `timestamp ${files[0]} is UTC and current`);
  assert.match(r.out, /my-data-/);
});

Deno.test("run: --dry-run makes no network call and marks rows dry_run", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: \${{ NOT_SET_KEY }}\n    model: m\n`,
    "evals/a.yaml": containsSuite("a", [["p1", "answer"], ["p2", "zzz"]]),
  });
  const r = await cli(["run", "evals", "--dry-run", "--out", "o.jsonl"], p.dir);
  assert.equal(server.requests.length, 0);
  assert.equal(r.code, 1, r.err); // p2 fails against the mock answer
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(rows.length, 2);
  for (const row of rows) assert.equal(row.dry_run, true);
  assert.equal(byId(rows).p1.verdict, "pass");
});

Deno.test("run: --json prints a machine-readable summary on stdout", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["f1", "Rome"]]),
  });
  const r = await cli(["run", "evals", "--json", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1);
  const s = JSON.parse(r.out);
  assert.equal(s.total, 2);
  assert.deepEqual(s.verdicts, { pass: 1, borderline: 0, fail: 1 });
  assert.equal(s.scores.mean, 0.5);
  assert.equal(s.scores.median, 0.5);
  assert.equal(s.scores.min, 0);
  assert.equal(s.scores.max, 1);
  assert.ok(Math.abs(s.scores.stdev - Math.SQRT1_2) < 1e-9);
  assert.equal(s.histogram.length, 5);
  assert.equal(s.results_path, join(p.dir, "o.jsonl"));
  assert.ok(Array.isArray(s.slowest) && s.slowest.length === 2);
  assert.deepEqual(s.evaluators.map((e: { type: string; mean: number }) => [e.type, e.mean]), [[
    "contains",
    0.5,
  ]]);
});

Deno.test("run: --quiet prints only the summary", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["case-one", "Paris"], ["case-two", "Paris"]]),
  });
  const quiet = await cli(["run", "evals", "--quiet", "--out", "o.jsonl"], p.dir);
  assert.equal(quiet.code, 0);
  assert.doesNotMatch(quiet.out, /\[1\/2\]|\[2\/2\]/);
  assert.match(quiet.out, /o\.jsonl/);
  assert.equal(quiet.err, "");
});

Deno.test("run: Ctrl-C records in-flight cases as interrupted, prints the summary, exits 130", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris", "    delay_ms: 5000\n"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"], ["c2", "Paris"], ["c3", "Paris"]]),
  });
  const started = Date.now();
  const r = await cli(["run", "evals", "--workers", "2", "--out", "o.jsonl"], p.dir, {
    interruptAfterMs: 300,
  });
  assert.equal(r.code, 130, r.err);
  assert.ok(Date.now() - started < 3000, "aborts calls in flight");
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.equal(row.status, "error");
    assert.match(row.error ?? "", /interrupted/);
  }
  assert.match(r.out, /Summary|interrupted/i);
});

// ---------------------------------------------------------------------------------------------
// §2 targets
// ---------------------------------------------------------------------------------------------

Deno.test("targets: the nearest targets file wins; --targets overrides; .jsonc works", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("outer"),
    "evals/inner/.agentv/targets.jsonc":
      `// comment\n{"targets": [{"name": "default", "provider": "mock", "response": "inner"}]}`,
    "evals/inner/a.yaml": containsSuite("a", [["c1", "inner"]]),
    "evals/b.yaml": containsSuite("b", [["c2", "outer"]]),
    "other/t.yaml": mockTargets("explicit"),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const rows = byId(await rowsOf(join(p.dir, "o.jsonl")));
  assert.equal(rows.c1.candidate_answer, "inner");
  assert.equal(rows.c2.candidate_answer, "outer");
  const files = ["evals/inner/a.yaml", "evals/b.yaml"];
  for (const row of await lib(p.dir, files, { targetsFile: "other/t.yaml" })) {
    assert.equal(row.candidate_answer, "explicit");
  }
});

Deno.test("targets: the case's execution.target picks the target; --target overrides", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: mock\n    response: D\n  - name: alt\n    provider: mock\n    response: A\n  - name: third\n    provider: mock\n    response: T\n`,
    "evals/a.yaml": `execution:
  target: alt
evalcases:
  - id: file-level
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: x}]
  - id: case-level
    expected_outcome: x
    input: x
    execution:
      target: default
    evaluators: [{type: contains, value: x}]
`,
  });
  const rows = byId(await lib(p.dir, ["evals/a.yaml"]));
  assert.equal(rows["file-level"].target, "alt");
  assert.equal(rows["file-level"].candidate_answer, "A");
  assert.equal(rows["case-level"].target, "default");
  assert.equal(rows["case-level"].candidate_answer, "D");
  for (const row of await lib(p.dir, ["evals/a.yaml"], { targetOverride: "third" })) {
    assert.equal(row.target, "third");
    assert.equal(row.candidate_answer, "T");
  }
});

Deno.test("targets: ${{ VAR }} whole and embedded; process env > nearest .env > outer .env", async () => {
  await using p = await project({
    ".env": "WHOLE=root-whole\nPART=root-part\nONLY_ROOT=r\nPROC=root-proc\n",
    "evals/.env": "PART=near-part\nPROC=near-proc\n",
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: "\${{ WHOLE }}|pre-\${{PART}}-post|\${{ ONLY_ROOT }}|\${{ PROC }}"
  - name: broken
    provider: mock
    response: "\${{ NEVER_SET_VAR }}"
`,
    "evals/a.yaml": containsSuite("a", [["c1", "root-whole"]]),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir, { env: { PROC: "process" } });
  assert.equal(r.code, 0, r.err); // the broken target is never used: no error
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.candidate_answer, "root-whole|pre-near-part-post|r|process");
  const broken = await cli(["run", "evals", "--target", "broken"], p.dir);
  assert.equal(broken.code, 2);
  assert.match(broken.err, /NEVER_SET_VAR/);
  assert.match(broken.err, /broken/);
});

Deno.test("targets: `agentv validate` checks the targets file with file:line:col", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: nosuch\n",
    "evals/a.yaml": containsSuite("a", [["c1", "x"]]),
  });
  const r = await cli(["validate", "."], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out + r.err, /targets\.yaml:3:\d+/);
});

// ---------------------------------------------------------------------------------------------
// §2 providers' wire formats (through runEval with the public API)
// ---------------------------------------------------------------------------------------------

async function runOne(
  targetsYaml: string,
  options: { env?: Record<string, string>; evaluators?: string; fetch?: typeof fetch } = {},
) {
  await using p = await project({
    ".agentv/targets.yaml": targetsYaml,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: says hi
    input:
      - role: system
        content: Be brief.
      - role: user
        content: Say hi
    evaluators:
${options.evaluators ?? "      - type: contains\n        value: hi\n"}`,
  });
  const events: RunEvent[] = [];
  const out = join(p.dir, "o.jsonl");
  const result = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: options.env ?? {},
    cwd: p.dir,
    out,
    timeoutMs: 5000,
    onEvent: (e) => events.push(e),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const fileText = await Deno.readTextFile(out);
  return { ...result, events, fileText };
}

const FAST_RETRY = "    retry_initial_delay_ms: 10\n    retry_max_delay_ms: 50\n";

Deno.test("openai: Chat Completions at {base_url}/chat/completions, bearer key, usage read", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: "hi there", usage: { input: 11, output: 2 } }],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}/\n    api_key: \${{ OPENAI_API_KEY }}\n    model: gpt-x\n    temperature: 0.3\n    max_tokens: 77\n`,
    { env: { OPENAI_API_KEY: SECRET } },
  );
  const [req] = server.requests;
  assert.equal(req.method, "POST");
  assert.equal(req.path, "/v1/chat/completions");
  assert.equal(req.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(req.body.model, "gpt-x");
  assert.equal(req.body.temperature, 0.3);
  assert.equal(req.body.max_tokens, 77);
  assert.deepEqual(req.body.messages.map((m: { role: string }) => m.role).at(-1), "user");
  assert.ok(JSON.stringify(req.body.messages).includes("Say hi"));
  const [row] = rows;
  assert.equal(row.candidate_answer, "hi there");
  assert.deepEqual(row.token_usage, { input: 11, output: 2 });
  assert.equal(typeof row.duration_ms, "number");
  assert.equal(row.attempts, 1);
});

Deno.test("openai: base_url defaults to https://api.openai.com/v1", async () => {
  const urls: string[] = [];
  const fakeFetch: typeof fetch = (input) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return Promise.resolve(Response.json({
      choices: [{ message: { role: "assistant", content: "hi" } }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    }));
  };
  await runOne(
    `targets:\n  - name: default\n    provider: openai\n    api_key: k-123456\n    model: m\n`,
    { fetch: fakeFetch },
  );
  assert.deepEqual(urls, ["https://api.openai.com/v1/chat/completions"]);
});

Deno.test("azure: endpoint URL or resource name, deployment, default api-version, api-key header", async () => {
  await using server = startProviderServer("azure", { steps: ["hi"] });
  await runOne(
    `targets:\n  - name: default\n    provider: azure\n    endpoint: ${server.url}\n    api_key: ${SECRET}\n    model: my-deploy\n`,
  );
  const [req] = server.requests;
  assert.equal(req.path, "/openai/deployments/my-deploy/chat/completions");
  assert.equal(req.query["api-version"], "2024-12-01-preview");
  assert.equal(req.headers["api-key"], SECRET);
  const urls: string[] = [];
  const fakeFetch: typeof fetch = (input) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return Promise.resolve(Response.json({
      choices: [{ message: { role: "assistant", content: "hi" } }],
    }));
  };
  await runOne(
    `targets:\n  - name: default\n    provider: azure\n    endpoint: my-resource\n    api_key: k-1234\n    model: dep\n    version: 2025-01-01\n`,
    { fetch: fakeFetch },
  );
  assert.deepEqual(urls, [
    "https://my-resource.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2025-01-01",
  ]);
});

Deno.test("anthropic: Messages API at {base_url}/v1/messages, x-api-key, system, usage", async () => {
  await using server = startProviderServer("anthropic", {
    steps: [{ type: "reply", text: "hi", usage: { input: 9, output: 4 } }],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: anthropic\n    base_url: ${server.url}\n    api_key: ${SECRET}\n    model: claude-x\n    max_tokens: 2000\n    thinking_budget: 1024\n`,
  );
  const [req] = server.requests;
  assert.equal(req.path, "/v1/messages");
  assert.equal(req.headers["x-api-key"], SECRET);
  assert.ok(req.headers["anthropic-version"]);
  assert.equal(req.body.model, "claude-x");
  assert.equal(req.body.max_tokens, 2000);
  assert.equal(req.body.thinking?.budget_tokens, 1024);
  assert.ok(JSON.stringify(req.body.system ?? "").includes("Be brief."));
  assert.ok(!JSON.stringify(req.body.messages).includes('"system"'));
  assert.deepEqual(rows[0].token_usage, { input: 9, output: 4 });
  const urls: string[] = [];
  await runOne(
    `targets:\n  - name: default\n    provider: anthropic\n    api_key: k-1234\n    model: c\n`,
    {
      fetch: (input) => {
        urls.push(String(input));
        return Promise.resolve(Response.json({
          content: [{ type: "text", text: "hi" }],
          usage: { input_tokens: 1, output_tokens: 1 },
        }));
      },
    },
  );
  assert.deepEqual(urls, ["https://api.anthropic.com/v1/messages"]);
});

Deno.test("gemini: generateContent at {base_url}/v1beta/models/<model>, default model, usage", async () => {
  await using server = startProviderServer("gemini", {
    steps: [{ type: "reply", text: "hi", usage: { input: 5, output: 3 } }],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: gemini\n    base_url: ${server.url}\n    api_key: ${SECRET}\n`,
  );
  const [req] = server.requests;
  assert.equal(req.path, "/v1beta/models/gemini-2.5-flash:generateContent");
  assert.equal(req.headers["x-goog-api-key"], SECRET);
  assert.ok(Array.isArray(req.body.contents));
  assert.deepEqual(rows[0].token_usage, { input: 5, output: 3 });
  const urls: string[] = [];
  await runOne(
    `targets:\n  - name: default\n    provider: gemini\n    api_key: k-1234\n    model: gemini-pro\n`,
    {
      fetch: (input) => {
        urls.push(String(input));
        return Promise.resolve(Response.json({
          candidates: [{ content: { parts: [{ text: "hi" }] } }],
        }));
      },
    },
  );
  assert.deepEqual(urls.map((u) => u.split("?")[0]), [
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent",
  ]);
});

// ---------------------------------------------------------------------------------------------
// §4 retries
// ---------------------------------------------------------------------------------------------

Deno.test("retries: 429 honours Retry-After, 500/reset/malformed retried, attempts on rows", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      { type: "status", status: 429, retryAfter: "1" },
      { type: "status", status: 500 },
      { type: "reset" },
      { type: "malformed" },
      "hi",
    ],
  });
  const started = Date.now();
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    max_retries: 4\n${FAST_RETRY}`,
  );
  // Retry-After wins over retry_max_delay_ms (50 ms here), which only bounds agentv's own backoff
  const elapsed = Date.now() - started;
  assert.equal(server.requests.length, 5);
  assert.ok(elapsed >= 1000, `Retry-After 1s honoured (${elapsed}ms)`);
  assert.ok(elapsed < 4000, `${elapsed}ms`);
  assert.equal(rows[0].status, "ok", rows[0].error);
  assert.equal(rows[0].attempts, 5);
});

Deno.test("retries: 401 and 403 are never retried; exhausted retries become an error row", async () => {
  for (const status of [401, 403]) {
    await using server = startProviderServer("openai", {
      fallback: { type: "status", status },
    });
    const { rows } = await runOne(
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n${FAST_RETRY}`,
    );
    assert.equal(server.requests.length, 1);
    assert.equal(rows[0].status, "error");
    assert.equal(rows[0].attempts, 1);
    assert.match(rows[0].error ?? "", new RegExp(String(status)));
  }
  await using server = startProviderServer("openai", { fallback: { type: "status", status: 503 } });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    max_retries: 2\n${FAST_RETRY}`,
  );
  assert.equal(server.requests.length, 3);
  assert.equal(rows[0].attempts, 3);
  assert.equal(rows[0].status, "error");
});

Deno.test("retries: a hanging call is bounded by the timeout and retried", async () => {
  await using server = startProviderServer("openai", { steps: [{ type: "hang" }, "hi"] });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n${FAST_RETRY}`,
    "evals/a.yaml": containsSuite("a", [["c1", "hi"]]),
  });
  const started = Date.now();
  const r = await cli(["run", "evals", "--timeout", "0.3", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  assert.ok(Date.now() - started < 3000);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.attempts, 2);
});

Deno.test("retries: retry_status_codes replaces the retried statuses", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "status", status: 418 }, "hi"],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    retry_status_codes: [418]\n${FAST_RETRY}`,
  );
  assert.equal(rows[0].status, "ok");
  assert.equal(rows[0].attempts, 2);
});

// ---------------------------------------------------------------------------------------------
// §2 secrets
// ---------------------------------------------------------------------------------------------

Deno.test("secrets: a key from ${{ }} never appears in results, logs, errors or --verbose", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      { type: "status", status: 500, message: `bad key ${SECRET}` },
      { type: "reply", text: `echo ${SECRET}` },
    ],
    fallback: { type: "status", status: 401, message: `Incorrect API key provided: ${SECRET}` },
  });
  await using p = await project({
    ".env": `MY_API_KEY=${SECRET}\n`,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: \${{ MY_API_KEY }}
    model: m
    headers:
      x-custom-auth: "Token \${{ MY_API_KEY }}"
${FAST_RETRY}`,
    "evals/a.yaml": containsSuite("a", [["c1", "echo"], ["c2", "x"]]),
  });
  const r = await cli(["run", "evals", "--verbose", "--workers", "1", "--out", "o.jsonl"], p.dir);
  assert.equal(server.requests[0].headers.authorization, `Bearer ${SECRET}`);
  const file = await Deno.readTextFile(join(p.dir, "o.jsonl"));
  const rows = byId((await readResults(join(p.dir, "o.jsonl"))).rows);
  assert.equal(rows.c2.status, "error");
  for (const [where, text] of [["stdout", r.out], ["stderr", r.err], ["results", file]]) {
    assert.ok(!text.includes(SECRET), `${where} leaks the key:\n${text}`);
  }
});

// ---------------------------------------------------------------------------------------------
// §2 cli and mock providers
// ---------------------------------------------------------------------------------------------

Deno.test("cli: placeholders are shell-quoted; cwd is relative to the targets file; stdout answer", async () => {
  await using p = await project({
    "agent/reply.sh": `printf '%s|%s|%s|%s' "$(basename "$PWD")" "$1" "$2" "$3"\n`,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: sh reply.sh {EVAL_ID} {ATTEMPT} {PROMPT}
    cwd: ../agent
`,
    "evals/a.yaml": `evalcases:
  - id: quote-me
    expected_outcome: x
    input: "it's $(echo pwned) \`x\` \\"q\\" ; rm -rf /"
    evaluators: [{type: contains, value: x}]
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.status, "ok", row.error ?? r.err);
  const [dir, id, attempt, prompt] = row.candidate_answer.split("|");
  assert.equal(dir, "agent");
  assert.equal(id, "quote-me");
  assert.equal(attempt, "0");
  assert.ok(prompt.includes(`it's $(echo pwned) \`x\` "q" ; rm -rf /`), prompt);
});

Deno.test("cli: default cwd is the eval file's folder; {OUTPUT_FILE} JSON becomes the trace", async () => {
  const agent = `const [out] = Deno.args;
await Deno.writeTextFile(out, JSON.stringify({
  output_messages: [
    { role: "assistant", tool_calls: [{ tool: "search", input: { query: "weather", opts: { n: 3, lang: "en" } } }] },
    { role: "assistant", content: "It is sunny in " + Deno.cwd().split("/").pop() },
  ],
  token_usage: { input: 12, output: 5 },
  cost_usd: 0.01,
  duration_ms: 42,
}));
console.log("this stdout is ignored");
`;
  await using p = await project({
    "evals/agent.ts": agent,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: ${Deno.execPath()} run --quiet --allow-all agent.ts {OUTPUT_FILE}
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: weather?
    evaluators:
      - type: contains
        value: sunny in evals
      - type: tool_trajectory
        mode: exact
        expected:
          - tool: search
            args: {opts: {n: 3}}
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.candidate_answer, "It is sunny in evals");
  assert.equal(row.score, 1);
  assert.deepEqual(row.token_usage, { input: 12, output: 5 });
  assert.equal(row.trace_summary?.cost_usd, 0.01);
  assert.equal(row.trace_summary?.tool_calls_by_name?.search, 1);
  assert.equal(row.output_messages.length, 2);
});

Deno.test("cli: a CLI target is bounded by --timeout and a failing command is an error row", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: slow
    provider: cli
    command_template: sleep 5
    max_retries: 0
  - name: failing
    provider: cli
    command_template: sh -c 'echo boom-detail >&2; exit 4'
    max_retries: 0
`,
    "evals/a.yaml": containsSuite("a", [["c1", "x"]]),
  });
  const started = Date.now();
  const [s] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "slow", timeoutMs: 300 });
  assert.ok(Date.now() - started < 3000, "the CLI call was killed at the timeout");
  assert.equal(s.status, "error");
  assert.match(s.error ?? "", /time/i);
  const [f] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "failing" });
  assert.equal(f.status, "error");
  assert.match(f.error ?? "", /boom-detail/);
});

Deno.test("mock: response object, echo, tool_calls, delay_ms", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: obj
    provider: mock
    response: {answer: 42, nested: {camelKey: true}}
  - name: echo
    provider: mock
    echo: true
  - name: tools
    provider: mock
    response: done
    delay_ms: 150
    tool_calls:
      - tool: lookup
        input: {id: 7}
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: Echo this please
    evaluators: [{type: is_json}]
`,
  });
  const [obj] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "obj" });
  assert.deepEqual(JSON.parse(obj.candidate_answer), { answer: 42, nested: { camelKey: true } });
  assert.equal(obj.score, 1);
  const [echo] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "echo" });
  assert.match(echo.candidate_answer, /Echo this please/);
  const [tools] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "tools" });
  assert.equal(tools.candidate_answer, "done");
  assert.equal(tools.trace_summary?.tool_calls_by_name?.lookup, 1);
  assert.ok(tools.duration_ms >= 140, `duration ${tools.duration_ms}`);
});

// ---------------------------------------------------------------------------------------------
// §3 evaluators, exact numbers
// ---------------------------------------------------------------------------------------------

/** Runs one case against a mock target with the given tool calls and answer. */
async function evaluate(
  answer: string,
  evaluators: string,
  options: { toolCalls?: string; files?: Record<string, string>; extraCase?: string } = {},
) {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ${JSON.stringify(answer)}
${options.toolCalls ? `    tool_calls:\n${options.toolCalls}` : ""}`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: question
${options.extraCase ?? ""}    evaluators:
${evaluators}`,
    ...options.files,
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    timeoutMs: 5000,
  });
  return rows[0];
}

const TRACE = `      - {tool: search, input: {q: weather, opts: {n: 3, lang: en}}}
      - {tool: fetch, input: {url: a}}
      - {tool: fetch, input: {url: b}}
      - {tool: summarize, input: {}}
`;

Deno.test("tool_trajectory: any_order with minimums", async () => {
  const ok = await evaluate(
    "x",
    "      - type: tool_trajectory\n        mode: any_order\n        minimums: {fetch: 2, search: 1}\n",
    { toolCalls: TRACE },
  );
  assert.equal(ok.score, 1);
  const half = await evaluate(
    "x",
    "      - type: tool_trajectory\n        mode: any_order\n        minimums: {fetch: 3, search: 1}\n",
    { toolCalls: TRACE },
  );
  assert.equal(half.score, 0.5);
  assert.equal(half.evaluator_results[0].misses.length, 1);
});

Deno.test("tool_trajectory: in_order keeps searching past a same-named call with other args", async () => {
  const r = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
          - tool: fetch
            args: {url: b}
          - tool: summarize
`,
    { toolCalls: TRACE },
  );
  assert.equal(r.score, 1);
  const wrongOrder = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: summarize
          - tool: search
`,
    { toolCalls: TRACE },
  );
  assert.equal(wrongOrder.score, 0.5);
});

Deno.test("tool_trajectory: exact with extra calls scores below 1", async () => {
  const r = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: exact
        expected:
          - tool: search
          - tool: fetch
          - tool: fetch
`,
    { toolCalls: TRACE },
  );
  assert.ok(r.score < 1, `score ${r.score}`);
  assert.equal(r.score, 0.75);
  const full = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: exact
        expected:
          - {tool: search, args: any}
          - {tool: fetch, input: {url: a}}
          - {tool: fetch, args: {url: b}}
          - {tool: summarize}
`,
    { toolCalls: TRACE },
  );
  assert.equal(full.score, 1);
});

Deno.test("tool_trajectory: args match partially and recursively; mismatches are misses", async () => {
  const match = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
            args: {opts: {n: 3}}
`,
    { toolCalls: TRACE },
  );
  assert.equal(match.score, 1);
  const nested = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
            args: {opts: {n: 4}}
`,
    { toolCalls: TRACE },
  );
  assert.equal(nested.score, 0);
  assert.equal(nested.verdict, "fail");
  assert.equal(nested.evaluator_results[0].misses.length, 1);
});

Deno.test("contains / equals / regex / is_json / json_schema: exact scores", async () => {
  const answer = '{"city": "Paris", "temp": 21}';
  const r = await evaluate(
    answer,
    `      - {name: c-all, type: contains, values: [Paris, temp, Rome, Oslo], mode: all}
      - {name: c-any, type: contains, values: [Rome, paris], mode: any, case_sensitive: false}
      - {name: c-case, type: contains, value: paris}
      - {name: eq, type: equals, value: {temp: 21, city: Paris}}
      - {name: eq-str, type: equals, value: "nope"}
      - {name: re, type: regex, pattern: '"temp":\\s*\\d+'}
      - {name: re-flags, type: regex, pattern: 'PARIS', flags: i}
      - {name: js, type: is_json}
      - name: schema-ok
        type: json_schema
        schema: {type: object, required: [city, temp], properties: {temp: {type: number}}}
      - name: schema-bad
        type: json_schema
        schema: {type: object, required: [country]}
`,
  );
  const scores = Object.fromEntries(r.evaluator_results.map((e) => [e.name, e.score]));
  assert.deepEqual(scores, {
    "c-all": 0.5,
    "c-any": 1,
    "c-case": 0,
    eq: 1,
    "eq-str": 0,
    re: 1,
    "re-flags": 1,
    js: 1,
    "schema-ok": 1,
    "schema-bad": 0,
  });
  assert.equal(r.score, 0.65);
  const notJson = await evaluate("not json", "      - {type: is_json}\n");
  assert.equal(notJson.score, 0);
  assert.equal(notJson.status, "ok");
});

Deno.test("evaluator results have the documented shape; case score formula and verdicts", async () => {
  const r = await evaluate(
    "Paris",
    `      - {name: a, type: contains, value: Paris, weight: 3}
      - {name: b, type: contains, value: Rome, weight: 1}
      - {name: c, type: contains, value: Oslo, weight: 0}
`,
  );
  assert.equal(r.score, 0.75);
  assert.equal(r.verdict, "borderline");
  assert.equal(r.status, "ok");
  for (const e of r.evaluator_results) {
    for (const key of ["name", "type", "status", "score", "weight", "verdict", "hits", "misses"]) {
      assert.ok(key in e, `${key} on ${JSON.stringify(e)}`);
    }
  }
  assert.deepEqual(r.evaluator_results.map((e) => [e.name, e.weight, e.verdict]), [
    ["a", 3, "pass"],
    ["b", 1, "fail"],
    ["c", 0, "fail"],
  ]);
  const pass = await evaluate(
    "Paris",
    "      - {type: contains, value: Paris, weight: 4}\n      - {type: contains, value: X}\n",
  );
  assert.equal(pass.score, 0.8);
  assert.equal(pass.verdict, "pass");
  const fail = await evaluate(
    "Paris",
    "      - {type: contains, values: [Paris, x, y, z, w], mode: all}\n",
  );
  assert.equal(fail.score, 0.2);
  assert.equal(fail.verdict, "fail");
  const b = await evaluate(
    "Paris",
    "      - {type: contains, values: [Paris, P, a, b, c], mode: all}\n",
  );
  assert.equal(b.score, 0.6);
  assert.equal(b.verdict, "borderline");
});

Deno.test("a case with no evaluators and no judge is a clear error, not a silent pass", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("anything"),
    "evals/a.yaml": "evalcases:\n  - id: c1\n    expected_outcome: x\n    input: q\n",
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.status, "error");
  assert.match(row.error ?? "", /judge/);
  assert.equal(row.evaluator_results[0].type, "llm_judge");
  assert.equal(row.evaluator_results[0].status, "error");
});

// ---------------------------------------------------------------------------------------------
// §3 code_judge
// ---------------------------------------------------------------------------------------------

Deno.test("code_judge: receives the payload with user keys untouched; logs before the JSON", async () => {
  const judge = `const input = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log("log line one");
console.log("{ not json");
console.log(JSON.stringify({
  score: 0.7,
  hits: ["got " + input.candidate_answer],
  misses: [],
  reasoning: "fine",
  details: { echo_config: input.config, expected: input.expected_output, myCamel: 1 },
}));
`;
  const r = await evaluate(
    "Paris",
    `      - type: code_judge
        script: ["${Deno.execPath()}", "run", "--quiet", "--allow-all", "judge.ts"]
        maxLength: 5
        nested_cfg: {innerKey: 1}
`,
    {
      files: { "evals/judge.ts": judge },
      extraCase:
        "    expected_output:\n      - role: assistant\n        content: {cityName: Paris}\n",
    },
  );
  const e = r.evaluator_results[0];
  assert.equal(e.status, "ok", e.error);
  assert.equal(e.score, 0.7);
  assert.equal(e.verdict, "borderline");
  assert.deepEqual(e.hits, ["got Paris"]);
  assert.equal(e.reasoning, "fine");
  const details = e.details as Record<string, unknown>;
  assert.deepEqual(details.echo_config, { maxLength: 5, nested_cfg: { innerKey: 1 } });
  assert.ok(JSON.stringify(details.expected).includes("cityName"));
  assert.equal(details.myCamel, 1);
  assert.equal(r.score, 0.7);
});

Deno.test("code_judge: non-JSON reply or non-zero exit is an error with the stderr tail", async () => {
  const noJson = await evaluate(
    "x",
    `      - type: code_judge
        script: "echo oops-stdout; echo judge-stderr-detail >&2"
`,
  );
  assert.equal(noJson.status, "error");
  assert.equal(noJson.evaluator_results[0].status, "error");
  assert.match(noJson.evaluator_results[0].error ?? "", /judge-stderr-detail/);
  assert.equal(noJson.score, 0);
  const exit = await evaluate(
    "x",
    `      - type: code_judge
        script: "echo '{\\"score\\": 1}'; echo crash-detail >&2; exit 2"
`,
  );
  assert.equal(exit.status, "error");
  assert.match(exit.evaluator_results[0].error ?? "", /crash-detail/);
  assert.match(exit.error ?? "", /crash-detail/);
});

Deno.test("code_judge: a judge that runs too long is killed at the timeout", async () => {
  const started = Date.now();
  const r = await evaluate(
    "x",
    `      - type: code_judge
        script: "sleep 10"
        timeout_seconds: 0.3
`,
  );
  assert.ok(Date.now() - started < 4000);
  assert.equal(r.status, "error");
  assert.match(r.evaluator_results[0].error ?? "", /time/i);
});

// ---------------------------------------------------------------------------------------------
// §4 the runner
// ---------------------------------------------------------------------------------------------

Deno.test("runner: one pool across files; a target's workers caps its concurrency", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ok
    delay_ms: 150
  - name: capped
    provider: mock
    response: ok
    delay_ms: 100
    workers: 1
`,
    "evals/a.yaml": containsSuite("a", [["a1", "ok"], ["a2", "ok"]]),
    "evals/b.yaml": containsSuite("b", [["b1", "ok"], ["b2", "ok"]]),
  });
  let t = Date.now();
  const pooled = await runEval({
    files: [join(p.dir, "evals/a.yaml"), join(p.dir, "evals/b.yaml")],
    env: {},
    cwd: p.dir,
    workers: 4,
  });
  const pooledMs = Date.now() - t;
  assert.equal(pooled.rows.length, 4);
  assert.ok(pooledMs < 290, `4 cases of 150 ms with 4 workers took ${pooledMs}ms`);
  t = Date.now();
  const starts: string[] = [];
  await runEval({
    files: [join(p.dir, "evals/a.yaml"), join(p.dir, "evals/b.yaml")],
    env: {},
    cwd: p.dir,
    workers: 4,
    targetOverride: "capped",
    onEvent: (e) => e.type === "case_started" && starts.push(e.eval_id),
  });
  const cappedMs = Date.now() - t;
  assert.ok(cappedMs >= 390, `capped at 1 worker: ${cappedMs}ms`);
  assert.deepEqual(starts, ["a1", "a2", "b1", "b2"]);
});

Deno.test("runner: result rows carry exactly the documented fields", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: "Paris", usage: { input: 3, output: 1 } }],
  });
  const { rows, fileText, events } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n`,
    { evaluators: "      - {type: contains, value: Par}\n" },
  );
  const [row] = rows;
  for (
    const key of [
      "timestamp",
      "eval_id",
      "dataset",
      "target",
      "score",
      "hits",
      "misses",
      "candidate_answer",
      "evaluator_results",
      "trace_summary",
      "status",
      "verdict",
      "duration_ms",
      "token_usage",
      "output_messages",
      "attempts",
    ]
  ) assert.ok(key in row, `missing ${key}`);
  assert.ok(!Number.isNaN(Date.parse(row.timestamp)));
  assert.equal(row.dataset, "a");
  assert.equal(row.error, undefined);
  assert.equal(fileText.split("\n").filter(Boolean).length, 1);
  assert.deepEqual(JSON.parse(fileText), row);
  const finished = events.filter((e) => e.type === "case_finished");
  assert.equal(finished.length, 1);
  const runFinished = events.find((e) => e.type === "run_finished");
  assert.ok(runFinished);
});

Deno.test("runner: each row is flushed as its case finishes", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: fast
    provider: mock
    response: ok
  - name: slow
    provider: mock
    response: ok
    delay_ms: 400
`,
    "evals/a.yaml": `evalcases:
  - id: quick
    expected_outcome: x
    input: x
    execution: {target: fast}
    evaluators: [{type: contains, value: ok}]
  - id: lazy
    expected_outcome: x
    input: x
    execution: {target: slow}
    evaluators: [{type: contains, value: ok}]
`,
  });
  const out = join(p.dir, "o.jsonl");
  let seenWhileRunning: string | undefined;
  await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    out,
    onEvent: (e) => {
      if (e.type === "case_finished" && e.row.eval_id === "quick") {
        setTimeout(() => seenWhileRunning = Deno.readTextFileSync(out), 100);
      }
    },
  });
  assert.ok(seenWhileRunning !== undefined);
  const lines = seenWhileRunning.split("\n").filter(Boolean);
  assert.equal(lines.length, 1);
  assert.equal(JSON.parse(lines[0]).eval_id, "quick");
});

Deno.test("results reader skips a torn final line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "r.jsonl");
    const row = { eval_id: "a", score: 1, status: "ok" };
    await Deno.writeTextFile(path, JSON.stringify(row) + "\n" + '{"eval_id": "b", "sco');
    const { rows } = await readResults(path);
    assert.deepEqual(rows.map((r) => r.eval_id), ["a"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runner: after kill -9 every row already written is intact", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ok
  - name: slow
    provider: mock
    response: ok
    delay_ms: 30000
`,
    "evals/a.yaml": `evalcases:
${
      ["c1", "c2", "c3"].map((id) =>
        `  - id: ${id}\n    expected_outcome: x\n    input: x\n    evaluators: [{type: contains, value: ok}]\n`
      ).join("")
    }  - id: hang
    expected_outcome: x
    input: x
    execution: {target: slow}
    evaluators: [{type: contains, value: ok}]
`,
  });
  const out = join(p.dir, "o.jsonl");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "main.ts"), "run", "evals", "--out", out, "--quiet"],
    cwd: p.dir,
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const text = await Deno.readTextFile(out).catch(() => "");
      if (text.split("\n").filter(Boolean).length >= 3) break;
    }
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
  const text = await Deno.readTextFile(out);
  assert.ok(text.endsWith("\n"));
  const { rows, partial_line } = await readResults(out);
  assert.equal(partial_line, undefined);
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), ["c1", "c2", "c3"]);
});

Deno.test("runEval from mod.ts returns rows, summary and progress events", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["f1", "Rome"]]),
  });
  const events: RunEvent[] = [];
  const { rows, summary } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    onEvent: (e) => events.push(e),
  });
  assert.equal(rows.length, 2);
  assert.equal(summary.total, 2);
  assert.equal(summary.scores.mean, 0.5);
  assert.deepEqual(summary.verdicts, { pass: 1, borderline: 0, fail: 1 });
  assert.equal(events[0].type === "run_started" || events[0].type === "target_resolved", true);
  assert.equal(events.at(-1)?.type, "run_finished");
  assert.equal(events.filter((e) => e.type === "case_finished").length, 2);
});

// ---------------------------------------------------------------------------------------------
// more: progress, summary text, CLI details, key preservation, SIGINT, library redaction
// ---------------------------------------------------------------------------------------------

Deno.test("progress: a TTY gets one live line with done/total, counts, elapsed and ETA", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris", "    delay_ms: 60\n"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"], ["c2", "Rome"], ["c3", "Paris"]]),
  });
  const io = createBufferIO({ cwd: p.dir, isTTY: true });
  const code = await runCli(["run", "evals", "--workers", "1", "--out", "o.jsonl"], io);
  assert.equal(code, 1);
  const out = io.out();
  assert.match(out, /\r/);
  assert.match(out, /[012]\/3 {2}pass/);
  assert.match(out, /3\/3/);
  assert.match(out, /ETA/);
  assert.doesNotMatch(out, /\n\[1\/3\]/);
});

Deno.test("summary text lists errors with reasons and skipped invalid cases", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": `evalcases:
  - id: judge-crash
    expected_outcome: x
    input: x
    evaluators:
      - type: code_judge
        script: "echo distinctive-crash-reason >&2; exit 9"
  - id: bad-one
    expected_outcome: x
    input: x
    evaluators:
      - type: regex
        pattern: "("
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1);
  const text = r.out + r.err;
  assert.match(text, /judge-crash/);
  assert.match(text, /distinctive-crash-reason/);
  assert.match(text, /bad-one/);
});

Deno.test("cli: {FILES}, {GUIDELINES}, JSON `text` on stdout, and a healthcheck", async () => {
  await using p = await project({
    "evals/notes.md": "some notes",
    "evals/style.instructions.md": "Be terse.",
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: >-
      printf '{"text": "%s", "token_usage": {"input": 1, "output": 2}}' "$(echo {FILES})"
    files_format: "[{basename}]"
    healthcheck:
      type: command
      command_template: touch healthy.flag
  - name: guide
    provider: cli
    command_template: printf '%s' {GUIDELINES}
  - name: unhealthy
    provider: cli
    command_template: echo hi
    healthcheck:
      type: command
      command_template: exit 1
`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input:
      - role: user
        content:
          - {type: text, value: "Summarise"}
          - {type: file, value: notes.md}
          - {type: file, value: style.instructions.md}
    evaluators: [{type: contains, value: notes.md}]
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(row.candidate_answer.split(" ").sort(), [
    "[notes.md]",
    "[style.instructions.md]",
  ]);
  assert.deepEqual(row.token_usage, { input: 1, output: 2 });
  await Deno.stat(join(p.dir, "evals", "healthy.flag"));
  const [g] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "guide" });
  assert.match(g.candidate_answer, /Be terse\./);
  const [u] = await lib(p.dir, ["evals/a.yaml"], { targetOverride: "unhealthy" });
  assert.equal(u.status, "error");
  assert.match(u.error ?? "", /healthcheck/i);
});

Deno.test("user data keys are never rewritten in rows (tool inputs, tool names, details)", async () => {
  const judge = `const input = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log(JSON.stringify({ score: 1, details: { seen: input.output_messages, summary: input.trace_summary } }));
`;
  const r = await evaluate(
    "ok",
    `      - type: code_judge
        script: ["${Deno.execPath()}", "run", "--quiet", "--allow-all", "judge.ts"]
`,
    {
      files: { "evals/judge.ts": judge },
      toolCalls: "      - {tool: knowledgeSearch, input: {filePath: a.md, riskLevel: HIGH}}\n",
    },
  );
  assert.equal(r.status, "ok", r.error);
  const text = JSON.stringify(r);
  for (const key of ["knowledgeSearch", "filePath", "riskLevel"]) {
    assert.ok(text.includes(key), key);
  }
  assert.ok(
    !text.includes("file_path") && !text.includes("risk_level") &&
      !text.includes("knowledge_search"),
  );
  assert.equal(r.trace_summary?.tool_calls_by_name?.knowledgeSearch, 1);
});

Deno.test("runEval without `out` still never returns the secret in rows or summary", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: `leaked ${SECRET}` }],
    fallback: { type: "status", status: 401, message: `bad key ${SECRET}` },
  });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: \${{ OPENAI_API_KEY }}\n    model: m\n`,
    "evals/a.yaml": containsSuite("a", [["c1", "leaked"], ["c2", "x"]]),
  });
  const events: RunEvent[] = [];
  const result = await runEval({
    files: ["evals/a.yaml"],
    env: { OPENAI_API_KEY: SECRET },
    cwd: p.dir,
    workers: 1,
    onEvent: (e) => events.push(e),
  });
  const text = JSON.stringify({ result, events });
  assert.ok(!text.includes(SECRET), text);
});

Deno.test("SIGINT to the CLI: partial summary, interrupted rows, exit 130", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris", "    delay_ms: 20000\n"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"], ["c2", "Paris"]]),
  });
  const out = join(p.dir, "o.jsonl");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "main.ts"), "run", "evals", "--out", out],
    cwd: p.dir,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  // wait until the cases are in flight
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if ((await Deno.stat(out).catch(() => undefined)) !== undefined) break;
  }
  await new Promise((r) => setTimeout(r, 200));
  child.kill("SIGINT");
  const { code, stdout } = await output;
  assert.equal(code, 130);
  assert.match(new TextDecoder().decode(stdout), /Summary/);
  const rows = await rowsOf(out);
  assert.equal(rows.length, 2);
  for (const row of rows) assert.match(row.error ?? "", /interrupted/);
});

Deno.test("HTTP providers' tool calls become the trace that tool_trajectory grades", async () => {
  for (const kind of ["openai", "anthropic", "gemini"] as const) {
    await using server = startProviderServer(kind, {
      steps: [{
        type: "reply",
        text: "hi",
        toolCalls: [{ name: "lookupOrder", input: { orderId: 7, opts: { deep: true } } }],
      }],
    });
    const { rows } = await runOne(
      `targets:\n  - name: default\n    provider: ${kind}\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n`,
      {
        evaluators: `      - type: tool_trajectory
        mode: exact
        expected:
          - tool: lookupOrder
            input: {orderId: 7}
`,
      },
    );
    assert.equal(rows[0].score, 1, `${kind}: ${JSON.stringify(rows[0].evaluator_results)}`);
    const calls = rows[0].output_messages.flatMap((m) => m.tool_calls ?? []);
    assert.deepEqual(calls.map((c) => [c.tool, c.input]), [[
      "lookupOrder",
      { orderId: 7, opts: { deep: true } },
    ]]);
  }
});

Deno.test("run: an invalid targets file is exit 2 with file:line:col; conversation_id is copied", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    workers: lots\n",
    "evals/a.yaml":
      "evalcases:\n  - id: c1\n    conversation_id: conv-9\n    expected_outcome: x\n    input: x\n    evaluators: [{type: contains, value: Mock}]\n",
  });
  const r = await cli(["run", "evals"], p.dir);
  assert.equal(r.code, 2);
  assert.match(r.err, /targets\.yaml:4:\d+/);
  await Deno.writeTextFile(join(p.dir, ".agentv/targets.yaml"), mockTargets("Mock"));
  const [row] = await lib(p.dir, ["evals/a.yaml"]);
  assert.equal(row.conversation_id, "conv-9");
});
