/**
 * The arms of a comparison: what `agentv compare RESULTS...` ranks. An arm is the rows of one
 * target in one results file, so one multi-target run (`--target a,b,c`) gives one arm per target
 * and several single-target runs one arm per file. Each arm gets a label that names it in every
 * output: its target's name when the targets' names tell the arms apart, else its file (each file
 * holding one target), else `file:target`.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";

/** One results file as given to `compare`. */
export interface CompareInput {
  /** How the file is named in outputs (the path as the user typed it). */
  source: string;
  /** Its rows, in file order. */
  rows: readonly ResultRow[];
}

/** The rows of one target in one results file. */
export interface Arm {
  /** The unique name of the arm in outputs (see the module doc). */
  label: string;
  /** The target its rows name. */
  target: string;
  /** The file it came from (as given). */
  source: string;
  /** Its rows, in file order. */
  rows: ResultRow[];
}

/**
 * The arms of `inputs`, in input order, the targets of a file in the order first seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { armsOf } from "./arms.ts";
 * const row = (target: string) => ({ target }) as ResultRow;
 * const one = armsOf([{ source: "run.jsonl", rows: [row("a"), row("b"), row("a")] }]);
 * assert.deepEqual(one.map((a) => [a.label, a.rows.length]), [["a", 2], ["b", 1]]);
 * const two = armsOf([
 *   { source: "old.jsonl", rows: [row("default")] },
 *   { source: "new.jsonl", rows: [row("default")] },
 * ]);
 * assert.deepEqual(two.map((a) => a.label), ["old.jsonl", "new.jsonl"]);
 * ```
 */
export function armsOf(inputs: readonly CompareInput[]): Arm[] {
  const arms: Omit<Arm, "label">[] = [];
  const perInput: number[] = [];
  for (const input of inputs) {
    const byTarget = new Map<string, ResultRow[]>();
    for (const row of input.rows) {
      const target = String(row.target);
      let rows = byTarget.get(target);
      if (!rows) byTarget.set(target, rows = []);
      rows.push(row);
    }
    perInput.push(byTarget.size);
    for (const [target, rows] of byTarget) arms.push({ target, source: input.source, rows });
  }
  const targetsUnique = new Set(arms.map((a) => a.target)).size === arms.length;
  const onePerFile = perInput.every((n) => n === 1);
  const labels = arms.map((a) =>
    targetsUnique ? a.target : onePerFile ? a.source : `${a.source}:${a.target}`
  );
  return arms.map((a, i) => ({ label: uniqueLabel(labels, i), ...a }));
}

/** `labels[i]`, with `#2`, `#3`, ... added when an earlier label is the same. */
function uniqueLabel(labels: readonly string[], i: number): string {
  const before = labels.slice(0, i).filter((l) => l === labels[i]).length;
  return before === 0 ? labels[i] : `${labels[i]}#${before + 1}`;
}

/**
 * The arm `name` picks (`--baseline`, `--require-best`): its label, else its target's name or its
 * file when that names one arm only; `undefined` when none (or several) match.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findArm } from "./arms.ts";
 * const arms = [
 *   { label: "old.jsonl", target: "default", source: "old.jsonl", rows: [] },
 *   { label: "new.jsonl", target: "default", source: "new.jsonl", rows: [] },
 * ];
 * assert.equal(findArm(arms, "new.jsonl"), 1);
 * assert.equal(findArm(arms, "default"), undefined); // two arms have it
 * ```
 */
export function findArm(arms: readonly Arm[], name: string): number | undefined {
  const byLabel = arms.findIndex((a) => a.label === name);
  if (byLabel !== -1) return byLabel;
  for (const key of ["target", "source"] as const) {
    const matches = arms.flatMap((a, i) => a[key] === name ? [i] : []);
    if (matches.length === 1) return matches[0];
  }
  return undefined;
}
