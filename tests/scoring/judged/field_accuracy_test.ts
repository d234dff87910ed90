import assert from "node:assert/strict";
import { formatCalendarDate, parseDate, parseDateWithFormat } from "../../../lib/scoring/dates.ts";
import { readPath, scoreFields } from "../../../lib/scoring/field_accuracy.ts";
import { runEvaluator } from "../../../lib/scoring/run_evaluator.ts";
import type { EvaluatorConfig, FieldAccuracyConfig } from "../../../lib/schema/evaluator.ts";
import type { Message } from "../../../lib/schema/message.ts";
import { makeCase, makeContext } from "../_context.ts";

type Field = FieldAccuracyConfig["fields"][number];
const f = (path: string, match: Field["match"], extra: Partial<Field> = {}): Field => ({
  path,
  match,
  required: true,
  weight: 1,
  ...extra,
});
const expected = (content: Message["content"]): Message[] => [{ role: "assistant", content }];

const EXPECTED = expected({
  invoice: { number: "INV-001", total: 100, lines: [{ sku: "A1", qty: 2 }] },
  vendor: "ACME",
  currency: "EUR",
});

Deno.test("field_accuracy weighted_average with exact, numeric and missing fields", () => {
  const outcome = scoreFields(
    {
      aggregation: "weighted_average",
      fields: [
        f("invoice.number", "exact", { weight: 2 }),
        f("invoice.total", "numeric_tolerance", { tolerance: 0.5, weight: 3 }),
        f("invoice.lines[0].qty", "exact"),
        f("vendor", "exact", { weight: 2 }),
        f("currency", "exact", { required: false }),
        f("notes", "exact", { weight: 5 }),
      ],
    },
    'Result:\n```json\n{"invoice": {"number": "INV-001", "total": "100.4", "lines": [{"sku": "A1", "qty": "2"}]}, "vendor": "Acme"}\n```',
    EXPECTED,
  );
  // counted: number 2 (hit), total 3 (hit), qty 1 (miss: type), vendor 2 (miss), currency 0
  // (optional, absent); notes skipped (no expected value).
  assert.equal(outcome.score, 5 / 8);
  assert.equal(outcome.verdict, "borderline");
  assert.deepEqual(outcome.hits, [
    "invoice.number",
    "invoice.total (within tolerance: diff=0.40)",
    "currency: optional field missing",
  ]);
  assert.deepEqual(outcome.misses, [
    "invoice.lines[0].qty (type mismatch: got string, expected number)",
    'vendor (value mismatch: got "Acme", expected "ACME")',
  ]);
  assert.equal(outcome.reasoning, "3/5 fields matched; 1 skipped (no expected value: notes)");
  assert.deepEqual((outcome.details as { skipped: string[] }).skipped, ["notes"]);
});

Deno.test("field_accuracy: an expected-missing field is not a hit", () => {
  const outcome = scoreFields(
    {
      aggregation: "weighted_average",
      fields: [f("vendor", "exact"), f("nothing.here", "exact", { weight: 9 })],
    },
    '{"vendor": "Other"}',
    EXPECTED,
  );
  assert.equal(outcome.score, 0);
  assert.deepEqual(outcome.hits, []);
});

Deno.test("field_accuracy with no checkable field scores 0 with a miss saying why", () => {
  const outcome = scoreFields(
    { aggregation: "all_or_nothing", fields: [f("nothing.here", "exact")] },
    '{"vendor": "ACME"}',
    EXPECTED,
  );
  assert.equal(outcome.score, 0);
  assert.deepEqual(outcome.misses, [
    "No field could be checked: none of the configured paths has an expected value",
  ]);
});

Deno.test("field_accuracy all_or_nothing and relative tolerance", () => {
  const fields = [
    f("invoice.total", "numeric_tolerance", { tolerance: 0.05, relative: true }),
    f("vendor", "exact"),
  ];
  assert.equal(
    scoreFields(
      { aggregation: "all_or_nothing", fields },
      '{"invoice": {"total": 104}, "vendor": "ACME"}',
      EXPECTED,
    ).score,
    1,
  );
  const miss = scoreFields(
    { aggregation: "all_or_nothing", fields },
    '{"invoice": {"total": 106}, "vendor": "ACME"}',
    EXPECTED,
  );
  assert.equal(miss.score, 0);
  assert.deepEqual(miss.misses, [
    "invoice.total (outside tolerance: diff=6.00, tolerance=0.05 relative)",
  ]);
});

Deno.test("field_accuracy reports a non-JSON answer and a missing expected object", () => {
  const a = scoreFields(
    { aggregation: "weighted_average", fields: [f("x", "exact")] },
    "not json",
    EXPECTED,
  );
  assert.deepEqual(a.misses, ["Failed to parse candidate answer as JSON"]);
  const b = scoreFields(
    { aggregation: "weighted_average", fields: [f("x", "exact")] },
    '{"x": 1}',
    [],
  );
  assert.equal(b.score, 0);
  assert.match(b.misses[0], /No expected data found/);
});

Deno.test("field_accuracy reads expected JSON from a string message and runs through the registry", async () => {
  const ctx = makeContext({
    outputMessages: [{ role: "assistant", content: '{"due": "03/04/2025"}' }],
    evalCase: makeCase({ expected_output: expected('{"due": "2025-04-03"}') }),
  });
  const result = await runEvaluator(
    {
      type: "field_accuracy",
      name: "fields",
      weight: 1,
      aggregation: "weighted_average",
      fields: [f("due", "date", { formats: ["DD/MM/YYYY", "YYYY-MM-DD"] })],
    } as EvaluatorConfig,
    ctx,
  );
  assert.equal(result.status, "ok");
  assert.equal(result.score, 1);
});

Deno.test("dates are parsed by the given formats only", () => {
  assert.deepEqual(parseDateWithFormat("15-JAN-2025", "DD-MMM-YYYY"), {
    year: 2025,
    month: 1,
    day: 15,
  });
  assert.deepEqual(parseDateWithFormat("5 September 2024", "D MMMM YYYY"), {
    year: 2024,
    month: 9,
    day: 5,
  });
  assert.equal(parseDateWithFormat("02/30/2025", "MM/DD/YYYY"), undefined);
  assert.equal(parseDateWithFormat("2024-02-29", "YYYY-MM-DD")?.day, 29);
  assert.equal(parseDateWithFormat("2025-02-29", "YYYY-MM-DD"), undefined);
  assert.equal(formatCalendarDate(parseDate("01/02/2025", ["DD/MM/YYYY"])!), "2025-02-01");
  assert.equal(formatCalendarDate(parseDate("01/02/2025", ["MM/DD/YYYY"])!), "2025-01-02");
  // Default formats: month-first before day-first, day-first when the month would be > 12.
  assert.equal(formatCalendarDate(parseDate("01/02/2025")!), "2025-01-02");
  assert.equal(formatCalendarDate(parseDate("13/02/2025")!), "2025-02-13");
  assert.equal(parseDate("2025-01-15", ["MM/DD/YYYY"]), undefined);
  assert.equal(formatCalendarDate(parseDate("2025-01-15T23:59:00-08:00")!), "2025-01-15");
  assert.equal(parseDate("yesterday"), undefined);
  assert.equal(parseDate(20250115), undefined);
});

Deno.test("readPath follows dots and indexes", () => {
  assert.equal(readPath({ a: [{ b: 1 }, { b: 2 }] }, "a[1].b"), 2);
  assert.equal(typeof readPath({ a: 1 }, "a.b"), "symbol");
});
