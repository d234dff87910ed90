import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { readResults } from "../../lib/results/read_results.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { createBufferIO } from "./_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const commands = [runCommand];

/** A temp repo: `.agentv/targets.yaml` plus the given files. */
function repo(files: Record<string, string>): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-run-" });
}

const MOCK_TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: ok, Paris\n";

const SUITE = `dataset: demo
evalcases:
  - id: pass-1
    expected_outcome: Says ok
    input: Say ok
    evaluators:
      - type: contains
        value: ok
  - id: pass-2
    expected_outcome: Says Paris
    input: Capital of France?
    evaluators:
      - type: contains
        value: Paris
  - id: fail-1
    expected_outcome: Says Berlin
    input: Capital of Germany?
    evaluators:
      - type: contains
        value: Berlin
`;

async function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const io = createBufferIO({ cwd, env });
  const code = await runCli(args, io, { commands });
  return { code, out: io.out(), err: io.err() };
}

Deno.test("agentv run exits 0 when every case passes and 1 when a verdict is fail", async () => {
  await using r = await repo({ ".agentv/targets.yaml": MOCK_TARGETS, "evals/suite.yaml": SUITE });
  const ok = await cli(
    ["run", "evals/suite.yaml", "--filter", "pass-*", "--out", "a.jsonl"],
    r.dir,
  );
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /\[2\/2\] pass/);
  assert.match(ok.out, /Results: +a\.jsonl/);
  assert.deepEqual((await readResults(join(r.dir, "a.jsonl"))).rows.map((x) => x.eval_id).sort(), [
    "pass-1",
    "pass-2",
  ]);
  const failing = await cli(["eval", "evals/", "--out", "b.jsonl"], r.dir);
  assert.equal(failing.code, 1);
  assert.match(failing.out, /fail 1/);
});

Deno.test("agentv run --threshold gates on the mean score instead of fail verdicts", async () => {
  await using r = await repo({ ".agentv/targets.yaml": MOCK_TARGETS, "evals/suite.yaml": SUITE });
  // scores 1, 1, 0 → mean 0.667
  assert.equal((await cli(["run", "evals", "--threshold", "0.6", "-q"], r.dir)).code, 0);
  assert.equal((await cli(["run", "evals", "--threshold", "0.7", "-q"], r.dir)).code, 1);
  const bad = await cli(["run", "evals", "--threshold", "7"], r.dir);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--threshold must be a score between 0 and 1/);
});

Deno.test("agentv run writes the default results file under the root's .agentv/results", async () => {
  await using r = await repo({ ".agentv/targets.yaml": MOCK_TARGETS, "evals/suite.yaml": SUITE });
  const { code } = await cli(["run", "suite.yaml", "--quiet"], join(r.dir, "evals"));
  assert.equal(code, 1);
  const names = [...Deno.readDirSync(join(r.dir, ".agentv", "results"))].map((e) => e.name).sort();
  assert.equal(names.length, 2, "the results file and its run record");
  assert.match(names[0], /^demo-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.jsonl$/);
  assert.equal(names[1], `${names[0]}.run.json`);
});

Deno.test("agentv run exits 2 on usage, config and dataset errors before anything runs", async () => {
  await using r = await repo({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/suite.yaml": SUITE,
    "broken/bad.yaml": "evalcases: [\n",
    "other/x.yaml": SUITE.replace("dataset: demo", "dataset: demo\nexecution:\n  target: nope"),
  });
  // Without a path, the current folder: here it holds a broken file, so nothing runs.
  const none = await cli(["run"], r.dir);
  assert.equal(none.code, 2);
  assert.match(none.err, /broken\/bad\.yaml/);
  const missing = await cli(["run", "nothing/here.yaml"], r.dir);
  assert.equal(missing.code, 2);
  const workers = await cli(["run", "evals", "--workers", "0"], r.dir);
  assert.equal(workers.code, 2);
  assert.match(workers.err, /--workers must be an integer/);
  const unknown = await cli(["run", "evals", "--target", "nope"], r.dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /nope/);
  assert.match(unknown.err, /default/);
  const broken = await cli(["run", "broken/bad.yaml"], r.dir);
  assert.equal(broken.code, 2);
  assert.match(broken.err, /bad\.yaml:\d+/);
  const filter = await cli(["run", "evals", "--filter", "zzz*"], r.dir);
  assert.equal(filter.code, 2);
  assert.match(filter.err, /zzz\*/);
  // Nothing ran: no results were written by any of them.
  assert.equal(
    await Deno.stat(join(r.dir, ".agentv", "results")).then(() => true, () => false),
    false,
  );
});

Deno.test("agentv run lists invalid cases it skipped and exits 1", async () => {
  await using r = await repo({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/suite.yaml": SUITE.replace("value: Berlin", "value: Berlin\n        weight: -1")
      .replace("  - id: pass-2\n", "  - id: pass-2\n    notez: typo\n"),
  });
  const { code, out, err } = await cli(["run", "evals", "--filter", "pass-*"], r.dir);
  assert.equal(code, 1);
  assert.match(err, /suite\.yaml:\d+:\d+: warning: .*notez/); // a warning that skipped nothing
  assert.match(out, /Invalid cases skipped/);
  assert.match(out, /suite\.yaml:\d+:\d+: .*weight/);
});

