/**
 * Deterministic calendar-date parsing for `field_accuracy`: a value is read with explicit
 * formats (`YYYY-MM-DD`, `DD-MMM-YYYY`, `MM/DD/YYYY`, ...) into a year, month and day. No
 * `Date` object is involved, so the result never depends on the machine's time zone.
 *
 * @module
 */
import { compileLinearRegex, type LinearRegex, loadLinearRegex } from "../text/linear_regex.ts";

// Patterns are matched by the linear-time engine, loaded with this module (the loader, which
// does not import evaluators, never pays for it).
await loadLinearRegex();

/** A calendar date. */
export interface CalendarDate {
  /** Full year, e.g. 2025. */
  year: number;
  /** Month 1..12. */
  month: number;
  /** Day of month 1..31. */
  day: number;
}

/**
 * Formats tried when a field lists none, in order (US month-first before day-first for
 * `NN/NN/YYYY`, as the original tool inferred).
 */
export const DEFAULT_DATE_FORMATS: readonly string[] = [
  "YYYY-MM-DD",
  "YYYY/MM/DD",
  "DD-MMM-YYYY",
  "DD MMM YYYY",
  "MMM DD, YYYY",
  "MMM DD YYYY",
  "MM/DD/YYYY",
  "DD/MM/YYYY",
  "MM-DD-YYYY",
  "DD-MM-YYYY",
  "DD.MM.YYYY",
];

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Tokens a format may use; everything else is a literal. Longest first. */
const TOKENS = ["YYYY", "MMMM", "MMM", "MM", "M", "DD", "D", "YY"] as const;

type Token = typeof TOKENS[number];
type Part = { token: Token } | { literal: string };

const compiled = new Map<string, { regex: LinearRegex; tokens: Token[] }>();

/** Compiles a (dataset-supplied) format for linear-time matching: no value can make it hang. */
function compile(format: string): { regex: LinearRegex; tokens: Token[] } {
  const cached = compiled.get(format);
  if (cached) return cached;
  const parts: Part[] = [];
  let i = 0;
  while (i < format.length) {
    const token = TOKENS.find((t) => format.startsWith(t, i));
    if (token) {
      parts.push({ token });
      i += token.length;
    } else {
      parts.push({ literal: format[i] });
      i++;
    }
  }
  const tokens: Token[] = [];
  const source = parts.map((p) => {
    if ("literal" in p) {
      return p.literal === " " ? "\\s+" : p.literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
    tokens.push(p.token);
    switch (p.token) {
      case "YYYY":
        return "(\\d{4})";
      case "YY":
        return "(\\d{2})";
      case "MMMM":
      case "MMM":
        return "([A-Za-z]{3,9})\\.?";
      case "MM":
      case "M":
      case "DD":
      case "D":
        return "(\\d{1,2})";
    }
  }).join("");
  const result = { regex: compileLinearRegex(`^${source}$`, "i"), tokens };
  compiled.set(format, result);
  return result;
}

function monthFromName(name: string): number | undefined {
  const n = name.toLowerCase();
  if (n.length < 3) return undefined;
  const i = MONTHS.findIndex((m) => m === n || (n.length <= m.length && m.startsWith(n)));
  if (i !== -1) return i + 1;
  return n === "sept" ? 9 : undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Reads `value` with one format; `undefined` when it does not match or is not a real date.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDateWithFormat } from "./dates.ts";
 * assert.deepEqual(parseDateWithFormat("15-JAN-2025", "DD-MMM-YYYY"), { year: 2025, month: 1, day: 15 });
 * assert.equal(parseDateWithFormat("02/30/2025", "MM/DD/YYYY"), undefined); // no 30 February
 * ```
 */
export function parseDateWithFormat(value: string, format: string): CalendarDate | undefined {
  const { regex, tokens } = compile(format);
  const m = regex.exec(value.trim());
  if (m === undefined) return undefined;
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  for (const [i, token] of tokens.entries()) {
    const text = m.groups[i] ?? "";
    switch (token) {
      case "YYYY":
        year = Number(text);
        break;
      case "YY":
        year = 2000 + Number(text);
        break;
      case "MMMM":
      case "MMM":
        month = monthFromName(text);
        if (month === undefined) return undefined;
        break;
      case "MM":
      case "M":
        month = Number(text);
        break;
      case "DD":
      case "D":
        day = Number(text);
        break;
    }
  }
  if (year === undefined || month === undefined || day === undefined) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

/**
 * Reads a date with the given formats (first match wins; {@link DEFAULT_DATE_FORMATS} when none
 * are given). An ISO timestamp (`2025-01-15T10:30:00Z`) is read as the calendar date written
 * before the `T`, ignoring the time and offset.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCalendarDate, parseDate } from "./dates.ts";
 * const d = parseDate("01/02/2025", ["DD/MM/YYYY"]);
 * assert.equal(formatCalendarDate(d!), "2025-02-01");
 * ```
 */
export function parseDate(
  value: unknown,
  formats?: readonly string[],
): CalendarDate | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}/.exec(text);
  const list = formats !== undefined && formats.length > 0 ? formats : DEFAULT_DATE_FORMATS;
  for (const format of list) {
    const parsed = parseDateWithFormat(text, format);
    if (parsed) return parsed;
  }
  return iso ? parseDateWithFormat(iso[1], "YYYY-MM-DD") : undefined;
}

/**
 * Formats a calendar date as `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCalendarDate } from "./dates.ts";
 * assert.equal(formatCalendarDate({ year: 2025, month: 1, day: 5 }), "2025-01-05");
 * ```
 */
export function formatCalendarDate(d: CalendarDate): string {
  return `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${
    String(d.day).padStart(2, "0")
  }`;
}
