/**
 * `agentv compare --format markdown` (a pull-request comment, a step summary) shows what datasets
 * named their cases and evaluators as text: a hostile id's tracking image, `javascript:` link,
 * `@everyone`, backtick runs, raw `<img>`, bare URLs and `#123` render as the characters they
 * are, checked on the HTML a CommonMark renderer makes of the comparison.
 */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { compareCommand } from "../../lib/cli/compare.ts";
import { markdownCell } from "../../lib/render/compare_markdown.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { assertInert, HOSTILE } from "./_markdown_html.ts";
import { jsonl } from "../compare/_rows.ts";

Deno.test("compare --format markdown shows a hostile case id and evaluator name as text", async () => {
  // One case flips pass→fail (the flips table), one is only in the baseline (its own table).
  await using tree = await tempTree({
    "a.jsonl": jsonl([
      { id: HOSTILE, score: 0.9, evaluators: { [HOSTILE]: 0.9 } },
      { id: `${HOSTILE} gone`, score: 0.5 },
    ]),
    "b.jsonl": jsonl([{ id: HOSTILE, score: 0.1, evaluators: { [HOSTILE]: 0.1 } }]),
  });
  const io = createBufferIO({ cwd: tree.root });
  const code = await runCli(["compare", "a.jsonl", "b.jsonl", "--format", "markdown"], io, {
    commands: [compareCommand],
  });
  assert.equal(code, 0, io.err());
  const md = io.out();
  assertInert(md, `ds/${HOSTILE}`);
  assert.match(md, /### Verdict flips/);
  assert.match(md, /### Only in baseline \(1\)/);
  // The case (flips, changed cases, only-in-baseline) and the evaluator each show it whole.
  assert.ok(md.split(markdownCell(HOSTILE)).length - 1 >= 4, md);
});

Deno.test("markdownCell() leaves no link, image, mention, code span or issue reference", () => {
  assert.equal(
    markdownCell("![x](https://e.test/t.png) @all `a` <b> #7\nnext"),
    "!\\[x\\](https:&#8203;//e.test/t.png) @&#8203;all \\`a\\` &lt;b&gt; #&#8203;7 next",
  );
});