Deno.test("agentv run --dry-run makes no network call and marks rows dry_run", async () => {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    requests++;
    return new Response("{}");
  });
  try {
    await using r = await repo({
      ".agentv/targets.yaml":
        `targets:\n  - name: default\n    provider: openai\n    base_url: http://127.0.0.1:${server.addr.port}/v1\n    api_key: \${{ NOT_SET_ANYWHERE }}\n    model: m\n`,
      "evals/suite.yaml": SUITE,
    });
    const { code, out } = await cli(
      ["run", "evals", "--dry-run", "--out", "r.jsonl", "--json"],
      r.dir,
    );
    assert.equal(requests, 0);
    // The mock answer fails the contains checks: not a failure of a dry run, which checks wiring.
    assert.equal(code, 0);
    const summary = JSON.parse(out);
    assert.equal(summary.dry_run, true);
    assert.equal(summary.total, 3);
    assert.ok(summary.verdicts.fail > 0);
    const { rows } = await readResults(join(r.dir, "r.jsonl"));
    assert.ok(rows.every((x) => x.dry_run === true));
  } finally {
    await server.shutdown();
  }
});

Deno.test("agentv run --json prints only the JSON summary on stdout", async () => {
  await using r = await repo({ ".agentv/targets.yaml": MOCK_TARGETS, "evals/suite.yaml": SUITE });
  const { code, out, err } = await cli(["run", "evals", "--json"], r.dir);
  assert.equal(code, 1);
  const summary = JSON.parse(out);
  assert.deepEqual(summary.verdicts, { pass: 2, borderline: 0, fail: 1 });
  assert.ok(summary.results_path.endsWith(".jsonl"));
  assert.match(err, /\[3\/3\]/); // progress went to stderr
});

Deno.test("agentv run never prints or writes a secret from ${{ }}, even with --verbose", async () => {
  const secret = "sk-test-SECRET-123";
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    await req.text();
    const auth = req.headers.get("authorization");
    // First call: an error echoing the credential; then answers that also echo it.
    if (n++ === 0) {
      return Response.json({ error: { message: `invalid key ${auth}` } }, { status: 400 });
    }
    return Response.json({
      choices: [{ message: { role: "assistant", content: `ok (${secret})` } }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
  });
  try {
    await using r = await repo({
      ".agentv/targets.yaml":
        `targets:\n  - name: default\n    provider: openai\n    base_url: http://127.0.0.1:${server.addr.port}/v1\n    api_key: \${{ OPENAI_API_KEY }}\n    model: m\n`,
      "evals/suite.yaml": SUITE,
    });
    const out = join(r.dir, "r.jsonl");
    const result = await cli(
      // --allow-run: ${{ OPENAI_API_KEY }} goes to a loopback server (the dataset's targets file).
      ["run", "evals", "--verbose", "--workers", "1", "--allow-run", "--out", out],
      r.dir,
      { OPENAI_API_KEY: secret },
    );
    const { out: stdout, err: stderr } = result;
    const results = await Deno.readTextFile(out);
    assert.equal(result.code, 1, stderr);
    assert.ok(n >= 3, "the target was called");
    assert.ok(!stdout.includes(secret), "stdout");
    assert.ok(!stderr.includes(secret), "stderr");
    assert.ok(!results.includes(secret), "results file");
    assert.match(results, /\*\*\*/);
  } finally {
    await server.shutdown();
  }
});

/** A row with run-specific values (time, duration) blanked. */
function comparable(row: ResultRow): ResultRow {
  return { ...row, timestamp: "T", duration_ms: 0, run_id: "R" };
}

Deno.test("CLI works with both formats", async () => {
  const cases = [
    {
      id: "one",
      expected_outcome: "Says ok",
      input: "Say ok",
      evaluators: [{ type: "contains", value: "ok" }],
    },
    {
      id: "two",
      expected_outcome: "Says Paris",
      input: [{ role: "user", content: "Capital of France?" }],
      evaluators: [{ type: "regex", pattern: "Par" }],
    },
  ];
  const yamlCases = `dataset: both\nevalcases:\n${
    cases.map((c) =>
      `  - id: ${c.id}\n    expected_outcome: ${c.expected_outcome}\n    input: ${
        JSON.stringify(c.input)
      }\n    evaluators: ${JSON.stringify(c.evaluators)}\n`
    ).join("")
  }`;
  await using r = await repo({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/test.jsonl": cases.map((c) => JSON.stringify(c)).join("\n") + "\n",
    "evals/test.yaml": "dataset: both\n", // the JSONL's sidecar
    "evals/suite.yaml": yamlCases,
  });
  const jsonl = await cli(["run", "evals/test.jsonl", "--out", "jsonl.jsonl"], r.dir);
  assert.equal(jsonl.code, 0, jsonl.err);
  const yaml = await cli(["run", "evals/suite.yaml", "--out", "yaml.jsonl"], r.dir);
  assert.equal(yaml.code, 0, yaml.err);
  const fromJsonl = (await readResults(join(r.dir, "jsonl.jsonl"))).rows;
  const fromYaml = (await readResults(join(r.dir, "yaml.jsonl"))).rows;
  assert.equal(fromJsonl.length, 2);
  const byId = (rows: ResultRow[]) =>
    Object.fromEntries(rows.map((x) => [x.eval_id, comparable(x)]));
  assert.deepEqual(byId(fromJsonl), byId(fromYaml));
  assert.deepEqual(Object.keys(fromJsonl[0]), Object.keys(fromYaml[0]));
  // The console output has the same shape too. Durations are real (the clock is not injected):
  // they are blanked, and the "Slowest" list, ordered by them, is compared as a set.
  const norm = (text: string) =>
    text.replace(/\d+(\.\d+)?m?s\b/g, "<t>").replace(/\w+\.jsonl/g, "<f>")
      .replace(/\[\d\/2\].*\n/g, "")
      .replace(
        /( {2}Slowest:\n)((?: {4,}.*\n)+)/,
        (_, head: string, body: string) =>
          head + body.trim().split("\n").map((l) => `    ${l.trim()}`).sort().join("\n") + "\n",
      );
  assert.equal(norm(jsonl.out), norm(yaml.out));
});
