/**
 * Amounts of money in messages and summaries.
 *
 * @module
 */

/**
 * An amount in USD for messages: two decimals, more (up to six) when they matter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatUsd } from "./format_usd.ts";
 * assert.equal(formatUsd(0.5), "$0.50");
 * assert.equal(formatUsd(0.000123), "$0.000123");
 * assert.equal(formatUsd(12), "$12.00");
 * ```
 */
export function formatUsd(amount: number): string {
  const fixed = amount.toFixed(6).replace(/0+$/, "");
  const [whole, decimals = ""] = fixed.split(".");
  return `$${whole}.${decimals.padEnd(2, "0")}`;
}
