/**
 * Duplicate case ids in a JSONL file `validate` streams, found without keeping the ids: each id
 * is kept as two 32-bit hashes in typed arrays (a `Map` of 100,000 id strings cost ~45 ms and the
 * strings' memory). Equal hashes only make a line a suspect; once the file is read, the suspects'
 * lines are read again and their ids compared exactly, so a duplicate is reported exactly when the
 * ids are equal, as `CaseIds` does for a file held in memory.
 *
 * @module
 */

/** A line whose id hashed like an earlier line's: a duplicate if the ids are equal. */
export interface SuspectLine {
  /** The line (1-based). */
  line: number;
  /** The first line whose id had the same hashes. */
  first: number;
}

/**
 * The ids of a file's valid cases as hashes, with the line of each. Adding appends to flat arrays
 * (probing a hash table of 100,000 ids while the file is parsed missed the cache on almost every
 * probe, ~35 ms); {@link suspects} builds the table once, when nothing else runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IdDigests } from "./id_digests.ts";
 * const ids = new IdDigests();
 * ids.add("a", 1);
 * ids.add("b", 2);
 * ids.add("a", 5);
 * // lines 1 and 5 are read again and compared
 * assert.deepEqual(ids.suspects(), [{ line: 5, first: 1 }]);
 * ```
 */
export class IdDigests {
  /** Three ints an id, in the order added: its two hashes and its line. */
  #entries = new Int32Array(3 * 1024);
  #size = 0;

  /** Records the id of the valid case on `line` (lines come in increasing order). */
  add(id: string, line: number): void {
    if (this.#size * 3 === this.#entries.length) {
      const grown = new Int32Array(this.#entries.length * 2);
      grown.set(this.#entries);
      this.#entries = grown;
    }
    const at = this.#size++ * 3;
    this.#entries[at] = hashId(id);
    this.#entries[at + 1] = secondHash;
    this.#entries[at + 2] = line;
  }

  /**
   * The lines whose id hashed like an earlier line's, in line order, each with the first line of
   * those hashes.
   */
  suspects(): SuspectLine[] {
    const entries = this.#entries;
    let capacity = 1024;
    while (capacity < this.#size * 2) capacity *= 2;
    const mask = capacity - 1;
    // Open addressing over the entries: each slot holds an entry's index + 1 (0: free).
    const slots = new Int32Array(capacity);
    const suspects: SuspectLine[] = [];
    for (let i = 0; i < this.#size; i++) {
      const low = entries[i * 3];
      const high = entries[i * 3 + 1];
      let slot = low & mask;
      for (;;) {
        const held = slots[slot];
        if (held === 0) {
          slots[slot] = i + 1;
          break;
        }
        const j = (held - 1) * 3;
        if (entries[j] === low && entries[j + 1] === high) {
          suspects.push({ line: entries[i * 3 + 2], first: entries[j + 2] });
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    return suspects;
  }
}

/**
 * The duplicates among the suspects, given their ids read again: each line whose id equals that
 * of an earlier line in its group, with the first line that used the id, in line order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confirmDuplicates } from "./id_digests.ts";
 * const ids = new Map([[1, "a"], [5, "a"], [7, "c"]]);
 * // line 7 only hashed like "a"
 * assert.deepEqual(confirmDuplicates([{ line: 5, first: 1 }, { line: 7, first: 1 }], ids), [
 *   { line: 5, first: 1 },
 * ]);
 * ```
 */
export function confirmDuplicates(
  suspects: readonly SuspectLine[],
  idOf: ReadonlyMap<number, string>,
): SuspectLine[] {
  const groups = new Map<number, number[]>();
  for (const s of suspects) {
    const group = groups.get(s.first);
    if (group) group.push(s.line);
    else groups.set(s.first, [s.line]);
  }
  const duplicates: SuspectLine[] = [];
  for (const [first, lines] of groups) {
    const seen = new Map<string, number>([[idOf.get(first)!, first]]);
    for (const line of lines) {
      const id = idOf.get(line)!;
      const earlier = seen.get(id);
      if (earlier !== undefined) duplicates.push({ line, first: earlier });
      else seen.set(id, line);
    }
  }
  return duplicates.sort((a, b) => a.line - b.line);
}

/** The second hash of the last {@link hashId} call (so hashing allocates nothing). */
let secondHash = 0;

/**
 * Two independent 32-bit hashes of a string (FNV-1a, and a multiply-xorshift one): the first is
 * returned, the second left in `secondHash`.
 */
function hashId(id: string): number {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  secondHash = b | 0;
  return a | 0;
}
