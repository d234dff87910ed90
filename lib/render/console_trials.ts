/**
 * The console lines of the summary's `trials` section: one line per case (verdict under the gate,
 * trials passed, mean ± stdev, pass@1, pass@n and pass^n), the flaky cases, and a one-line count
 * for the summary block.
 *
 * @module
 */
import { escapeControl as clean } from "../text/escape_control.ts";
import type { TrialCaseStats, TrialsSummary } from "../schema/trials.ts";
import type { Paint } from "./console_text.ts";

const f3 = (v: number | null) => v === null ? "-" : v.toFixed(3);

/** `id`, or `dataset/id` when the cases come from several datasets. */
function labeller(trials: TrialsSummary): (c: { eval_id: string; dataset: string }) => string {
  const several = new Set(trials.cases.map((c) => c.dataset)).size > 1;
  return (c) => clean(several ? `${c.dataset}/${c.eval_id}` : c.eval_id);
}

/** Failing cases first, then flaky ones, then the rest, each in run order. */
function rank(c: TrialCaseStats): number {
  if (c.verdict === "fail") return 0;
  return c.passed > 0 && c.passed < c.n ? 1 : 2;
}

/**
 * The per-case block of the trials section (empty with `quiet`): failing cases first, at most
 * `limit` cases, then the flaky cases by name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderTrialCases } from "./console_trials.ts";
 * const c = {
 *   eval_id: "a", dataset: "d", target: "t", n: 2, passed: 1, errors: 0, pass_rate: 0.5,
 *   mean: 0.5, stdev: 0.707, pass_at_k: { 1: 0.5, 2: 1 }, pass_hat_k: { 1: 0.5, 2: 0 },
 *   verdict: "fail" as const,
 * };
 * const trials = { gate: "mean", cases: [c], flaky: [{ ...c }] };
 * assert.ok(renderTrialCases(trials, { paint: (_c, t) => t, limit: 20 })[1].includes("1/2 passed"));
 * ```
 */
export function renderTrialCases(
  trials: TrialsSummary,
  options: { paint: Paint; limit: number },
): string[] {
  const { paint, limit } = options;
  const label = labeller(trials);
  const out = [paint("bold", `Trials (gate ${trials.gate})`)];
  const sorted = trials.cases.map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c);
  const width = Math.min(32, Math.max(...sorted.slice(0, limit).map((c) => label(c).length)));
  for (const c of sorted.slice(0, limit)) {
    const mark = c.verdict === "fail"
      ? paint("red", "✗")
      : c.verdict === "borderline"
      ? paint("yellow", "~")
      : paint("green", "✓");
    const ks = c.n > 1
      ? `  pass@1 ${f3(c.pass_at_k[1])}  pass@${c.n} ${f3(c.pass_at_k[c.n])}  pass^${c.n} ${
        f3(c.pass_hat_k[c.n])
      }`
      : "";
    const errs = c.errors > 0
      ? paint("red", `  ${c.errors} error${c.errors === 1 ? "" : "s"}`)
      : "";
    out.push(
      `  ${mark} ${label(c).padEnd(width)}  ${c.passed}/${c.n} passed  mean ${f3(c.mean)} ± ${
        f3(c.stdev)
      }${ks}${errs}`,
    );
  }
  if (sorted.length > limit) out.push(`  … and ${sorted.length - limit} more`);
  if (trials.flaky.length > 0) {
    const names = trials.flaky.slice(0, limit).map((c) => `${label(c)} (${c.passed}/${c.n})`);
    const more = trials.flaky.length > limit ? `, … and ${trials.flaky.length - limit} more` : "";
    out.push(paint("yellow", `  Flaky (${trials.flaky.length}): ${names.join(", ")}${more}`));
  }
  return out;
}

/**
 * The summary block's `Trials:` line: cases passing the gate, failing, and flaky.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialsCountLine } from "./console_trials.ts";
 * const trials = { gate: "any", cases: [], flaky: [] };
 * assert.equal(
 *   trialsCountLine(trials, (_c, t) => t),
 *   "  Trials:    0 cases, gate any: 0 pass, 0 fail, 0 flaky",
 * );
 * ```
 */
export function trialsCountLine(trials: TrialsSummary, paint: Paint): string {
  const failing = trials.cases.filter((c) => c.verdict === "fail").length;
  const n = trials.cases.length;
  return `  Trials:    ${n} case${n === 1 ? "" : "s"}, gate ${trials.gate}: ${
    paint("green", `${n - failing} pass`)
  }, ${paint("red", `${failing} fail`)}, ${paint("yellow", `${trials.flaky.length} flaky`)}`;
}
