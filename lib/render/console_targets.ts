/**
 * The per-target lines of the console summary of a run of several targets (`--target a,b,c`,
 * `execution.targets`): each target's mean score, verdicts and errors, and where to rank them.
 *
 * @module
 */
import type { TargetSummary } from "../schema/run_record.ts";
import { escapeControl as clean } from "../text/escape_control.ts";
import { formatUsd } from "../text/format_usd.ts";
import type { Paint } from "./console_text.ts";

/**
 * The `Targets:` lines: one per target, in the order first seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetLines } from "./console_targets.ts";
 * import { painter } from "./console_text.ts";
 * const lines = targetLines([
 *   { target: "a", total: 2, scored: 2, errors: 0, mean: 0.9, verdicts: { pass: 2, borderline: 0, fail: 0 } },
 *   { target: "b", total: 2, scored: 1, errors: 1, mean: 0.5, verdicts: { pass: 0, borderline: 0, fail: 1 } },
 * ], painter(false));
 * assert.equal(lines[1], "    a  mean 0.900  pass 2/2");
 * assert.equal(lines[2], "    b  mean 0.500  pass 0/1  1 error");
 * ```
 */
export function targetLines(targets: readonly TargetSummary[], paint: Paint): string[] {
  const width = Math.max(...targets.map((t) => clean(t.target).length));
  const lines = [`  Targets:   ${targets.length} (agentv compare <results> ranks them)`];
  for (const t of targets) {
    const mean = t.mean === null ? "-" : t.mean.toFixed(3);
    const errors = t.errors > 0
      ? paint("red", `  ${t.errors} error${t.errors === 1 ? "" : "s"}`)
      : "";
    const cost = t.cost_usd !== undefined ? `  ${formatUsd(t.cost_usd)}` : "";
    lines.push(
      `    ${clean(t.target).padEnd(width)}  mean ${mean}  pass ${t.verdicts.pass}/${t.scored}` +
        `${cost}${errors}`,
    );
  }
  return lines;
}
