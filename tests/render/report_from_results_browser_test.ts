/**
 * A report made from a results file alone shows the question and what the agent changed, in
 * headless Chromium: `agentv run` (a `cli` target that edits its workspace) then `agentv report`
 * on the results file, and `agentv run --shard` twice then `agentv merge` then `agentv report`:
 * the case view shows the input as a conversation (its files inline, a large one by size and
 * hash), the expected outcome and output, and the workspace diff with the syntax of a unified
 * diff; the page shows the run (targets, version), a score histogram and per-evaluator bars.
 * A trials run's 5 cases × 6 trials read as 5 cases whose tiles agree with the gate; rows written
 * before rows carried their question still make a report. Hostile text in the question stays text.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AGENTV_VERSION } from "../../lib/results/run_record.ts";
import { shardOf } from "../../lib/run/plan.ts";
import { Browser, findChromium, MISSING_CHROMIUM, type Page } from "../_helpers/chromium.ts";
import { cli, project } from "../_helpers/run_project.ts";
import { trialRows } from "./_trial_rows.ts";

const ARTIFACTS = fileURLToPath(new URL("../../.agentv/test-artifacts/", import.meta.url));
const HOSTILE = "<img src=x onerror=alert(1)>";
const SPEC = `The third line must read "fixed". ${HOSTILE}\n`;
const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

function evalCase(id: string): string {
  return `  - id: ${id}
    expected_outcome: Fixes app.txt and says so
    input:
      - role: system
        content: You are a careful engineer.
      - role: user
        content:
          - type: text
            value: Fix the broken line of app.txt ${HOSTILE}
          - type: file
            value: spec.md
          - type: file
            value: big.log
    expected_output:
      - role: assistant
        content: Thanks, fixed.
    evaluators:
      - name: says-fixed
        type: contains
        value: fixed
`;
}

/** Two cases (one per shard of 2) against a cli target that edits app.txt and adds a file. */
function files(): Record<string, string> {
  return {
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    workspace_template: ../project
    command_template: "printf 'one\\\\ntwo\\\\nfixed\\\\n' > app.txt && printf 'note\\\\n' > added.txt && echo 'Thanks, fixed.'"
`,
    "project/app.txt": "one\ntwo\nbroken\n",
    "evals/repairs.yaml": `dataset: repairs\nevalcases:\n${evalCase("fix-app")}${
      evalCase("fix-app-2")
    }`,
    "evals/spec.md": SPEC,
    "evals/big.log": "x".repeat(20_000) + "\n",
  };
}

const ENV = { PATH: Deno.env.get("PATH") ?? "" };

async function agentv(args: string[], dir: string): Promise<void> {
  const { code, out, err } = await cli(args, dir, { env: ENV });
  assert.equal(code, 0, `agentv ${args.join(" ")}\n${out}${err}`);
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(pathToFileURL(path).href);
  await page.waitFor(`document.body.getAttribute("data-ready") === "true"`);
}

async function openCase(page: Page, index: number): Promise<void> {
  await page.evaluate(`location.hash = "case-${index}"`);
  await page.waitFor(`!document.getElementById("case").hidden`);
}

function texts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(
    `Array.from(document.querySelectorAll(${JSON.stringify(selector)})).map((e) => e.textContent)`,
  );
}

async function keepScreenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await Deno.writeFile(`${ARTIFACTS}${name}`, await page.screenshot());
  console.log(`screenshot: ${ARTIFACTS}${name}`);
}

/** The case view of the open case shows its question, expectation, answer and diff. */
async function assertCaseView(page: Page): Promise<void> {
  assert.deepEqual(await texts(page, "#case .input-conversation .msg-head strong"), [
    "system",
    "user",
  ]);
  const input = (await texts(page, "#case .input-part"))[0];
  assert.ok(input.includes(`Fix the broken line of app.txt ${HOSTILE}`), input);
  assert.deepEqual(await texts(page, "#case .input-part .file-name"), ["spec.md", "big.log"]);
  assert.deepEqual(await texts(page, "#case .input-part .file-text"), [SPEC]);
  assert.ok(input.includes("Recorded by size and hash only"), "the large file is by reference");
  assert.ok(
    (await texts(page, "#case .expected-part"))[0].includes("Fixes app.txt and says so"),
  );
  assert.ok((await texts(page, "#case .expected-output-part"))[0].includes("Thanks, fixed."));
  // Files in path order: added.txt, then app.txt.
  assert.deepEqual(await texts(page, "#case .workspace-diff .diff-file"), [
    "--- /dev/null\n",
    "+++ b/added.txt\n",
    "--- a/app.txt\n",
    "+++ b/app.txt\n",
  ]);
  assert.deepEqual(await texts(page, "#case .workspace-diff .diff-del"), ["-broken\n"]);
  assert.deepEqual(await texts(page, "#case .workspace-diff .diff-add"), ["+note\n", "+fixed\n"]);
  assert.equal((await texts(page, "#case .workspace-diff .diff-hunk")).length, 2);
  assert.equal(await page.evaluate(`document.querySelectorAll("img, #app script").length`), 0);
  assert.deepEqual(page.dialogs, []);
  assert.deepEqual(page.problems, []);
}

/** A tile's value by its label. */
function tileValue(page: Page, label: string): Promise<string> {
  return page.evaluate<string>(`(() => {
    const tile = Array.from(document.querySelectorAll("#summary .tile"))
      .find((t) => t.querySelector(".tile-label").textContent === ${JSON.stringify(label)});
    return tile ? tile.querySelector(".tile-value").textContent : "(no tile)";
  })()`);
}

Deno.test({
  name:
    "a report made from a results file shows the input and the workspace diff in headless Chromium",
  ignore: chromium === undefined && !inCi,
  async fn(t) {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const launching = Browser.launch(chromium);
    launching.catch(() => {}); // a failed start is reported where it is awaited
    let browser: Browser | undefined;
    await using p = await project(files());
    try {
      await agentv(["run", "evals", "--allow-run", "--out", "results.jsonl", "--quiet"], p.dir);
      await agentv(["report", "results.jsonl", "--format", "html", "--out", "report.html"], p.dir);
      browser = await launching;
      const page = await browser.newPage();

      await t.step("agentv report: the run, the histogram and the evaluator bars", async () => {
        await open(page, join(p.dir, "report.html"));
        const run = (await texts(page, "#run-info"))[0];
        assert.ok(run.includes(AGENTV_VERSION), run);
        assert.deepEqual(await texts(page, "#run-targets tbody td"), ["default", "cli", "–"]);
        const bars = await page.evaluate<number[]>(
          `Array.from(document.querySelectorAll("#report-histogram rect.bar")).map((r) => Number(r.getAttribute("data-value")))`,
        );
        assert.deepEqual(bars, [0, 0, 0, 0, 2]);
        assert.deepEqual(
          await page.evaluate(
            `Array.from(document.querySelectorAll("#report-evaluators rect.bar")).map((r) => r.getAttribute("data-value"))`,
          ),
          ["1"],
        );
        assert.deepEqual(page.problems, []);
      });

      await t.step("agentv report: the case view shows the question and the diff", async () => {
        await openCase(page, 0);
        await assertCaseView(page);
        await keepScreenshot(page, "report-from-results-case.png");
      });

      await t.step("agentv merge then agentv report: the same from the merged file", async () => {
        // The premise: each shard of 2 holds one of the two cases.
        assert.deepEqual([shardOf("repairs", "fix-app", 2), shardOf("repairs", "fix-app-2", 2)], [
          0,
          1,
        ]);
        for (const i of [0, 1]) {
          await agentv(
            ["run", "evals", "--allow-run", "--shard", `${i}/2`, "--out", `shards/${i}.jsonl`],
            p.dir,
          );
        }
        await agentv(["merge", "shards/0.jsonl", "shards/1.jsonl", "-o", "all.jsonl"], p.dir);
        await agentv(["report", "all.jsonl", "--format", "html", "--out", "merged.html"], p.dir);
        await open(page, join(p.dir, "merged.html"));
        assert.ok((await texts(page, "#run-info"))[0].includes("2 shard run(s)"));
        assert.equal(
          await page.evaluate(`document.getElementById("cases-count").getAttribute("data-shown")`),
          "2",
        );
        for (const index of [0, 1]) {
          await openCase(page, index);
          await assertCaseView(page);
        }
      });
    } finally {
      await (browser ?? await launching.catch(() => undefined))?.close();
    }
  },
});

Deno.test({
  name:
    "a report of 5 cases × 6 trials lists 5 cases whose tiles agree with the gate; older rows still make a report",
  ignore: chromium === undefined && !inCi,
  async fn(t) {
    if (chromium === undefined) throw new Error(`${MISSING_CHROMIUM}; CI=true requires it`);
    const launching = Browser.launch(chromium);
    launching.catch(() => {});
    let browser: Browser | undefined;
    await using p = await project({
      "trials.jsonl": trialRows().map((r) => JSON.stringify(r)).join("\n") + "\n",
      "diff.jsonl": JSON.stringify({
        ...trialRows()[0],
        workspace: {
          template: null,
          path: null,
          added: [],
          modified: ["a.sql", "b.sql"],
          deleted: [],
          // A removed SQL comment reads "--- …" inside its hunk: still a removed line.
          diff: "--- a/a.sql\n+++ b/a.sql\n@@ -1,2 +1,1 @@\n-- old note\n--- x\n+++ y\n" +
            "--- a/b.sql\n+++ b/b.sql\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n",
          diff_truncated: false,
        },
      }) + "\n",
      "older.jsonl": trialRows().filter((r) => r.trial === 0).map((r) => {
        const { input: _i, expected_outcome: _e, ...older } = r;
        return JSON.stringify(older);
      }).join("\n") + "\n",
    });
    try {
      await agentv(["report", "trials.jsonl", "--format", "html", "--out", "trials.html"], p.dir);
      const json = await cli(["report", "trials.jsonl", "--format", "json"], p.dir);
      const gate = JSON.parse(json.out).summary.trials as {
        cases: { eval_id: string; verdict: string }[];
        flaky: unknown[];
      };
      browser = await launching;
      const page = await browser.newPage();

      await t.step("one line per case, and tiles counting the gate's verdicts", async () => {
        await open(page, join(p.dir, "trials.html"));
        assert.equal(
          await page.evaluate(`document.getElementById("cases-count").getAttribute("data-shown")`),
          "5",
        );
        assert.deepEqual(await texts(page, "#cases tbody td.id"), [
          "steady",
          "broken",
          "coin",
          "mostly",
          "never-ran",
        ]);
        const count = (v: string) => String(gate.cases.filter((c) => c.verdict === v).length);
        assert.equal(await tileValue(page, "Cases"), "5");
        assert.equal(await tileValue(page, "Pass"), count("pass"));
        assert.equal(await tileValue(page, "Fail"), count("fail"));
        assert.equal(await tileValue(page, "Borderline"), count("borderline"));
        assert.equal(await tileValue(page, "Flaky"), String(gate.flaky.length));
        assert.equal(await tileValue(page, "Skipped"), "1");
        assert.equal(await tileValue(page, "Trials"), "24");
        // pass@3 of 3 passed in 6 trials: 1 - C(3,3)/C(6,3) = 0.95; of 5 in 6: 1.
        assert.deepEqual(
          await page.evaluate(`(() => {
            const at = Array.from(document.querySelectorAll("#cases thead th"))
              .findIndex((th) => th.textContent === "pass@3");
            return Array.from(document.querySelectorAll("#cases tbody tr"))
              .map((tr) => tr.children[at].textContent);
          })()`),
          ["1.00", "0.00", "0.95", "1.00", "–"],
        );
        assert.deepEqual(await texts(page, "#cases tbody td.flaky-col"), [
          "",
          "",
          "⚑ flaky",
          "⚑ flaky",
          "",
        ]);
        await keepScreenshot(page, "report-trials.png");
        assert.deepEqual(page.problems, []);
      });

      await t.step("a case opens with pass@k for every k and each trial's case view", async () => {
        await openCase(page, 2);
        assert.equal((await texts(page, "#case-title"))[0], "coin");
        assert.equal((await texts(page, "#pass-at-k tbody tr")).length, 6);
        assert.ok((await texts(page, "#case .group-stats"))[0].includes("passed 3 of 6"));
        assert.equal((await texts(page, "#trial-buttons button")).length, 6);
        await page.click(`#trial-buttons button[data-trial="3"]`);
        await page.waitFor(
          `document.querySelector("#case .answer").textContent.includes("No. (coin #3)")`,
        );
        assert.deepEqual(page.problems, []);
      });

      await t.step("a diff is read by its hunks' line counts", async () => {
        await agentv(["report", "diff.jsonl", "--format", "html", "--out", "diff.html"], p.dir);
        await open(page, join(p.dir, "diff.html"));
        await openCase(page, 0);
        const kinds = await page.evaluate<string[]>(
          `Array.from(document.querySelectorAll("#case .workspace-diff span")).map((s) => s.className + " " + s.textContent.trim())`,
        );
        assert.deepEqual(kinds, [
          "diff-file --- a/a.sql",
          "diff-file +++ b/a.sql",
          "diff-hunk @@ -1,2 +1,1 @@",
          "diff-del -- old note",
          "diff-del --- x",
          "diff-add +++ y",
          "diff-file --- a/b.sql",
          "diff-file +++ b/b.sql",
          "diff-hunk @@ -1 +1 @@",
          "diff-del -a",
          "diff-add +b",
          "diff-note \\ No newline at end of file",
        ]);
        assert.deepEqual(page.problems, []);
      });

      await t.step("rows without their question still make a report", async () => {
        await agentv(["report", "older.jsonl", "--format", "html", "--out", "older.html"], p.dir);
        await open(page, join(p.dir, "older.html"));
        await openCase(page, 0);
        assert.ok(
          (await texts(page, "#case .input-part"))[0].includes(
            "Input not recorded in the results file",
          ),
        );
        assert.deepEqual(page.problems, []);
      });
    } finally {
      await (browser ?? await launching.catch(() => undefined))?.close();
    }
  },
});
