/**
 * A small unified diff: what `generate rubrics --dry-run` would change, and what a target changed
 * in its workspace. Made for sparse edits (inserted or replaced lines); always correct, minimal
 * for those cases.
 *
 * @module
 */

type Op = { kind: " " | "-" | "+"; line: string };

/** Splits text into lines without their line terminators. */
function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

function editScript(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: " ", line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  ops.push(...middle(midA, midB));
  ops.push(...a.slice(endA).map((line) => ({ kind: " " as const, line })));
  return ops;
}

function middle(a: string[], b: string[]): Op[] {
  if (a.length === b.length) {
    return a.flatMap((line, i): Op[] =>
      line === b[i] ? [{ kind: " ", line }] : [{ kind: "-", line }, { kind: "+", line: b[i] }]
    );
  }
  if (b.length > a.length) {
    // Insertions only? Walk both; every unmatched line of b is an insertion.
    const ops: Op[] = [];
    let i = 0;
    for (const line of b) {
      if (i < a.length && a[i] === line) {
        ops.push({ kind: " ", line });
        i++;
      } else ops.push({ kind: "+", line });
    }
    if (i === a.length) return ops;
  }
  return [
    ...a.map((line) => ({ kind: "-" as const, line })),
    ...b.map((line) => ({ kind: "+" as const, line })),
  ];
}

/**
 * A unified diff (`---`/`+++` headers, `@@` hunks with three lines of context) between two
 * texts; `""` when they are equal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unifiedDiff } from "./unified_diff.ts";
 * assert.equal(
 *   unifiedDiff("a\nb\n", "a\nx\nb\n", "file.yaml"),
 *   "--- a/file.yaml\n+++ b/file.yaml\n@@ -1,2 +1,3 @@\n a\n+x\n b\n",
 * );
 * ```
 */
export function unifiedDiff(before: string, after: string, name: string, context = 3): string {
  if (before === after) return "";
  const ops = editScript(lines(before), lines(after));
  const changed = ops.map((op, i) => op.kind !== " " ? i : -1).filter((i) => i !== -1);
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const from = Math.max(0, i - context);
    const to = Math.min(ops.length - 1, i + context);
    const last = hunks.at(-1);
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  const out = [`--- a/${name}`, `+++ b/${name}`];
  // Line numbers of ops[i] in the old and new texts.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.kind !== "+") o++;
    if (op.kind !== "-") n++;
  }
  for (const [from, to] of hunks) {
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    const oldStart = oldCount === 0 ? oldLine[from] - 1 : oldLine[from];
    const newStart = newCount === 0 ? newLine[from] - 1 : newLine[from];
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) out.push(`${op.kind}${op.line}`);
  }
  return out.join("\n") + "\n";
}
