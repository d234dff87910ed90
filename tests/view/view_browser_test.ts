/**
 * `agentv view` end to end in headless Chromium (over the DevTools protocol): the command runs
 * in-process on a project with fixture runs; the browser opens the URL it printed, filters the
 * runs, opens a run and a case, labels it (and the line is found in `.agentv/labels.jsonl`),
 * follows the case's history, opens a trend (one point per run), a comparison of two runs and of
 * two targets, and a run full of hostile text. No page reports a console error. Screenshots are
 * kept under `.agentv/test-artifacts/`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../../lib/cli/app.ts";
import { readLabels } from "../../lib/results/labels.ts";
import { Browser, findChromium, MISSING_CHROMIUM, type Page } from "../_helpers/chromium.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { HOSTILE, HOSTILE_ANSWER, writeFixtureRuns } from "./_view_contract.ts";

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

function ready(page: Page): Promise<boolean> {
  return page.waitFor(`document.body.getAttribute("data-ready") === "true"`);
}

/** Clicks a link and waits for the next page to load and be ready. */
async function follow(browser: Browser, page: Page, selector: string): Promise<void> {
  let stop = () => {};
  const loaded = new Promise<void>((resolve) => {
    stop = browser.on("Page.loadEventFired", () => resolve());
  });
  await page.click(selector);
  await loaded;
  stop();
  await ready(page);
}

function select(page: Page, id: string, value: string): Promise<void> {
  return page.evaluate(`(() => {
    const s = document.getElementById(${JSON.stringify(id)});
    s.value = ${JSON.stringify(value)};
    s.dispatchEvent(new Event("change"));
  })()`);
}

function shown(page: Page, id: string, n: number): Promise<boolean> {
  return page.waitFor(
    `document.getElementById(${JSON.stringify(id)})?.getAttribute("data-shown") === "${n}"`,
  );
}

