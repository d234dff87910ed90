/**
 * The budget lines of the console summary (`--budget-usd`): what was spent of the cap, whether
 * it stopped the run, and warnings about calls the cap could not bound.
 *
 * @module
 */
import type { BudgetSummary } from "../schema/run_record.ts";
import { escapeControl as clean } from "../text/escape_control.ts";
import { formatUsd } from "../text/format_usd.ts";
import type { Paint } from "./console_text.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Target names for a warning, quoted, at most five. */
function names(targets: readonly string[]): string {
  const shown = targets.slice(0, 5).map((t) => `'${clean(t)}'`).join(", ");
  return targets.length > 5 ? `${shown} and ${targets.length - 5} more` : shown;
}

/**
 * The summary lines of a run's budget: `Budget:` with the amount spent of the cap, then (when
 * it applies) why it stopped the run and how many cases it skipped, and warnings for calls to
 * targets without `pricing` and calls whose cost had no upper bound.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { budgetLines } from "./console_budget.ts";
 * import { painter } from "./console_text.ts";
 * const lines = budgetLines({
 *   cap_usd: 0.5, spent_usd: 0.48, exhausted: true, reason: "budget of $0.50 reached: $0.48 spent",
 *   skipped: 3, refused_calls: 1, unpriced_calls: 0, unpriced_targets: [], unbounded_calls: 0,
 *   unbounded_targets: [],
 * }, painter(false));
 * assert.equal(lines[0], "  Budget:    $0.48 spent of $0.50 (cap reached: 3 cases skipped)");
 * ```
 */
export function budgetLines(budget: BudgetSummary, paint: Paint): string[] {
  const spent = `${formatUsd(budget.spent_usd)} spent of ${formatUsd(budget.cap_usd)}`;
  const notes: string[] = [];
  if (budget.exhausted) notes.push(`cap reached: ${plural(budget.skipped, "case")} skipped`);
  // Calls the cap could not bound (see the warnings below) may have spent past it.
  const over = budget.spent_usd - budget.cap_usd;
  if (over > 1e-9) notes.push(`${formatUsd(over)} over the cap`);
  const out = [
    `  Budget:    ${spent}${notes.length > 0 ? ` ${paint("red", `(${notes.join("; ")})`)}` : ""}`,
  ];
  if (budget.unpriced_calls > 0) {
    out.push(
      `  ${paint("yellow", "warning")}: ${
        plural(budget.unpriced_calls, "call")
      } to targets without pricing (${
        names(budget.unpriced_targets)
      }) had an unknown cost; only the cost they reported is counted (add pricing to the target)`,
    );
  }
  if (budget.unbounded_calls > 0) {
    out.push(
      `  ${paint("yellow", "warning")}: ${plural(budget.unbounded_calls, "call")} to ${
        names(budget.unbounded_targets)
      } had no upper bound on their cost (an HTTP model target without max_tokens, or an agent or cli target): the run may spend more than the cap (set max_tokens)`,
    );
  }
  return out;
}
