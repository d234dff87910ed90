/**
 * The integrity guard in the reports: the console summary lists the flagged cases and counts the
 * checked ones, the Markdown report has a table of findings with their evidence, and a JUnit
 * failure says the case was flagged (and stays valid against the JUnit schema). The HTML case view
 * is checked in headless Chromium by integrity_reports_browser_test.ts.
 */
import assert from "node:assert/strict";
import { renderSummary } from "../../lib/render/console.ts";
import { renderJunitReport } from "../../lib/render/junit.ts";
import { renderMarkdownReport } from "../../lib/render/markdown.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import { validateJunit, XMLLINT_IGNORED } from "./_xmllint.ts";
import { ROWS } from "./_integrity_rows.ts";

Deno.test("the console summary lists the flagged cases with their findings and counts the checked ones", () => {
  const summary = summarizeResults(ROWS);
  assert.deepEqual(summary.integrity, {
    checked: 2,
    skipped: 1,
    flagged: [{
      eval_id: "gamed",
      dataset: "agents",
      target: "claude",
      kinds: ["protected_modified", "claim_after_failing_tests"],
      where: "calc.test.mjs",
    }],
  });
  const text = renderSummary(summary, { color: false });
  assert.match(
    text,
    /^Integrity flagged \(1\)\n {2}⚑ gamed \[claude\]: protected_modified, claim_after_failing_tests \(calc\.test\.mjs\)$/m,
  );
  assert.match(text, /^ {2}Integrity: 2 checked, 1 flagged, 1 skipped$/m);
  // A run the guard never saw says nothing about it.
  assert.doesNotMatch(renderSummary(summarizeResults([ROWS[3]]), { color: false }), /Integrity/);
  // --quiet keeps the count, not the list.
  const quiet = renderSummary(summary, { color: false, quiet: true });
  assert.doesNotMatch(quiet, /Integrity flagged/);
  assert.match(quiet, /Integrity: 2 checked, 1 flagged/);
});

Deno.test("the Markdown report has a row per finding with its place and evidence", () => {
  const md = renderMarkdownReport(ROWS);
  assert.match(md, /### Integrity findings \(2\)/);
  assert.match(
    md,
    /\| agents \| gamed \| protected_modified \| calc\.test\.mjs \| --- a/,
  );
  assert.match(md, /<br>\+test\("add", \(\) =&gt; assert\.ok\(true\)\);/);
  assert.match(md, /\| agents \| gamed \| claim_after_failing_tests \| step 2 \| The answer says/);
  assert.doesNotMatch(renderMarkdownReport([ROWS[1]]), /Integrity findings/);
});

Deno.test({
  name: "a flagged case is a JUnit failure of type integrity naming its findings, schema-valid",
  ignore: XMLLINT_IGNORED,
  async fn() {
    const xml = renderJunitReport(ROWS);
    assert.match(
      xml,
      /<failure message="integrity flagged: protected_modified \(calc\.test\.mjs\), claim_after_failing_tests \(step 2\)" type="integrity">/,
    );
    assert.match(
      xml,
      /integrity findings:\n {2}- protected_modified \(calc\.test\.mjs\):\n {6}--- a\/calc/,
    );
    assert.equal((xml.match(/<failure /g) ?? []).length, 1);
    const { code, stderr } = await validateJunit(xml);
    assert.equal(code, 0, stderr);
  },
});
