/**
 * Every eval file of the real corpus loads with the case count its README lists and no error
 * diagnostics; the compiled fast path and the full schema agree on every corpus case.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { reuseMessages } from "../../lib/dataset/case_pipeline.ts";
import { loadEvalFile } from "../../lib/dataset/load_eval_file.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { compileFastCaseSchema, RawEvalCaseSchema } from "../../lib/schema/eval_file.ts";
import { parseYamlSource } from "../../lib/dataset/yaml_source.ts";
import { splitJsonlLines } from "../../lib/dataset/jsonl_source.ts";

const corpus = fileURLToPath(new URL("../../fixtures/corpus/", import.meta.url));
const readme = Deno.readTextFileSync(`${corpus}README.md`);
const table = [
  ...readme.matchAll(/^\| ([^|]+?\.(?:yaml|jsonl))[^|]*\| (YAML|JSONL) \| (\d+) \|$/gm),
]
  .map((m) => ({ file: m[1], cases: Number(m[3]) }));

Deno.test("corpus README lists the 21 eval files", () => {
  assert.equal(table.length, 21);
});

for (const { file, cases } of table) {
  Deno.test(`corpus: ${file} loads ${cases} cases without errors`, async () => {
    const report = await validateEvalFile(`${corpus}agentv-examples/${file}`);
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), []);
    assert.equal(report.valid, true);
    assert.equal(report.cases, cases);
  });
}

Deno.test("corpus: the JSONL example resolves ../basic references inside the features root", async () => {
  const loaded = await loadEvalFile(
    `${corpus}agentv-examples/features/basic-jsonl/evals/dataset.jsonl`,
  );
  assert.equal(loaded.root, `${corpus}agentv-examples/features`);
  const review = loaded.cases.find((c) => c.id === "code-review-javascript")!;
  assert.deepEqual(review.guideline_paths, [
    `${corpus}agentv-examples/features/basic/evals/javascript.instructions.md`,
  ]);
  assert.equal(review.dataset, "basic-jsonl");
});

Deno.test("corpus: the compiled fast parser and the full schema give the same output", async () => {
  let compared = 0;
  let fastPath = 0;
  const FastRawEvalCaseSchema = compileFastCaseSchema();
  for (const { file } of table) {
    const text = await Deno.readTextFile(`${corpus}agentv-examples/${file}`);
    const raws: unknown[] = file.endsWith(".jsonl")
      ? [...splitJsonlLines(text)].map((l) => JSON.parse(l.text))
      : await (async () => {
        const r = await parseYamlSource(text);
        assert.ok(r.ok);
        return (r.source.value as { evalcases: unknown[] }).evalcases;
      })();
    for (const raw of raws) {
      const full = RawEvalCaseSchema.safeParse(raw);
      const fast = FastRawEvalCaseSchema.safeParse(raw);
      assert.equal(full.success, true);
      if (fast.success) {
        assert.deepStrictEqual(fast.data, full.data);
        fastPath++;
      }
      // the loader reuses validated message arrays as parsed: they must equal the schema output
      const reused = reuseMessages(
        { ...full.data! },
        raw as Record<string, unknown>,
      );
      assert.deepStrictEqual(reused, full.data);
      compared++;
    }
  }
  assert.equal(compared, table.reduce((n, t) => n + t.cases, 0));
  // only cases with composite evaluators need the full schema
  assert.ok(fastPath >= compared - 10, `${fastPath} of ${compared} on the fast path`);
});