Deno.test({
  name: "agentv view works end to end in headless Chromium",
  ignore: chromium === undefined && !inCi,
  async fn(t) {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const root = await Deno.makeTempDir({ prefix: "agentv-view-e2e-" });
    const launching = Browser.launch(chromium);
    launching.catch(() => {});
    let browser: Browser | undefined;
    const io = createBufferIO({ cwd: root, env: { USER: "ana" } });
    let exit: Promise<number> | undefined;
    try {
      await writeFixtureRuns(join(root, ".agentv", "results"));
      exit = runCli(["view"], io);
      await Promise.race([io.waitFor(/Open http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/), exit]);
      const url = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(io.out())?.[1];
      assert.ok(url, io.out() + io.err());
      const origin = new URL(url).origin;
      const token = new URL(url).searchParams.get("token")!;
      browser = await launching;
      const page = await browser.newPage();

      await t.step("the run list shows every run and filters them", async () => {
        await page.goto(url);
        await ready(page);
        await shown(page, "runs-count", 8);
        await select(page, "filter-dataset", "qa");
        await shown(page, "runs-count", 7);
        await select(page, "filter-target", "claude");
        await shown(page, "runs-count", 1);
        await select(page, "filter-target", "");
        await select(page, "filter-dataset", "");
        await shown(page, "runs-count", 8);
        await keepScreenshot(page, "view-runs.png");
        assert.deepEqual(page.problems, []);
      });

      await t.step("a run opens with its cases, charts and label tile", async () => {
        await follow(browser!, page, `a.run-link[href*="id=drop"]`);
        await shown(page, "cases-count", 6);
        assert.equal(
          await page.evaluate(`document.querySelectorAll("#chart-histogram rect.bar").length`),
          10,
        );
        assert.equal(
          await page.evaluate(`document.querySelectorAll("#chart-evaluators rect.bar").length`),
          1,
        );
        assert.equal(
          await page.evaluate(`document.getElementById("labels-tile").getAttribute("data-labels")`),
          "0",
        );
        await keepScreenshot(page, "view-run.png");
        assert.deepEqual(page.problems, []);
      });

      await t.step("a case is labelled, and the label is a line of labels.jsonl", async () => {
        await page.click(`#cases tbody tr[data-row="0"]`);
        await page.waitFor(`!document.getElementById("case").hidden`);
        await select(page, "label-verdict", "pass");
        await page.type("#label-note", `looks right ${HOSTILE}`);
        await page.click("#label-save");
        await page.waitFor(`document.getElementById("label-status").textContent === "Saved"`);
        const { labels } = await readLabels(join(root, ".agentv", "labels.jsonl"));
        assert.equal(labels.length, 1);
        assert.deepEqual(
          [labels[0].run_id, labels[0].eval_id, labels[0].label, labels[0].reviewer],
          ["drop", "case-0", "pass", "ana"],
        );
        assert.equal(labels[0].note, `looks right ${HOSTILE}`);
        // case-0 scored 0.2 (fail): the reviewer's pass disagrees, and the tile says so.
        await page.waitFor(
          `document.getElementById("labels-tile").getAttribute("data-disagreements") === "1"`,
        );
        assert.ok(
          (await page.evaluate<string>(`document.getElementById("case-labels").textContent`))
            .includes(`looks right ${HOSTILE}`),
        );
        await keepScreenshot(page, "view-case-label.png");
        assert.deepEqual(page.dialogs, []);
        assert.deepEqual(page.problems, []);
      });

      await t.step("the case's history shows every run and the flip, side by side", async () => {
        await follow(browser!, page, "#case-history-link");
        assert.equal(
          await page.evaluate(`document.querySelectorAll("#case-runs tbody tr").length`),
          6,
        );
        assert.equal(
          await page.evaluate(`document.querySelector("#case-runs tbody tr td.flip").textContent`),
          "pass→fail",
        );
        const diff = await page.evaluate<string>(
          `document.getElementById("answer-diff").textContent`,
        );
        assert.ok(
          diff.includes("- answer 0 of flat-4") && diff.includes("+ answer 0 of drop"),
          diff,
        );
        await keepScreenshot(page, "view-case-history.png");
        assert.deepEqual(page.problems, []);
      });

      await t.step("a trend has a point per run, and a point opens its run", async () => {
        await page.goto(`${origin}/trend?dataset=qa&target=gpt&token=${token}`);
        await ready(page);
        assert.equal(
          await page.evaluate(
            `document.querySelectorAll("#chart-pass-rate circle[data-run]").length`,
          ),
          6,
        );
        assert.match(
          await page.evaluate<string>(`document.getElementById("drift-line").textContent`),
          /^degrading: /,
        );
        await keepScreenshot(page, "view-trend.png");
        await follow(browser!, page, `#chart-mean a.point-link:last-of-type`);
        assert.equal(await page.evaluate(`new URLSearchParams(location.search).get("id")`), "drop");
        assert.deepEqual(page.problems, []);
      });

      await t.step("two runs and two targets compare", async () => {
        await page.goto(`${origin}/compare?base=flat-4&cand=drop&token=${token}`);
        await ready(page);
        await shown(page, "pairs-count", 6);
        assert.match(
          await page.evaluate<string>(`document.getElementById("verdict-line").textContent`),
          /^(regressed|no significant change): mean Δ -/,
        );
        await keepScreenshot(page, "view-compare.png");
        await page.goto(`${origin}/compare?dataset=qa&targets=gpt,claude&token=${token}`);
        await ready(page);
        assert.equal(
          await page.evaluate(`document.querySelectorAll("#targets-table tbody tr").length`),
          2,
        );
        assert.deepEqual(page.problems, []);
      });

      await t.step("hostile text renders as text and runs no script", async () => {
        const id = encodeURIComponent(`hostile-${HOSTILE}`);
        await page.goto(`${origin}/run?id=${id}&token=${token}`);
        await ready(page);
        await shown(page, "cases-count", 2);
        await page.click(`#cases tbody tr[data-row="0"]`);
        await page.waitFor(`!document.getElementById("case").hidden`);
        const text = await page.evaluate<string>(`document.getElementById("case").textContent`);
        assert.ok(text.includes(HOSTILE_ANSWER));
        assert.ok(text.includes("<img src=y onerror=alert(4)>"));
        assert.ok(text.includes(`added: ${HOSTILE}.txt`), "the workspace changes are shown");
        assert.equal(
          await page.evaluate(`document.querySelector("#case pre.workspace-diff").textContent`),
          `+++ b/${HOSTILE}.txt\n+${HOSTILE_ANSWER}\n`,
        );
        assert.equal(
          await page.evaluate(`document.querySelectorAll("img, #app script").length`),
          0,
        );
        const dataset = encodeURIComponent(`<b>${HOSTILE}</b>`);
        const target = encodeURIComponent("<img src=y onerror=alert(3)>");
        for (
          const path of [
            "/?",
            `/trend?dataset=${dataset}&target=${target}&`,
            `/trend?`,
            `/case?dataset=${dataset}&target=${target}&eval_id=${
              encodeURIComponent(`${HOSTILE}-0`)
            }&`,
            `/compare?base=${id}&cand=${id}&`,
          ]
        ) {
          await page.goto(`${origin}${path}token=${token}`);
          await ready(page);
          assert.equal(
            await page.evaluate(`document.querySelectorAll("img, #app script").length`),
            0,
            path,
          );
          assert.equal(await page.evaluate(`document.getElementById("view-error")`), null, path);
        }
        assert.ok(
          (await page.evaluate<string>(`document.getElementById("pairs").textContent`)).includes(
            `${HOSTILE}-0`,
          ),
        );
        assert.deepEqual(page.dialogs, []);
        assert.deepEqual(page.problems, []);
      });

      await t.step("a page opened without the token shows nothing", async () => {
        const res = await fetch(`${origin}/`);
        assert.equal(res.status, 401);
        await res.body?.cancel();
      });
    } finally {
      browser ??= await launching.catch(() => undefined);
      await browser?.close();
      io.interrupt();
      if (exit) assert.equal(await exit, 0, io.err());
      await Deno.remove(root, { recursive: true });
    }
  },
});
