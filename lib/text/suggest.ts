/**
 * "Did you mean …?" suggestions by edit distance.
 *
 * @module
 */

/**
 * The candidate closest to `word` (Damerau–Levenshtein distance, case-insensitive), or
 * `undefined` when none is close enough (at most 2 edits, or a third of the word's length for
 * long words).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(suggest("expected_outcom", ["expected_outcome", "input"]), "expected_outcome");
 * assert.equal(suggest("--verbos", ["--verbose", "--json"]), "--verbose");
 * assert.equal(suggest("zzz", ["input"]), undefined);
 * ```
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Optimal string alignment distance (insertions, deletions, substitutions, transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 8 && Math.min(a.length, b.length) < 4) {
    return Math.max(a.length, b.length);
  }
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2][j - 2] + 1);
      }
      d[i][j] = v;
    }
  }
  return d[rows - 1][cols - 1];
}
