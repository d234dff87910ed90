/**
 * The N-way compare page (`agentv compare --format html` of several targets) in headless
 * Chromium: it loads with no console error, the leaderboard is in the order computed, the
 * pairwise matrix has a cell per pair of targets, the score–cost scatter has one point per target
 * that reports a cost, and a case opens with the targets' answers side by side, each with a
 * word-level diff against the baseline; hostile text stays text.
 */
import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { armsOf } from "../../lib/compare/arms.ts";
import { compareArms } from "../../lib/compare/matrix.ts";
import { renderMatrixHtml } from "../../lib/render/matrix_html.ts";
import { Browser, findChromium, MISSING_CHROMIUM } from "../_helpers/chromium.ts";
import { row, type RowSpec } from "../compare/_rows.ts";

const ARTIFACTS = fileURLToPath(new URL("../../.agentv/test-artifacts/", import.meta.url));
const HOSTILE = "</script><img src=x onerror=alert(1)>";
const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

/** 12 cases: `base` (no cost reported), `big` (best, dear) and `small` (cheap, in between). */
function rows() {
  const specs: RowSpec[] = [];
  for (let i = 0; i < 12; i++) {
    specs.push(
      {
        id: `case-${i}`,
        target: "base",
        score: 0.5,
        answer: i === 0 ? "The capital of France is Paris, of course." : `base ${i}`,
      },
      {
        id: `case-${i}`,
        target: "big",
        score: 0.9,
        cost: 0.05,
        answer: i === 0 ? "The capital of France is Lyon, of course." : `big ${i} ${HOSTILE}`,
      },
      { id: `case-${i}`, target: "small", score: 0.7, cost: 0.01, answer: `small ${i}` },
    );
  }
  return specs.map(row);
}

Deno.test({
  name:
    "the N-way compare page: leaderboard order, pairwise matrix, scatter points, a case's answers side by side with a word diff",
  ignore: chromium === undefined && !inCi,
  async fn() {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const m = compareArms(armsOf([{ source: "sweep.jsonl", rows: rows() }]));
    const html = renderMatrixHtml(m);
    const dir = await Deno.makeTempDir({ prefix: "agentv-matrix-html-" });
    let browser: Browser | undefined;
    try {
      const path = `${dir}/compare.html`;
      await Deno.writeTextFile(path, html);
      browser = await Browser.launch(chromium);
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path).href);
      await page.waitFor(`document.body.getAttribute("data-ready") === "true"`);
      assert.deepEqual(page.problems, []);
      // The leaderboard in the order computed: big 0.9, small 0.7, base 0.5.
      const order = await page.evaluate<string[]>(
        `Array.from(document.querySelectorAll("#leaderboard tbody tr")).map((tr) => tr.getAttribute("data-label"))`,
      );
      assert.deepEqual(order, m.leaderboard.map((s) => s.label));
      assert.deepEqual(order, ["big", "small", "base"]);
      // A 3 × 3 matrix: the diagonal plus six cells, big's wins marked significant.
      assert.equal(
        await page.evaluate(`document.querySelectorAll("#pairwise tbody td").length`),
        9,
      );
      assert.ok(
        await page.evaluate<boolean>(
          `document.querySelectorAll("#pairwise td.sig-better").length >= 2`,
        ),
      );
      // Two targets report a cost (base does not): two points, both on the front.
      assert.equal(
        await page.evaluate(`document.querySelectorAll("#scatter circle.point").length`),
        2,
      );
      assert.equal(
        await page.evaluate(`document.querySelectorAll("#scatter circle.point.front").length`),
        2,
      );
      assert.match(
        await page.evaluate<string>(`document.getElementById("verdict-line").textContent`),
        /^big is best: it significantly beats small and base \(Holm-corrected for 3 pairs\)$/,
      );
      assert.equal(await page.evaluate(`document.querySelectorAll("#cases tbody tr").length`), 12);
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      await Deno.writeFile(`${ARTIFACTS}compare-matrix-page.png`, await page.screenshot());
      // Open case-0: three answers side by side, each other target's with a word diff.
      await page.click(`#cases tbody tr[data-row="0"]`);
      await page.waitFor(`!document.getElementById("case").hidden`);
      assert.equal(await page.evaluate(`document.querySelectorAll("#case .arm").length`), 3);
      assert.equal(
        await page.evaluate(`document.querySelector("#case .arm.baseline h3").textContent`),
        "base (baseline)",
      );
      const diff = await page.evaluate<{ del: string[]; ins: string[] }>(`(() => {
        const big = Array.from(document.querySelectorAll("#case .arm")).find((a) => a.querySelector("h3").textContent === "big");
        const pre = big.querySelector("pre.diff");
        return {
          del: Array.from(pre.querySelectorAll("del")).map((n) => n.textContent),
          ins: Array.from(pre.querySelectorAll("ins")).map((n) => n.textContent),
        };
      })()`);
      assert.deepEqual(diff, { del: ["Paris,"], ins: ["Lyon,"] });
      // Hostile text is text: no image, no dialog.
      await page.evaluate(`location.hash = "case-1"`);
      await page.waitFor(`document.getElementById("case-title").textContent === "case-1"`);
      assert.ok(
        (await page.evaluate<string>(`document.getElementById("case").textContent`)).includes(
          HOSTILE,
        ),
      );
      assert.equal(await page.evaluate(`document.querySelectorAll("img").length`), 0);
      await Deno.writeFile(`${ARTIFACTS}compare-matrix-case.png`, await page.screenshot());
      assert.deepEqual(page.problems, []);
      assert.deepEqual(page.dialogs, []);
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
