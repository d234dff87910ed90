/** Loader: bounded work on hostile inputs (bombs, long lines, deep nesting, bad bytes). */
import assert from "node:assert/strict";
import { loadEvalCases, validateEvalFile } from "../../mod.ts";
import { dataset, line, yamlCase } from "./_helpers.ts";

Deno.test("bounded work: bombs, long lines, deep nesting, BOM, CRLF, bad bytes", async () => {
  let bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${`*a${i - 1}, `.repeat(9)}*a${i - 1}]\n`;
  const ok = line({ id: "a", expected_outcome: "G", input: "Q" });
  const long = "y".repeat(20 * 1024 * 1024);
  await using ds = await dataset({
    "bomb.yaml": bomb + "evalcases: []\n",
    "long.jsonl": line({ id: "a", expected_outcome: "G", input: long }) + "\n",
    "deep.jsonl": `{"id":"a","expected_outcome":"G","input":"Q","metadata":{"x":${
      "[".repeat(50_000)
    }${"]".repeat(50_000)}}}\n`,
    "deep.yml": `evalcases:\n  - id: a\n    expected_outcome: G\n    input: Q\n    metadata: {x: ${
      "[".repeat(50_000)
    }${"]".repeat(50_000)}}\n`,
    "bom.jsonl": "\uFEFF" + ok + "\r\n\r\n" + ok.replace('"a"', '"b"') + "\r\n",
    "crlf.yaml": "\uFEFFevalcases:\r\n" + yamlCase("a").replaceAll("\n", "\r\n"),
    "bad.yaml": new Uint8Array([...new TextEncoder().encode("evalcases: [\xff"), 0xff, 0xfe]),
    "nul.jsonl": new Uint8Array([0, 0, 0, 0]),
  });
  // Unbounded work (expanding the alias bomb, recursing 50,000 levels) would not return at all or
  // would crash; each file gets a verdict instead.
  const outcome = (name: string) => validateEvalFile(ds.path(name));
  assert.equal((await outcome("bomb.yaml")).valid, false);
  const longReport = await outcome("long.jsonl");
  assert.equal(longReport.cases, 1);
  assert.equal((await outcome("deep.jsonl")).valid, false);
  assert.equal((await outcome("deep.yml")).valid, false);
  const bom = await outcome("bom.jsonl");
  assert.deepEqual([bom.valid, bom.cases], [true, 2]);
  const crlf = await outcome("crlf.yaml");
  assert.deepEqual([crlf.valid, crlf.cases], [true, 1]);
  assert.equal((await loadEvalCases(ds.path("crlf.yaml")))[0].expected_outcome, "Goal");
  assert.equal((await outcome("bad.yaml")).valid, false);
  assert.equal((await outcome("nul.jsonl")).valid, false);
});
