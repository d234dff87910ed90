/**
 * Pieces every evaluator schema shares (`name`, `weight`, the default name), kept apart from
 * `evaluator.ts` so evaluator schemas in their own modules (e.g. `file_changes.ts`) can use them
 * without an import cycle.
 *
 * @module
 */
import { z } from "zod";

/** `weight`: a finite number >= 0, default 1. */
export const WeightSchema = z.number({ error: "weight must be a number >= 0 (e.g. 1 or 0.5)" })
  .refine(Number.isFinite, { error: "weight must be a finite number >= 0" })
  .min(0, { error: "weight must be >= 0 (use 0 to report an evaluator without scoring it)" })
  .default(1);

/** The keys every evaluator takes: an optional `name` and a `weight`. */
export const evaluatorCommon = {
  name: z.string().min(1, { error: "name must not be empty" }).optional(),
  weight: WeightSchema,
};

/**
 * A number >= 0, with messages naming `what`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nonNegative } from "./evaluator_common.ts";
 * assert.equal(nonNegative("budget (USD)").safeParse(-1).success, false);
 * assert.equal(nonNegative("budget (USD)").safeParse(0).success, true);
 * ```
 */
export function nonNegative(what: string): z.ZodNumber {
  return z.number({ error: `${what} must be a number >= 0` }).min(0, {
    error: `${what} must be >= 0`,
  });
}

/**
 * Fills in the default name of an evaluator: its type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withName } from "./evaluator_common.ts";
 * assert.equal(withName({ type: "contains" }).name, "contains");
 * ```
 */
export function withName<T extends { name?: string; type: string }>(v: T): T & { name: string } {
  return { ...v, name: v.name ?? v.type };
}
