/**
 * The HTML report and the compare page in a real headless Chromium driven over the DevTools
 * protocol (10,000 cases load without console errors, the count matches, filters narrow it, sorting and the case view
 * work, hostile text stays text, the compare page shows both runs with the Δ). Screenshots are
 * kept under `.agentv/test-artifacts/` (git-ignored) and their paths printed.
 */
import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderCompareHtml } from "../../lib/render/compare_html.ts";
import { pairRuns } from "../../lib/compare/pair.ts";
import { summarizeComparison } from "../../lib/compare/summary.ts";
import { renderHtmlReport } from "../../lib/render/html/render_html_report.ts";
import { Browser, findChromium, MISSING_CHROMIUM, type Page } from "../_helpers/chromium.ts";
import { allRows, CASES, HOSTILE, hostile, makeRow, verdictOf } from "./_html_rows.ts";

const ARTIFACTS = fileURLToPath(new URL("../../.agentv/test-artifacts/", import.meta.url));
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
