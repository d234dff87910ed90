/**
 * The calibration page (`agentv calibrate --format html`) in headless Chromium: it shows the gate,
 * each evaluator's confusion matrix, figures and disagreements, and the unstable answers, with
 * hostile text from judges, reviewers and datasets shown as text (no dialog, no console error, no
 * element made from it).
 */
import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";
import { calibrateJudge, summarizeConsistency } from "../../lib/calibration/mod.ts";
import { DEFAULT_BOOTSTRAP } from "../../lib/calibration/bootstrap.ts";
import { renderCalibrationHtml } from "../../lib/render/calibration_html.ts";
import type { Label } from "../../lib/schema/label.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { Browser, findChromium, MISSING_CHROMIUM } from "../_helpers/chromium.ts";

const ARTIFACTS = fileURLToPath(new URL("../../.agentv/test-artifacts/", import.meta.url));
const HOSTILE = "</script><img src=x onerror=alert(1)>";
const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

function row(i: number): ResultRow {
  const pass = i % 3 !== 0;
  return {
    run_id: "r1",
    trial: 0,
    timestamp: "2026-11-27T10:00:00.000Z",
    eval_id: `c${i}`,
    dataset: HOSTILE,
    conversation_id: null,
    target: "default",
    status: "ok",
    score: pass ? 0.9 : 0.1,
    verdict: pass ? "pass" : "fail",
    hits: [],
    misses: [],
    reasoning: `${HOSTILE} reasoning ${i}`,
    candidate_answer: "a",
    evaluator_results: [],
    trace_summary: null,
    output_messages: [],
    token_usage: null,
    duration_ms: 1,
    attempts: 1,
    error: null,
  };
}

function label(i: number, reviewer: string, pass: boolean): Label {
  return {
    run_id: "r1",
    dataset: HOSTILE,
    eval_id: `c${i}`,
    target: "default",
    trial: 0,
    evaluator: null,
    label: pass ? "pass" : "fail",
    score: null,
    reviewer,
    note: `${HOSTILE} note ${i}`,
    labelled_at: "2026-11-27T11:00:00.000Z",
  };
}

Deno.test({
  name: "the calibration page shows its figures in headless Chromium, hostile text as text",
  ignore: chromium === undefined && !inCi,
  async fn() {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const rows = Array.from({ length: 12 }, (_, i) => row(i));
    // ana agrees with the judge except on c1; bo disagrees on c2.
    const labels = [
      ...rows.map((_, i) => label(i, "ana", i === 1 ? false : i % 3 !== 0)),
      ...rows.map((_, i) => label(i, "bo", i === 2 ? false : i % 3 !== 0)),
    ];
    const report = calibrateJudge(rows, labels);
    const sample = (verdict: "pass" | "fail") => ({
      status: "ok" as const,
      verdict,
      score: verdict === "pass" ? 0.9 : 0.1,
    });
    const repeat = summarizeConsistency([{
      run_id: "r1",
      dataset: HOSTILE,
      eval_id: "c4",
      target: "default",
      trial: 0,
      evaluator: HOSTILE,
      type: "llm_judge",
      original: { verdict: "pass", score: 0.9 },
      samples: [sample("pass"), sample("fail"), sample("pass")],
    }], { kind: "repeat", k: 3, bootstrap: DEFAULT_BOOTSTRAP });
    const html = renderCalibrationHtml({
      results: ["run.jsonl"],
      labels_file: "labels.jsonl",
      report,
      repeat,
      orders: null,
      skipped: [],
      saved: null,
      gate: {
        fail_below: 0.9,
        min_labels: null,
        failures: ["the case verdict: κ 0.62 is below --fail-below 0.9"],
      },
    });
    const dir = await Deno.makeTempDir({ prefix: "agentv-calibration-html-" });
    let browser: Browser | undefined;
    try {
      const path = `${dir}/calibration.html`;
      await Deno.writeTextFile(path, html);
      browser = await Browser.launch(chromium);
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path).href);
      await page.waitFor(`document.getElementById("summary") !== null`);
      assert.deepEqual(page.problems, []);
      assert.equal(
        await page.evaluate(`document.getElementById("gate").textContent`),
        "Gate failed: the case verdict: κ 0.62 is below --fail-below 0.9",
      );
      const unit = report.units[0];
      // The confusion matrix as computed, cell by cell.
      const cells = await page.evaluate<string[]>(
        `Array.from(document.querySelectorAll("table.confusion tbody td")).map((td) => td.textContent)`,
      );
      const { tp, fp, fn, tn } = unit.confusion;
      assert.deepEqual(cells, ["judge pass", `${tp}`, `${fp}`, "judge fail", `${fn}`, `${tn}`]);
      const kappaRow = await page.evaluate<string[]>(
        `Array.from(document.querySelectorAll("table.figures tbody tr")).find((tr) => tr.firstChild.textContent === "Cohen's \\u03ba").textContent`,
      );
      assert.ok(String(kappaRow).includes(unit.kappa.value!.toFixed(2)));
      const text = await page.evaluate<string>("document.body.textContent");
      assert.ok(text.includes(`${HOSTILE} note 1`), "a reviewer's note is shown as text");
      assert.ok(text.includes("Krippendorff's α, reviewers"));
      assert.ok(text.includes("Self-consistency (each answer judged 3 times)"));
      assert.equal(await page.evaluate(`document.querySelectorAll("img").length`), 0);
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      await Deno.writeFile(`${ARTIFACTS}calibration.png`, await page.screenshot());
      assert.deepEqual(page.problems, []);
    } finally {
      await browser?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
