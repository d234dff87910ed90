/**
 * JUnit XML reports: structure and counts, escaping of hostile text, validation with `xmllint`
 * against the JUnit XSD kept beside these tests, and reading back with an npm JUnit parser, as
 * CI systems do.
 */
import assert from "node:assert/strict";
import { parse as parseJunit, type TestCase, type TestSuite, type TestSuites } from "junit2json";
import { escapeXmlAttribute, escapeXmlText, renderJunitReport } from "../../lib/render/junit.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { row } from "../results/_rows.ts";
import { validateJunit, XMLLINT_IGNORED } from "./_xmllint.ts";

/** Text that breaks naive XML writers: CDATA end, markup, entities, NUL, lone surrogates, ESC. */
const HOSTILE = "a]]>b <tag attr=\"x\"> & &amp; \u0000 \ud800 \udfff \u001b[2J \ufffe 'q' end";

/** What the hostile text reads as after a round trip: the forbidden characters made visible. */
const HOSTILE_READ =
  "a]]>b <tag attr=\"x\"> & &amp; \\u0000 \\ud800 \\udfff \\u001b[2J \\ufffe 'q' end";

/** Rows of two datasets covering every outcome: pass, borderline, fail, error and skipped. */
function mixedRows(): ResultRow[] {
  return [
    row("pass-1", 1, { dataset: "alpha", duration_ms: 1200 }),
    row("border-1", 0.7, { dataset: "alpha", duration_ms: 800 }),
    row("fail-1", 0.25, {
      dataset: "alpha",
      misses: ["No refund offered", "Too long"],
      reasoning: "The answer refuses",
      duration_ms: 500,
    }),
    row("err-1", 0, {
      dataset: "beta",
      status: "error",
      verdict: "fail",
      error: "Target timed out after 30 s",
      attempts: 3,
      duration_ms: 30000,
    }),
    row("skip-1", 0, { dataset: "beta", status: "skipped", verdict: "fail", duration_ms: 0 }),
    row("pass-2", 0.9, { dataset: "beta", duration_ms: 250 }),
  ];
}

/** The parsed `<testsuites>` root (junit2json returns a single suite for a `<testsuite>` root). */
async function readBack(xml: string): Promise<TestSuites> {
  const parsed = await parseJunit(xml);
  assert.ok(parsed && "testsuite" in parsed, "expected a <testsuites> root");
  return parsed as TestSuites;
}

function suites(root: TestSuites): TestSuite[] {
  return root.testsuite ?? [];
}

Deno.test("renderJunitReport() writes one testsuite per dataset with counts of each outcome", async () => {
  const rows = mixedRows();
  const root = await readBack(renderJunitReport(rows));
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  assert.deepEqual(suites(root).map((s) => s.name), datasets);
  for (const suite of suites(root)) {
    const mine = rows.filter((r) => r.dataset === suite.name);
    assert.equal(suite.tests, mine.length);
    assert.equal(
      suite.failures,
      mine.filter((r) => r.status === "ok" && r.verdict === "fail").length,
    );
    assert.equal(suite.errors, mine.filter((r) => r.status === "error").length);
    assert.equal(suite.skipped, mine.filter((r) => r.status === "skipped").length);
    const seconds = mine.reduce((a, r) => a + r.duration_ms, 0) / 1000;
    assert.equal(suite.time, seconds);
    assert.deepEqual(
      (suite.testcase ?? []).map((c: TestCase) => [c.classname, c.name, c.time]),
      mine.map((r) => [r.dataset, r.eval_id, r.duration_ms / 1000]),
    );
  }
  assert.equal(root.tests, rows.length);
  assert.equal(root.failures, 1);
  assert.equal(root.errors, 1);
  assert.equal((root as Record<string, unknown>).skipped, 1);
});

Deno.test("renderJunitReport() puts score, misses and reasoning in a failure and the reason in an error", async () => {
  const root = await readBack(renderJunitReport(mixedRows()));
  const cases = suites(root).flatMap((s) => s.testcase ?? []);
  const byName = new Map(cases.map((c) => [c.name, c]));
  const failure = byName.get("fail-1")?.failure?.[0];
  assert.ok(failure, "fail-1 has a <failure>");
  assert.equal(failure.type, "fail");
  assert.equal(failure.message, "score 0.25 (fail): No refund offered");
  assert.match(failure.inner ?? "", /score: 0\.25 \(verdict fail\)/);
  assert.match(failure.inner ?? "", /- No refund offered\n {2}- Too long/);
  assert.match(failure.inner ?? "", /reasoning: The answer refuses/);
  const error = byName.get("err-1")?.error?.[0];
  assert.equal(error?.message, "Target timed out after 30 s");
  assert.match(error?.inner ?? "", /attempts: 3/);
  assert.ok(byName.get("skip-1")?.skipped, "skip-1 has <skipped>");
  for (const name of ["pass-1", "border-1", "pass-2"]) {
    const c = byName.get(name);
    assert.equal(c?.failure, undefined, name);
    assert.equal(c?.error, undefined, name);
  }
  // A borderline verdict passes, and says so.
  assert.match(
    byName.get("border-1")?.["system-out"]?.[0] ?? "",
    /verdict: borderline \(counted as a pass\)/,
  );
});

