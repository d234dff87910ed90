/**
 * Compile-time checks that an explicit interface (needed by JSR: public types may not be inferred)
 * says exactly what its zod schema produces. A mismatch is a type error in `deno check`.
 *
 * @module
 */

/** `true` when A and B are mutually assignable. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;
