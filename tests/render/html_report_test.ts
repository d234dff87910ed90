/**
 * The HTML report file: the data only as escaped JSON, no network, the row's own fields. How the
 * page behaves in a real browser is tests/render/html_report_browser_test.ts.
 */
import assert from "node:assert/strict";
import { renderHtmlReport } from "../../lib/render/html/render_html_report.ts";
import { HOSTILE, hostile, makeRow } from "./_html_rows.ts";

Deno.test("renderHtmlReport() embeds rows only as JSON with <, >, &, U+2028 and U+2029 escaped", () => {
  const rows = [makeRow(1), hostile];
  const html = renderHtmlReport(rows, { title: `Report ${HOSTILE}` });
  assert.equal(html.includes("<img"), false);
  assert.equal(html.includes("\u2028"), false);
  // The data block and the page script are the only scripts; the title is escaped text.
  assert.equal(html.match(/<script\b/g)?.length, 2);
  assert.equal(html.match(/<\/script>/g)?.length, 2);
  assert.ok(
    html.includes("<title>Report &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</title>"),
  );
  const block = /<script type="application\/json" id="agentv-data">([^<]*)<\/script>/.exec(html);
  assert.ok(block, "the data block is present and holds no '<'");
  const data = JSON.parse(block[1]);
  assert.equal(data.rows.length, 2);
  assert.equal(data.rows[1].eval_id, HOSTILE);
  assert.equal(data.rows[1].candidate_answer, hostile.candidate_answer);
  assert.deepEqual(data.rows[0].output_messages, rows[0].output_messages);
});

Deno.test("renderHtmlReport() page allows no network and only its own script", () => {
  const html = renderHtmlReport([makeRow(1)]);
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
  assert.doesNotMatch(html, /(src|href)\s*=\s*["']?(https?:)?\/\//i);
});

Deno.test("renderHtmlReport() shows a row's own input and expected outcome first, else the caller's", () => {
  const withFields = makeRow(1, {
    input: [{ role: "user", content: "question?" }],
    expected_outcome: "the answer",
  });
  const html = renderHtmlReport([withFields, makeRow(2)], {
    caseDetails: (row) =>
      row.eval_id === "case-00002"
        ? { input: [{ role: "user" }] }
        : { input: "stale eval file", expected_outcome: "stale" },
  });
  const data = JSON.parse(/id="agentv-data">([^<]*)</.exec(html)![1]);
  assert.deepEqual(data.rows[0].input, [{ role: "user", content: "question?" }]);
  assert.equal(data.rows[0].expected_outcome, "the answer");
  assert.deepEqual(data.rows[1].input, [{ role: "user" }]);
  assert.equal("expected_outcome" in data.rows[1], false);
});