Deno.test("renderJunitReport() keeps hostile text readable and the document well formed", async () => {
  const rows = [
    row(`id ${HOSTILE}`, 0.1, {
      dataset: `ds ${HOSTILE}`,
      misses: [`miss ${HOSTILE}`],
      reasoning: `why ${HOSTILE}`,
      target: "t\nx",
    }),
    row("err", 0, { status: "error", verdict: "fail", error: `boom ${HOSTILE}\nsecond line` }),
  ];
  const xml = renderJunitReport(rows);
  // No character XML 1.0 forbids, and no raw markup from the data.
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  assert.doesNotMatch(
    xml,
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
  );
  assert.doesNotMatch(xml, /<tag/);
  const root = await readBack(xml);
  const [suite] = suites(root);
  assert.equal(suite?.name, `ds ${HOSTILE_READ}`);
  const [c] = suite?.testcase ?? [];
  assert.equal(c?.name, `id ${HOSTILE_READ}`);
  assert.equal(c?.classname, `ds ${HOSTILE_READ}`);
  assert.match(c?.failure?.[0]?.inner ?? "", new RegExp(escapeRegExp(`- miss ${HOSTILE_READ}`)));
  assert.match(
    c?.failure?.[0]?.inner ?? "",
    new RegExp(escapeRegExp(`reasoning: why ${HOSTILE_READ}`)),
  );
  const err = suites(root)[1]?.testcase?.[0]?.error?.[0];
  assert.equal(err?.message, `boom ${HOSTILE_READ}`);
  assert.match(err?.inner ?? "", /second line/);
});

Deno.test("escapeXmlText() and escapeXmlAttribute() escape markup, quotes and forbidden characters", () => {
  assert.equal(escapeXmlText("]]> < & >"), "]]&gt; &lt; &amp; &gt;");
  assert.equal(escapeXmlText("\u0000\u0008\t\n\r"), "\\u0000\\u0008\t\n\r");
  // A surrogate pair (an emoji) is kept; lone halves are made visible.
  assert.equal(escapeXmlText("😀 \ud83d x \ude00"), "😀 \\ud83d x \\ude00");
  assert.equal(escapeXmlAttribute(`"a"\t'b'\r\n`), "&quot;a&quot;&#9;&apos;b&apos;&#13;&#10;");
});

Deno.test("renderJunitReport() names a suite of rows without a dataset '(no dataset)'", async () => {
  const root = await readBack(renderJunitReport([row("a", 1, { dataset: "" })]));
  assert.equal(suites(root)[0]?.name, "(no dataset)");
  assert.equal(suites(root)[0]?.testcase?.[0]?.classname, "(no dataset)");
});

Deno.test("renderJunitReport() names a case by id and target when a dataset ran on several targets", async () => {
  const rows = [
    row("q1", 1, { target: "gpt" }),
    row("q1", 0.2, { target: "claude" }),
    row("q2", 1, { target: "gpt" }),
  ];
  const root = await readBack(renderJunitReport(rows));
  assert.deepEqual(
    (suites(root)[0]?.testcase ?? []).map((c) => c.name),
    ["q1 [gpt]", "q1 [claude]", "q2"],
  );
});

Deno.test({
  name: "the JUnit report passes xmllint against the JUnit XSD, hostile text included",
  ignore: XMLLINT_IGNORED,
  async fn() {
    const hostile = row(`id ${HOSTILE}`, 0.1, {
      dataset: `ds ${HOSTILE}`,
      misses: [`miss ${HOSTILE}`],
      error: null,
    });
    for (const rows of [mixedRows(), [hostile], []]) {
      const result = await validateJunit(renderJunitReport(rows));
      assert.equal(result.code, 0, result.stderr);
    }
  },
});

Deno.test({
  name: "the JUnit XSD check fails on a document that breaks the schema",
  ignore: XMLLINT_IGNORED,
  async fn() {
    // A testcase without a name, and a negative count: both against the schema.
    const bad = renderJunitReport([row("a", 1)])
      .replace(/ name="a"/, "")
      .replace(/tests="1"/, 'tests="-1"');
    const result = await validateJunit(bad);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /fails to validate/);
  },
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
