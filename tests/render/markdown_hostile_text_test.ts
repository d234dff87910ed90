/**
 * The Markdown report (`report --format markdown`, `run --report markdown` and the GitHub step
 * summary) shows what models, judges and datasets wrote as text: a hostile answer's tracking
 * image, `javascript:` link, `@everyone`, backtick runs, raw `<img>`, bare URLs and `#123` render
 * as the characters they are, checked on the HTML a CommonMark renderer makes of the report.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { escapeMarkdownCell, renderMarkdownReport } from "../../lib/render/markdown.ts";
import { cli, project } from "../_helpers/run_project.ts";
import { assertInert, HOSTILE } from "./_markdown_html.ts";
import { row } from "../results/_rows.ts";

Deno.test("renderMarkdownReport() shows a hostile miss, error, case id and dataset as text", () => {
  const rows = [
    row(HOSTILE, 0.1, { dataset: HOSTILE, misses: [HOSTILE] }),
    row("boom", 0, { status: "error", error: HOSTILE }),
  ];
  const md = renderMarkdownReport(rows);
  assertInert(md);
  // Each cell that holds it (the dataset twice, the case id, the miss, the error) shows it whole.
  assert.equal(md.split(escapeMarkdownCell(HOSTILE)).length - 1, 5, md);
});

Deno.test("escapeMarkdownCell() leaves no link, image, mention, code span or issue reference", () => {
  for (
    const [text, cell] of [
      ["![x](https://e.test/t.png)", "!\\[x\\](https:&#8203;//e.test/t.png)"],
      ["[click](javascript:alert(1))", "\\[click\\](javascript:alert(1))"],
      ["@everyone @org/team", "@&#8203;everyone @&#8203;org/team"],
      ["`` a ` b ``", "\\`\\` a \\` b \\`\\`"],
      ['<img src="x">', '&lt;img src="x"&gt;'],
      ["www.e.test <https://e.test>", "www&#8203;.e.test &lt;https:&#8203;//e.test&gt;"],
      ["#12 GH-3 a#b", "#&#8203;12 GH-&#8203;3 a#b"],
      ["*a* _b_ ~c~ $d$", "\\*a\\* \\_b\\_ \\~c\\~ \\$d\\$"],
    ]
  ) assert.equal(escapeMarkdownCell(text), cell, text);
});

Deno.test("the step summary of a run whose judge wrote a hostile miss shows it as text", async () => {
  const verdict = JSON.stringify({ score: 0.1, hits: [], misses: [HOSTILE], reasoning: HOSTILE });
  await using p = await project({
    ".agentv/targets.yaml": [
      "targets:",
      "  - name: default",
      "    provider: mock",
      `    response: ${JSON.stringify(HOSTILE)}`,
      "    judge_target: judge",
      "  - name: judge",
      "    provider: mock",
      `    response: ${JSON.stringify(verdict)}`,
      "",
    ].join("\n"),
    "evals/a.yaml":
      "dataset: a\nevalcases:\n  - id: c1\n    expected_outcome: Says hi\n    input: Hi\n" +
      "    evaluators:\n      - type: llm_judge\n",
  });
  const summary = join(p.dir, "summary.md");
  const r = await cli(
    ["run", "evals", "--out", "o.jsonl", "--report", "markdown:report.md"],
    p.dir,
    { env: { GITHUB_STEP_SUMMARY: summary } },
  );
  assert.equal(r.code, 1, r.err);
  const text = await Deno.readTextFile(summary);
  assert.match(text, /### Failed cases \(1\)/);
  assertInert(text);
  assertInert(await Deno.readTextFile(join(p.dir, "report.md")));
  const report = await cli(["report", "o.jsonl", "--format", "markdown"], p.dir);
  assertInert(report.out);
});
