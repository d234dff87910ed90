/**
 * The HTML report and the compare page: what the file holds (data only as escaped JSON), and how
 * the page behaves in a real headless Chromium driven over the DevTools protocol (10,000 cases
 * load without console errors, the count matches, filters narrow it, sorting and the case view
 * work, hostile text stays text, the compare page shows both runs with the Δ). Screenshots are
 * kept under `.agentv/test-artifacts/` (git-ignored) and their paths printed.
 */
import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderCompareHtml } from "../../lib/render/compare_html.ts";
import { pairRuns } from "../../lib/compare/pair.ts";
import { summarizeComparison } from "../../lib/compare/summary.ts";
import { renderHtmlReport } from "../../lib/render/html/render_html_report.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { Browser, findChromium, MISSING_CHROMIUM, type Page } from "../_helpers/chromium.ts";

const ARTIFACTS = fileURLToPath(new URL("../../.agentv/test-artifacts/", import.meta.url));
const HOSTILE = "</script><img src=x onerror=alert(1)>";
const CASES = 10_000;
const DATASETS = ["alpha", "beta", "gamma"];

function verdictOf(score: number): ResultRow["verdict"] {
  return score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail";
}

/** A row with a full trace: a tool call with input and output, then the answer. */
function makeRow(i: number, extra: Partial<ResultRow> = {}): ResultRow {
  const score = ((i * 37) % 101) / 100;
  const error = i % 97 === 5;
  const answer = i % 7 === 3 ? `The zebra answer for case ${i}` : `Answer for case ${i}`;
  return {
    run_id: "run-1",
    trial: 0,
    timestamp: "2026-01-21T10:00:00.000Z",
    eval_id: `case-${String(i).padStart(5, "0")}`,
    dataset: DATASETS[i % 3],
    conversation_id: null,
    target: "mock",
    status: error ? "error" : "ok",
    score: error ? 0 : score,
    verdict: error ? "fail" : verdictOf(score),
    hits: [`mentions order ${i}`],
    misses: score < 1 ? [`missing detail ${i}`] : [],
    reasoning: null,
    candidate_answer: answer,
    evaluator_results: [{
      name: "contains-check",
      type: "contains",
      status: "ok",
      score,
      weight: 1,
      verdict: verdictOf(score),
      hits: [`mentions order ${i}`],
      misses: score < 1 ? [`missing detail ${i}`] : [],
      reasoning: `reasoning of case ${i}`,
    }],
    trace_summary: null,
    output_messages: [
      {
        role: "assistant",
        tool_calls: [{
          tool: "lookup_order",
          id: `call-${i}`,
          input: { order_id: `ORD-${i}` },
          output: { state: `shipped-${i}` },
        }],
      },
      { role: "assistant", content: answer },
    ],
    token_usage: { input: 10, output: 5 },
    duration_ms: 100 + i,
    attempts: 1,
    error: error ? `HTTP 500 on case ${i}` : null,
    ...extra,
  };
}

const hostile = makeRow(CASES, {
  eval_id: HOSTILE,
  dataset: "<b>hostile</b>",
  candidate_answer: `${HOSTILE}\u2028<script>alert(2)</script>&amp;`,
  output_messages: [{
    role: "assistant",
    tool_calls: [{ tool: "<img src=y onerror=alert(3)>", input: { q: HOSTILE } }],
  }],
});

/** A row whose optional parts have shapes no writer produces (read from a foreign file). */
const oddShapes = makeRow(CASES + 1, {
  eval_id: "odd-shapes",
  status: "constructor" as ResultRow["status"],
  hits: [{ nested: true }] as unknown as string[],
  evaluator_results: [null, { name: { x: 1 }, score: "high" }] as unknown as ResultRow[
    "evaluator_results"
  ],
  output_messages: [null, "plain text", {
    role: "tool",
    tool_calls: [null],
  }] as unknown as ResultRow["output_messages"],
  token_usage: "many" as unknown as ResultRow["token_usage"],
});

function allRows(): ResultRow[] {
  const rows = Array.from({ length: CASES }, (_, i) => makeRow(i));
  rows.push(hostile, oddShapes);
  return rows;
}

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

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";
if (chromium === undefined && !inCi) {
  console.warn(`ignoring the browser tests: ${MISSING_CHROMIUM}`);
}

