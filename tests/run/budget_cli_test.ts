/**
 * `agentv run --budget-usd X` (and `budget_usd` in `.agentv/config.yaml`) in-process: a run the
 * cap stops exits 1 and its summary says what was spent of the cap; unpriced calls are warned
 * about. Prices are $1 per token, so amounts are whole dollars computed by hand.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { normalize } from "../cli/_buffer_io.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";
import { pricedTarget } from "./_priced_target.ts";

const USAGE = { input: 5, output: 2 };

function targets(url: string, priced = true): string {
  return `targets:\n${pricedTarget("default", url, { priced })}`;
}

/** Four cases asking `q1`..`q4`: each call's worst case is 32 + (4 + 2 + 8) + 10 = $56. */
const CASES = `evalcases:
${
  [1, 2, 3, 4].map((i) =>
    `  - id: c${i}
    expected_outcome: Says ok
    input: q${i}
    evaluators: [{name: has-ok, type: contains, value: ok}]
`
  ).join("")
}`;

const WORST = 32 + (4 + 2 + 8) + 10;

Deno.test("agentv run --budget-usd: a run the cap stops exits 1 and prints what was spent of the cap", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/ds.yaml": CASES,
  });
  // $7 a call: two calls leave $14 spent, and $14 + $56 > $65 refuses the third.
  assert.ok(7 + WORST <= 65 && 14 + WORST > 65);
  const { code, out, err } = await cli(
    ["run", "evals/ds.yaml", "--budget-usd", "65", "--workers", "1", "--out", "r.jsonl"],
    p.dir,
  );
  assert.equal(code, 1, err);
  assert.equal(server.requests.length, 2);
  const text = normalize(out);
  assert.match(text, /Budget: {4}\$14\.00 spent of \$65\.00 \(cap reached: 2 cases skipped\)/);
  assert.match(text, /skip {3}c4: budget of \$65\.00 reached: \$14\.00 spent/);
  const rows = await rowsOf(join(p.dir, "r.jsonl"));
  assert.deepEqual(rows.map((r) => r.status), ["ok", "ok", "skipped", "skipped"]);
});

Deno.test("agentv run takes budget_usd from .agentv/config.yaml; --budget-usd wins over it", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    ".agentv/config.yaml": "budget_usd: 65\n",
    "evals/ds.yaml": CASES,
  });
  const configured = await cli(["run", "evals/ds.yaml", "--workers", "1"], p.dir);
  assert.equal(configured.code, 1, configured.err);
  assert.match(normalize(configured.out), /Budget: {4}\$14\.00 spent of \$65\.00/);
  assert.equal(server.requests.length, 2);

  // Four calls at $7 fit in $1000: the run passes and says what it spent.
  const flag = await cli(["run", "evals/ds.yaml", "--budget-usd", "1000"], p.dir);
  assert.equal(flag.code, 0, flag.out + flag.err);
  assert.match(normalize(flag.out), /Budget: {4}\$28\.00 spent of \$1000\.00\n/);
  assert.equal(server.requests.length, 2 + 4);
});

Deno.test("agentv run --budget-usd warns about calls to targets without pricing", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url, false),
    "evals/ds.yaml": CASES,
  });
  const { code, out, err } = await cli(["run", "evals/ds.yaml", "--budget-usd", "1"], p.dir);
  assert.equal(code, 0, out + err);
  const text = normalize(out);
  assert.match(text, /Budget: {4}\$0\.00 spent of \$1\.00/);
  assert.match(
    text,
    /warning: 4 calls to targets without pricing \('default'\) had an unknown cost/,
  );
});

Deno.test("agentv run --budget-usd rejects an amount that is not a number >= 0 (exit 2)", async () => {
  await using p = await project({ "evals/ds.yaml": CASES });
  for (const bad of ["-1", "lots", "Infinity"]) {
    const { code, err } = await cli(["run", "evals/ds.yaml", `--budget-usd=${bad}`], p.dir);
    assert.equal(code, 2, bad);
    assert.match(err, /--budget-usd must be an amount of US dollars >= 0/);
  }
});
