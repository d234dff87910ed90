/**
 * `agentv report` shows human labels beside agentv's verdicts and counts the disagreements
 * (Markdown, JSON, HTML), from the project's `.agentv/labels.jsonl` or `--labels FILE`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { appendLabels } from "../../lib/results/labels.ts";
import type { Label } from "../../lib/schema/label.ts";
import { day, writeRun } from "../_helpers/history_runs.ts";
import { createBufferIO } from "./_buffer_io.ts";

function label(i: number, extra: Partial<Label>): Label {
  return {
    run_id: "r1",
    dataset: "qa",
    eval_id: `case-${i}`,
    target: "gpt",
    trial: 0,
    evaluator: null,
    label: "pass",
    score: null,
    reviewer: "ana",
    note: "",
    labelled_at: "2026-02-01T10:00:00Z",
    ...extra,
  };
}

Deno.test("agentv report shows labels beside the verdicts and counts disagreements", async () => {
  const root = await Deno.makeTempDir({ prefix: "agentv-report-labels-" });
  try {
    const results = await writeRun(join(root, ".agentv", "results"), {
      runId: "r1",
      startedAt: day(1),
      scores: [1, 0.2, 0.7],
    });
    await appendLabels(join(root, ".agentv", "labels.jsonl"), [
      label(0, {
        label: "fail",
        note: "cites a [source](http://evil.example) that does not exist",
      }),
      label(0, { label: "pass", reviewer: "bo" }),
      label(1, { label: "fail" }),
      label(2, { label: "fail", note: "borderline is a pass for agentv" }),
      label(1, { evaluator: "judge", label: null, score: 0.3 }),
      { ...label(0, { label: "fail" }), run_id: "another-run" },
    ]);
    const report = async (...args: string[]) => {
      const io = createBufferIO({ cwd: root });
      const code = await runCli(["report", results, ...args], io);
      return { code, out: io.out(), err: io.err() };
    };
    const md = await report();
    assert.equal(md.code, 0, md.err);
    assert.match(
      md.out,
      /### Human labels \(5\)\n\n4 compared with agentv's verdict .*, 2 disagree\./,
    );
    assert.match(md.out, /### Disagreements \(2\)/);
    assert.match(
      md.out,
      /\| case-0 \| gpt \| case \| pass \| fail \| ana \| cites a \\\[source\\\]/,
    );
    assert.match(md.out, /\| case-2 \| gpt \| case \| borderline \| fail \| ana \|/);
    assert.equal(md.out.includes("](http://evil.example)"), false);

    const json = JSON.parse((await report("--format", "json")).out);
    assert.deepEqual([json.labels.labels, json.labels.compared, json.labels.disagreements], [
      5,
      4,
      2,
    ]);

    const html = (await report("--format", "html")).out;
    const data = JSON.parse(/id="agentv-data">([^<]*)</.exec(html)![1]);
    assert.equal(data.labels.disagreements, 2);

    const other = join(root, "other.jsonl");
    await appendLabels(other, [label(1, { label: "pass" })]);
    const given = JSON.parse((await report("--format", "json", "--labels", other)).out);
    assert.deepEqual([given.labels.labels, given.labels.disagreements], [1, 1]);
    const missing = await report("--labels", "nope.jsonl");
    assert.equal(missing.code, 2);
    assert.match(missing.err, /The labels file 'nope\.jsonl' does not exist/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
