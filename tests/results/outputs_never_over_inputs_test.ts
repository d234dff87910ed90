/**
 * No command writes a report or merged results over a file the run read, exactly as
 * `agentv run --out` refuses to: `--report FORMAT:FILE` (refused before anything runs),
 * `agentv report --out` (the run's inputs come from its run record, the eval files loaded as the
 * run loaded them) and `agentv merge -o`. Each refusal is a usage error (exit 2) that leaves the
 * file byte-identical. `--report html:.agentv/targets.yaml` used to replace the targets file and
 * exit 0.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { reportPath } from "../../lib/cli/report_specs.ts";
import { cli, mockTargets, project } from "../_helpers/run_project.ts";

const SUITE = `dataset: a
evalcases:
  - id: c1
    expected_outcome: Says ok
    input:
      - role: user
        content:
          - type: file
            value: docs/attached.md
          - type: text
            value: Say ok
    evaluators:
      - type: contains
        value: ok
`;

/** Every file of the project the run reads, and what the refusal calls it. */
const INPUTS: [string, RegExp][] = [
  [".agentv/targets.yaml", /is the targets file of this run/],
  [".agentv/config.yaml", /is the config file of this run/],
  [".env", /is the \.env file of this run/],
  ["evals/a.yaml", /is the eval file of this run/],
  ["docs/attached.md", /is the attached file of this run/],
];

function repo() {
  return project({
    ".agentv/targets.yaml": mockTargets("ok"),
    ".agentv/config.yaml": "cache: off\n",
    ".env": "UNUSED=1\n",
    "evals/a.yaml": SUITE,
    "docs/attached.md": "Attached notes\n",
  });
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [file] of INPUTS) out[file] = await Deno.readTextFile(join(dir, file));
  return out;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("run --report over the targets file (or any input) exits 2 before anything runs, the file byte-identical", async () => {
  await using p = await repo();
  const before = await snapshot(p.dir);
  // Each input under one format, the formats in turn, so every input and every format is
  // refused: the refusal compares paths, and a FILE names the same path whatever the format
  // (the next test); each run loads the dataset anew.
  const formats = ["html", "junit", "markdown", "json"];
  assert.ok(INPUTS.length >= formats.length);
  for (const [index, [file, why]] of INPUTS.entries()) {
    const format = formats[index % formats.length]!;
    const r = await cli(
      ["run", "evals", "--out", "o.jsonl", "--report", `${format}:${file}`],
      p.dir,
    );
    assert.equal(r.code, 2, `${format}:${file}: ${r.err}`);
    assert.match(r.err, new RegExp(`--report '${format}:${file.replaceAll(".", "\\.")}'`));
    assert.match(r.err, why);
    assert.match(r.err, /a report replaces the file it is written to/);
    assert.match(
      r.err,
      new RegExp(`hint: pass a new path, e\\.g\\. --report ${format}:report\\.`),
    );
  }
  assert.deepEqual(await snapshot(p.dir), before);
  assert.ok(!(await exists(join(p.dir, "o.jsonl"))), "nothing ran");
});

Deno.test("a --report FILE names the same path under every format", () => {
  for (const format of ["html", "junit", "markdown", "json"] as const) {
    for (const [file] of INPUTS) {
      assert.equal(reportPath({ format, file }, "/p/o.jsonl", "/p"), join("/p", file), format);
    }
  }
});

Deno.test("run --report over its own results file or run record, or a link to an input, is refused", async () => {
  await using p = await repo();
  const before = await snapshot(p.dir);
  const results = await cli(
    ["run", "evals", "--out", "o.jsonl", "--report", "markdown:o.jsonl"],
    p.dir,
  );
  assert.equal(results.code, 2);
  assert.match(results.err, /is the results file of this run/);
  const record = await cli(
    ["run", "evals", "--out", "o.jsonl", "--report", "json:o.jsonl.run.json"],
    p.dir,
  );
  assert.equal(record.code, 2);
  assert.match(record.err, /is the run record of this run/);
  // A link that leads to the targets file is the targets file.
  await Deno.symlink(join(p.dir, ".agentv/targets.yaml"), join(p.dir, "report.html"));
  const link = await cli(
    ["run", "evals", "--out", "o.jsonl", "--report", "html:report.html"],
    p.dir,
  );
  assert.equal(link.code, 2);
  assert.match(link.err, /is the same file as the targets file/);
  assert.deepEqual(await snapshot(p.dir), before);
  // A report elsewhere is written as before.
  const ok = await cli(["run", "evals", "--out", "o.jsonl", "--report", "html:out/r.html"], p.dir);
  assert.equal(ok.code, 0, ok.err);
  assert.ok(await exists(join(p.dir, "out/r.html")));
});

Deno.test("report --out over the targets file (or any input of the run) exits 2, the file byte-identical", async () => {
  await using p = await repo();
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 0);
  const before = await snapshot(p.dir);
  for (const [file, why] of [...INPUTS, ["o.jsonl.run.json", /is the run record/]] as const) {
    const r = await cli(["report", "o.jsonl", "--format", "html", "--out", file], p.dir);
    assert.equal(r.code, 2, `${file}: ${r.err}`);
    assert.match(r.err, new RegExp(`--out '${file.replaceAll(".", "\\.")}' is`));
    assert.match(r.err, why);
  }
  assert.deepEqual(await snapshot(p.dir), before);
  // With the eval file changed since the run, what the record names is still refused.
  await Deno.writeTextFile(join(p.dir, "evals/a.yaml"), SUITE + "# edited\n");
  const changed = await cli(["report", "o.jsonl", "--out", ".agentv/targets.yaml"], p.dir);
  assert.equal(changed.code, 2);
  assert.match(changed.err, /is the targets file of this run/);
  const ok = await cli(["report", "o.jsonl", "--out", "report.md"], p.dir);
  assert.equal(ok.code, 0, ok.err);
});

Deno.test("merge -o over an input of the shards' run exits 2, the file byte-identical", async () => {
  await using p = await repo();
  for (const i of [0, 1]) {
    const r = await cli(["run", "evals", "--shard", `${i}/2`, "--out", `s${i}.jsonl`], p.dir);
    assert.equal(r.code, 0, r.err);
  }
  const before = await snapshot(p.dir);
  for (const [file, why] of INPUTS) {
    const r = await cli(["merge", "s0.jsonl", "s1.jsonl", "-o", file], p.dir);
    assert.equal(r.code, 2, `${file}: ${r.err}`);
    assert.match(r.err, why);
  }
  // Nor over a shard's run record.
  const record = await cli(["merge", "s0.jsonl", "s1.jsonl", "-o", "s1.jsonl.run.json"], p.dir);
  assert.equal(record.code, 2);
  assert.match(record.err, /-o 's1\.jsonl\.run\.json' would overwrite the input 's1\.jsonl'/);
  assert.deepEqual(await snapshot(p.dir), before);
});
