/**
 * The integrity of cache entries: an HMAC-SHA256 under a secret only the user holds (see
 * `secret.ts`), over the whole entry (request, response, writer, version, time). A plain hash
 * stored beside the data proves nothing against whoever can edit the file: they recompute it. A
 * keyed one cannot be recomputed without the key, so a cache shipped inside a dataset, a pull
 * request or a hand edit cannot make agentv serve an answer the user's own runs did not record.
 *
 * The same key makes the digests that stand for values an entry must not hold in clear (a `cli`
 * target's `env` values, header values that carry a secret): equal values give equal digests,
 * so they still key the cache, and without the key a digest cannot be tested against guesses.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The shortest secret accepted, in characters. */
export const MIN_CACHE_SECRET_CHARS = 32;

/** Prefix of signatures and digests: the algorithm. */
const ALGORITHM = "hmac-sha256:";

/** Signs and seals with one secret. */
export interface CacheSigner {
  /**
   * A short public name of the key (an HMAC of a constant: it tells keys apart, never the key),
   * written on entries so a miss can say "signed with another key".
   */
  readonly keyId: string;
  /** The signature of an entry's canonical text: `hmac-sha256:<hex>`. */
  sign(text: string): string;
  /** Whether `signature` is the signature of `text` (compared in constant time). */
  verify(text: string, signature: unknown): boolean;
  /** The digest that stands for `value` at `label` (e.g. `env.MODE`): `hmac-sha256:<hex>`. */
  seal(label: string, value: string): string;
}

/**
 * A signer for `secret` (at least {@link MIN_CACHE_SECRET_CHARS} characters; shorter ones are
 * refused where the secret is read, see `secret.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCacheSigner } from "./cache_signing.ts";
 * const mine = createCacheSigner("m".repeat(32));
 * const theirs = createCacheSigner("t".repeat(32));
 * const signature = mine.sign('{"answer":"4"}');
 * assert.equal(mine.verify('{"answer":"4"}', signature), true);
 * assert.equal(mine.verify('{"answer":"5"}', signature), false);
 * assert.equal(theirs.verify('{"answer":"4"}', signature), false);
 * assert.equal(mine.seal("env.MODE", "fast"), mine.seal("env.MODE", "fast"));
 * assert.notEqual(mine.seal("env.MODE", "fast"), mine.seal("env.MODE", "slow"));
 * ```
 */
export function createCacheSigner(secret: string): CacheSigner {
  // Each use has its own prefix, so a digest of one kind is never a valid one of another.
  const mac = (...parts: string[]) =>
    createHmac("sha256", secret).update(parts.join("\0")).digest("hex");
  const sign = (text: string) => ALGORITHM + mac("agentv cache entry", text);
  return {
    keyId: mac("agentv cache key id").slice(0, 16),
    sign,
    verify(text, signature) {
      if (typeof signature !== "string") return false;
      const expected = new TextEncoder().encode(sign(text));
      const given = new TextEncoder().encode(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    seal: (label, value) => ALGORITHM + mac("agentv cache value", label, value),
  };
}
