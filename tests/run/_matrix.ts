/**
 * Helpers of the multi-target run tests: three mock targets and the (case, target, trial) grid.
 *
 * @module
 */
import type { ResultRow } from "../../lib/schema/result.ts";

/** Three mock targets answering differently: `b` never says "ok". */
export const THREE_TARGETS = `targets:
  - name: a
    provider: mock
    response: ok from a
    cost_usd: 0.002
  - name: b
    provider: mock
    response: nope from b
  - name: c
    provider: mock
    response: ok from c
`;

/** `case/target/trial` of every row, sorted. */
export function runsOf(rows: readonly ResultRow[]): string[] {
  return rows.map((r) => `${r.eval_id}/${r.target}/${r.trial}`).sort();
}

/** Every `case/target/trial` of `cases` × `targets` × `trials`, sorted. */
export function grid(cases: string[], targets: string[], trials: number): string[] {
  return cases.flatMap((c) =>
    targets.flatMap((t) => [...Array(trials).keys()].map((k) => `${c}/${t}/${k}`))
  ).sort();
}
