/** `validate` says what `run` will do: its verdict on a file agrees with `run --dry-run`. */
import assert from "node:assert/strict";
import { join, relative, resolve } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { validatePaths } from "../../lib/cli/validate.ts";
import { discoverEvalFiles } from "../../lib/dataset/discover.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO, REPO_ROOT } from "./_buffer_io.ts";

Deno.test("for every eval file of the corpus, validate's verdict agrees with run --dry-run", async () => {
  const corpus = join(REPO_ROOT, "fixtures/corpus");
  const { files } = await discoverEvalFiles([corpus], { cwd: REPO_ROOT });
  assert.ok(files.length >= 21, `${files.length} files`);
  const validated = await validatePaths(files, { cwd: REPO_ROOT });
  // One dry run over the whole corpus: a blocked case's error names its eval file, a rejected
  // case's diagnostic carries it.
  await using tmp = await tempTree({});
  const out = join(tmp.dir, "all.jsonl");
  const io = createBufferIO({ cwd: REPO_ROOT });
  const code = await runCli(
    ["run", "fixtures/corpus", "--dry-run", "--json", "--quiet", "--out", out],
    io,
  );
  // The broken files' cases are error rows, the others run: exit 1, not 2.
  assert.equal(code, 1, io.err());
  const summary = JSON.parse(io.out()) as { invalid: { severity: string; file: string }[] };
  const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
    JSON.parse(l) as ResultRow
  );
  const blocked = rows.filter((r) => r.attempts === 0 && /Cannot use target/.test(r.error ?? ""));
  let invalidFiles = 0;
  for (const report of validated.files) {
    const name = relative(REPO_ROOT, report.file);
    const problems = [
      ...blocked.filter((r) => r.error!.includes(`for ${report.file}:`)).map((r) => r.error),
      ...summary.invalid.filter((d) =>
        d.severity === "error" && resolve(REPO_ROOT, d.file) === report.file
      ),
    ];
    if (!report.valid) invalidFiles++;
    assert.equal(
      report.valid,
      problems.length === 0,
      `${name}: validate ${report.valid ? "✓" : "✗"} but run --dry-run found ${
        JSON.stringify(problems)
      }\n${JSON.stringify(report.diagnostics)}`,
    );
  }
  assert.ok(invalidFiles > 0, "the corpus has files whose target is unreachable");
});

Deno.test("a file whose cases all lack expected_outcome: validate warns (✓) and run skips them with exit 1, never 2", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
    "evals/a.yaml": "evalcases:\n  - id: one\n    input: hi\n  - id: two\n    input: hi\n",
    "evals/b.jsonl": '{"id":"three","input":"hi"}\n',
  }, { git: true });
  for (const file of ["evals/a.yaml", "evals/b.jsonl"]) {
    const v = createBufferIO({ cwd: tree.dir });
    assert.equal(await runCli(["validate", file], v), 0, v.out());
    assert.match(v.out(), /warning: .*missing expected_outcome.*is skipped/);
    for (const dry of [true, false]) {
      const r = createBufferIO({ cwd: tree.dir });
      const code = await runCli(
        ["run", file, "--out", join(tree.dir, "o.jsonl"), ...(dry ? ["--dry-run"] : [])],
        r,
      );
      assert.equal(code, 1, r.err() + r.out());
      assert.match(r.out(), /missing expected_outcome/);
      assert.equal((await Deno.readTextFile(join(tree.dir, "o.jsonl"))).trim(), "");
    }
  }
});
