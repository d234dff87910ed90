/**
 * The integrity guard in the HTML report, in headless Chromium: the case view of a flagged case
 * shows each finding with its evidence.
 */
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { renderHtmlReport } from "../../lib/render/html/render_html_report.ts";
import { Browser, findChromium, MISSING_CHROMIUM } from "../_helpers/chromium.ts";
import { ROWS } from "./_integrity_rows.ts";

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

Deno.test({
  name: "the HTML case view shows each integrity finding with its evidence",
  ignore: chromium === undefined && !inCi,
  async fn() {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const dir = await Deno.makeTempDir({ prefix: "agentv-html-integrity-" });
    const browser = await Browser.launch(chromium);
    try {
      const path = `${dir}/report.html`;
      await Deno.writeTextFile(path, renderHtmlReport(ROWS));
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path).href);
      await page.waitFor(`document.body.getAttribute("data-ready") === "true"`);
      await page.type("#search", "gamed");
      await page.waitFor(
        `document.getElementById("cases-count")?.getAttribute("data-shown") === "1"`,
      );
      await page.click("#cases tbody tr[data-row]");
      await page.waitFor(`!document.getElementById("case").hidden`);
      const text = await page.evaluate<string>(
        `document.querySelector(".integrity-part").textContent`,
      );
      assert.match(text, /^Integrityflagged/);
      assert.ok(text.includes("protected_modified · calc.test.mjs"), text);
      assert.ok(text.includes('+test("add", () => assert.ok(true));'), text);
      assert.ok(text.includes("claim_after_failing_tests · step 2"), text);
      assert.deepEqual(page.problems, []);
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
