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
 * The ids of a file's valid cases as hashes, with the first line of each.
 *
 * @example
 * ```ts
 * import { IdDigests } from "./id_digests.ts";
 * const ids = new IdDigests();
 * ids.add("a", 1);
 * ids.add("b", 2);
 * ids.add("a", 5);
 * ids.suspects; // [{ line: 5, first: 1 }]: lines 1 and 5 are read again and compared
 * ```
 */
export class IdDigests {
  /** Open addressing, three ints a slot: the two hashes and the first line (0: a free slot). */
  #slots = new Int32Array(3 << 14);
  #capacity = 1 << 14;
  #size = 0;
  /** Lines whose hashes were seen before, in line order. */
  readonly suspects: SuspectLine[] = [];

  /** Records the id of the valid case on `line` (lines come in increasing order). */
  add(id: string, line: number): void {
    if ((this.#size + 1) * 2 > this.#capacity) this.#grow();
    const low = hashId(id);
    const high = secondHash;
    const slots = this.#slots;
    const mask = this.#capacity - 1;
    let slot = low & mask;
    while (slots[slot * 3 + 2] !== 0) {
      if (slots[slot * 3] === low && slots[slot * 3 + 1] === high) {
        this.suspects.push({ line, first: slots[slot * 3 + 2] });
        return;
      }
      slot = (slot + 1) & mask;
    }
    slots[slot * 3] = low;
    slots[slot * 3 + 1] = high;
    slots[slot * 3 + 2] = line;
    this.#size++;
  }

  #grow(): void {
    const old = this.#slots;
    this.#capacity *= 2;
    const slots = new Int32Array(this.#capacity * 3);
    const mask = this.#capacity - 1;
    for (let i = 0; i < old.length; i += 3) {
      if (old[i + 2] === 0) continue;
      let slot = old[i] & mask;
      while (slots[slot * 3 + 2] !== 0) slot = (slot + 1) & mask;
      slots[slot * 3] = old[i];
      slots[slot * 3 + 1] = old[i + 1];
      slots[slot * 3 + 2] = old[i + 2];
    }
    this.#slots = slots;
  }
}

/**
 * The duplicates among the suspects, given their ids read again: each line whose id equals that
 * of an earlier line in its group, with the first line that used the id, in line order.
 *
 * @example
 * ```ts
 * import { confirmDuplicates } from "./id_digests.ts";
 * const ids = new Map([[1, "a"], [5, "a"], [7, "c"]]);
 * confirmDuplicates([{ line: 5, first: 1 }, { line: 7, first: 1 }], ids);
 * // [{ line: 5, first: 1 }]: line 7 only hashed like "a"
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