async function keepScreenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}`;
  await Deno.writeFile(path, await page.screenshot());
  console.log(`screenshot: ${path}`);
}

function shown(page: Page, id: string): Promise<number> {
  return page.evaluate<number>(
    `Number(document.getElementById(${JSON.stringify(id)}).getAttribute("data-shown"))`,
  );
}

function waitShown(page: Page, id: string, n: number): Promise<boolean> {
  return page.waitFor<boolean>(
    `document.getElementById(${JSON.stringify(id)})?.getAttribute("data-shown") === "${n}"`,
  );
}

function caseText(page: Page, selector = "#case"): Promise<string> {
  return page.evaluate<string>(`document.querySelector(${JSON.stringify(selector)}).textContent`);
}

Deno.test({
  name: "HTML report and compare page work in headless Chromium",
  ignore: chromium === undefined && !inCi,
  async fn(t) {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const dir = await Deno.makeTempDir({ prefix: "agentv-html-" });
    // Chromium boots while the 10,000 rows are made and rendered.
    const launching = Browser.launch(chromium);
    launching.catch(() => {}); // a failed start is reported where it is awaited
    let browser: Browser | undefined;
    try {
      const rows = allRows();
      const reportPath = `${dir}/report.html`;
      await Deno.writeTextFile(reportPath, renderHtmlReport(rows, { title: "10k cases" }));
      browser = await launching;
      const page = await browser.newPage();
      await page.goto(pathToFileURL(reportPath).href);
      await page.waitFor(`document.body.getAttribute("data-ready") === "true"`);

      await t.step("the page loads 10,000 cases with no console error", async () => {
        assert.deepEqual(page.problems, []);
        assert.equal(await shown(page, "cases-count"), rows.length);
        assert.equal(
          await page.evaluate(`document.querySelectorAll("#cases tbody tr").length`),
          100,
        );
        await keepScreenshot(page, "html-report.png");
      });

      await t.step("typing a search narrows the table to the matching cases", async () => {
        let zebras = 0;
        for (let i = 0; i < CASES; i++) if (i % 7 === 3) zebras++;
        await page.type("#search", "zebra");
        await waitShown(page, "cases-count", zebras);
        // With a dataset too: every third case is in "beta" (i % 3 === 1).
        let betaZebras = 0;
        for (let i = 0; i < CASES; i++) if (i % 7 === 3 && i % 3 === 1) betaZebras++;
        await page.evaluate(`(() => {
          const s = document.getElementById("filter-dataset");
          s.value = "beta";
          s.dispatchEvent(new Event("change"));
        })()`);
        await waitShown(page, "cases-count", betaZebras);
      });

      await t.step("a column header sorts the filtered cases", async () => {
        const scores = rows.filter((r) => /zebra/.test(r.candidate_answer) && r.dataset === "beta")
          .map((r) => r.score);
        await page.click(`#cases th button[data-key="score"]`);
        await page.waitFor(
          `document.querySelector("#cases th:nth-child(5)").getAttribute("aria-sort") === "ascending"`,
        );
        const first = await page.evaluate<string>(
          `document.querySelector("#cases tbody tr td:nth-child(5)").textContent`,
        );
        assert.equal(first, Math.min(...scores).toFixed(2));
      });

      await t.step("clicking a case opens its answer, evaluators and tool calls", async () => {
        const index = await page.evaluate<number>(
          `Number(document.querySelector("#cases tbody tr[data-row]").getAttribute("data-row"))`,
        );
        const row = rows[index];
        await page.click("#cases tbody tr[data-row]");
        await page.waitFor(`!document.getElementById("case").hidden`);
        const text = await caseText(page);
        assert.equal(
          await page.evaluate(`document.getElementById("case-title").textContent`),
          row.eval_id,
        );
        for (
          const expected of [
            row.candidate_answer,
            "lookup_order",
            `"order_id": "ORD-${index}"`,
            `shipped-${index}`,
            `reasoning of case ${index}`,
          ]
        ) {
          assert.ok(text.includes(expected), `case view shows ${expected}`);
        }
        await keepScreenshot(page, "html-report-case.png");
        await page.click("#case-close");
        await page.waitFor(`document.getElementById("case").hidden`);
      });

      await t.step("the result and score filters narrow to the right counts", async () => {
        await page.click("#filter-reset");
        await waitShown(page, "cases-count", rows.length);
        let errors = 0;
        for (let i = 0; i < CASES; i++) if (i % 97 === 5) errors++;
        await page.evaluate(`(() => {
          const s = document.getElementById("filter-result");
          s.value = "error";
          s.dispatchEvent(new Event("change"));
        })()`);
        await waitShown(page, "cases-count", errors);
        await page.click("#filter-reset");
        await waitShown(page, "cases-count", rows.length);
        await page.type("#filter-min", "0.9");
        await waitShown(page, "cases-count", rows.filter((r) => r.score >= 0.9).length);
      });

      await t.step("a hostile row renders as text and runs no script", async () => {
        await page.click("#filter-reset");
        await waitShown(page, "cases-count", rows.length);
        await page.type("#search", "onerror");
        await waitShown(page, "cases-count", 1);
        assert.equal(
          await page.evaluate(`document.querySelector("#cases tbody tr td").textContent`),
          HOSTILE,
        );
        await page.click("#cases tbody tr[data-row]");
        await page.waitFor(`!document.getElementById("case").hidden`);
        const text = await caseText(page);
        assert.ok(text.includes(hostile.candidate_answer));
        assert.ok(text.includes("<img src=y onerror=alert(3)>"));
        assert.equal(
          await page.evaluate(`document.querySelectorAll("img, #app script").length`),
          0,
        );
        assert.ok(
          await page.evaluate(
            `Array.from(document.querySelectorAll("#filter-dataset option")).some((o) => o.textContent === "<b>hostile</b>")`,
          ),
        );
        assert.deepEqual(page.dialogs, []);
        assert.deepEqual(page.problems, []);
      });

      await t.step("a row with unexpected shapes opens without a script error", async () => {
        await page.click("#case-close");
        // Closing the case view hands the focus back to its row: wait for that before typing.
        await page.waitFor(`document.getElementById("case").hidden`);
        await page.click("#filter-reset");
        await page.type("#search", "odd-shapes");
        await page.waitFor(`document.getElementById("search").value === "odd-shapes"`);
        await waitShown(page, "cases-count", 1);
        await page.click("#cases tbody tr[data-row]");
        await page.waitFor(`!document.getElementById("case").hidden`);
        assert.ok((await caseText(page)).includes("plain text"));
        assert.deepEqual(page.problems, []);
      });

      await t.step("the compare page shows both runs side by side with the Δ", async () => {
        const base = [0.9, 0.8, 0.5, 0.7, 0.95].map((s, i) =>
          makeRow(i, {
            score: s,
            verdict: verdictOf(s),
            dataset: "ds",
            candidate_answer: `old answer ${i}`,
          })
        );
        const cand = [0.9, 0.3, 0.85, 0.7, 1].map((s, i) =>
          makeRow(i, {
            score: s,
            verdict: verdictOf(s),
            dataset: "ds",
            candidate_answer: `new answer ${i}`,
          })
        );
        base.push(makeRow(50, { dataset: "ds" }));
        cand.push(makeRow(60, { dataset: "ds" }));
        const pairing = pairRuns(base, cand);
        const summary = summarizeComparison(pairing);
        const path = `${dir}/compare.html`;
        await Deno.writeTextFile(
          path,
          renderCompareHtml(pairing, summary, {
            labels: { baseline: "base.jsonl", candidate: "cand.jsonl" },
          }),
        );
        await page.goto(pathToFileURL(path).href);
        await page.waitFor(`document.body.getAttribute("data-ready") === "true"`);
        // 5 paired cases + one only in each run.
        assert.equal(await shown(page, "pairs-count"), 7);
        assert.equal(
          await page.evaluate(`document.getElementById("verdict-line").textContent`),
          summary.verdict_line,
        );
        // Sorted by Δ, worst first: case 1 went 0.8 → 0.3 (Δ −0.50, pass→fail).
        const first = await page.evaluate<string[]>(
          `Array.from(document.querySelectorAll("#pairs tbody tr:first-child td")).map((td) => td.textContent)`,
        );
        assert.deepEqual(first.slice(0, 5), ["case-00001", "ds", "0.80", "0.30", "-0.50"]);
        await page.evaluate(`(() => {
          const s = document.getElementById("filter-outcome");
          s.value = "pass\u2192fail";
          s.dispatchEvent(new Event("change"));
        })()`);
        await waitShown(page, "pairs-count", 1);
        await page.click("#pairs tbody tr[data-row]");
        await page.waitFor(`!document.getElementById("case").hidden`);
        assert.ok((await caseText(page, ".side-baseline")).includes("old answer 1"));
        assert.ok((await caseText(page, ".side-candidate")).includes("new answer 1"));
        assert.ok((await caseText(page)).includes("pass→fail"));
        await keepScreenshot(page, "html-compare-case.png");
        assert.deepEqual(page.problems, []);
      });
    } finally {
      browser ??= await launching.catch(() => undefined);
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
