/** CLI: `agentv run` options (`--out`, `--dry-run`, `--json`, `--quiet`). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { byId, cli, containsSuite, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";

Deno.test("run: --out defaults to <root>/.agentv/results/<dataset>-<UTC timestamp>.jsonl", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("x"),
    "evals/deep/a.yaml": containsSuite("my-data", [["p1", "x"]]),
  });
  // The clock is injected: the name is exact (UTC, `:` and `.` replaced by `-`).
  const now = Date.UTC(2026, 10, 26, 1, 2, 3, 456);
  const r = await cli(["run", "deep/a.yaml"], join(p.dir, "evals"), { now });
  assert.equal(r.code, 0, r.err);
  const files = [...Deno.readDirSync(join(p.dir, ".agentv", "results"))].map((e) => e.name);
  // The results file and its run record beside it.
  assert.deepEqual(files.sort(), [
    "my-data-2026-11-26T01-02-03-456Z.jsonl",
    "my-data-2026-11-26T01-02-03-456Z.jsonl.run.json",
  ]);
  assert.match(r.out, /my-data-2026-11-26T01-02-03-456Z\.jsonl/);
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
  assert.equal(r.code, 0, r.err); // p2 fails against the mock answer: no failure of a dry run
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
