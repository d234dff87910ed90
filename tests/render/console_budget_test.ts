/** The budget lines of the console summary (`--budget-usd`). */
import assert from "node:assert/strict";
import { renderSummary } from "../../lib/render/console.ts";
import { budgetLines } from "../../lib/render/console_budget.ts";
import { painter } from "../../lib/render/console_text.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import type { BudgetSummary } from "../../lib/schema/run_record.ts";

const BASE: BudgetSummary = {
  cap_usd: 1,
  spent_usd: 0.25,
  exhausted: false,
  reason: null,
  skipped: 0,
  refused_calls: 0,
  unpriced_calls: 0,
  unpriced_targets: [],
  unbounded_calls: 0,
  unbounded_targets: [],
};

Deno.test("the summary prints what was spent of the cap after the scores", () => {
  const summary = { ...summarizeResults([]), budget: BASE };
  const text = renderSummary(summary, { color: false });
  assert.match(text, /\n {2}Budget: {4}\$0\.25 spent of \$1\.00\n {2}Time:/);
  assert.doesNotMatch(renderSummary(summarizeResults([]), { color: false }), /Budget:/);
});

Deno.test("the budget lines say how far a run went over the cap and warn about unpriced and unbounded calls", () => {
  const lines = budgetLines({
    ...BASE,
    spent_usd: 1.5,
    exhausted: true,
    reason: "budget of $1.00 reached: $1.50 spent",
    skipped: 1,
    unpriced_calls: 3,
    unpriced_targets: ["cli-agent"],
    unbounded_calls: 2,
    unbounded_targets: ["gpt", "claude"],
  }, painter(false));
  assert.equal(
    lines[0],
    "  Budget:    $1.50 spent of $1.00 (cap reached: 1 case skipped; $0.50 over the cap)",
  );
  assert.match(
    lines[1],
    /warning: 3 calls to targets without pricing \('cli-agent'\) had an unknown cost/,
  );
  assert.match(lines[2], /warning: 2 calls to 'gpt', 'claude' had no upper bound on their cost/);
  assert.equal(lines.length, 3);
});
