/** Judged evaluators: the corpus's feature datasets run via the CLI. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EvaluatorResult, ResultRow } from "../../../mod.ts";
import { runCli } from "../../../lib/cli/app.ts";
import { createBufferIO } from "../../cli/_buffer_io.ts";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { markerJudge, project, targets } from "./_helpers.ts";

Deno.test("corpus: weighted-evaluators, rubric, composite, field accuracy and metrics run via the CLI; missing code judges are evaluator errors", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: markerJudge },
  });
  await using p = await project({ "targets.yaml": targets(judge.url) });
  const features = fileURLToPath(
    new URL("../../../fixtures/corpus/agentv-examples/features/", import.meta.url),
  );
  for (
    const feature of [
      "weighted-evaluators",
      "rubric",
      "composite",
      "document-extraction/evals/dataset-field-accuracy.yaml",
      "execution-metrics",
    ]
  ) {
    const out = join(p.dir, `${feature.split("/")[0]}.jsonl`);
    const io = createBufferIO({ cwd: p.dir });
    const code = await runCli([
      "run",
      join(features, feature.endsWith(".yaml") ? feature : `${feature}/evals/dataset.yaml`),
      "--targets",
      join(p.dir, "targets.yaml"),
      "--target",
      "default",
      "--out",
      out,
      "--quiet",
      "--allow-run",
    ], io);
    assert.ok(code === 0 || code === 1, `${feature}: exit ${code}\n${io.err()}`);
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
      JSON.parse(l) as ResultRow
    );
    assert.ok(rows.length > 0);
    for (const row of rows) {
      if (row.status === "ok") continue;
      // only code judges the corpus does not ship may fail, as evaluator errors
      const flat = (rs: EvaluatorResult[]): EvaluatorResult[] =>
        rs.flatMap((r) => [r, ...flat(r.evaluator_results ?? [])]);
      const errors = flat(row.evaluator_results).filter((e) =>
        e.status === "error" && (e.evaluator_results ?? []).every((m) => m.status !== "error")
      );
      assert.ok(errors.length > 0, `${feature}/${row.eval_id}: ${row.error}`);
      for (const e of errors) {
        assert.ok(
          e.type === "code_judge" || e.type === "composite",
          `${feature}/${row.eval_id}: ${e.type} ${e.error}`,
        );
      }
    }
  }
});
