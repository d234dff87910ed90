/**
 * `agentv report <results>` and `agentv run --report FORMAT[:FILE]`, in process: formats, files,
 * usage errors, and the GitHub Actions integration (step summary, annotations on case lines).
 */
import assert from "node:assert/strict";
import { parse as parseJunit, type TestSuites } from "junit2json";
import { runCli } from "../../lib/cli/app.ts";
import { reportCommand } from "../../lib/cli/report.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { readResults } from "../../lib/results/read_results.ts";
import { createBufferIO } from "./_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { validateJunit, XMLLINT_IGNORED } from "../render/_xmllint.ts";

const commands = [reportCommand, runCommand];

const MOCK_TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: ok, Paris\n";

// The mock answers "ok, Paris": pass-1 and pass-2 pass, fail-1 (Berlin) fails.
const SUITE = `dataset: geo
evalcases:
  - id: pass-1
    expected_outcome: Says ok
    input: Say ok
    evaluators:
      - type: contains
        value: ok
  - id: fail-1
    expected_outcome: Says Berlin
    input: Capital of Germany?
    evaluators:
      - type: contains
        value: Berlin
  - id: pass-2
    expected_outcome: Says Paris
    input: Capital of France?
    evaluators:
      - type: contains
        value: Paris
`;

const JSONL = [
  '{"id": "j-pass", "expected_outcome": "Says ok", "input": "Say ok", "evaluators": [{"type": "contains", "value": "ok"}]}',
  '{"id": "j-fail", "expected_outcome": "Says Rome", "input": "Capital of Italy?", "evaluators": [{"type": "contains", "value": "Rome"}]}',
  "",
].join("\n");

function repo(): Promise<Tree> {
  return tempTree({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/suite.yaml": SUITE,
    "evals/more.jsonl": JSONL,
    "evals/more.yaml": "dataset: more\n",
  }, { prefix: "agentv-report-" });
}

async function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  const io = createBufferIO({ cwd, env });
  const code = await runCli(args, io, { commands });
  return { code, out: io.out(), err: io.err() };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** A repo with a results file of the suite (2 pass, 1 fail) at `results.jsonl`. */
async function repoWithResults(): Promise<Tree> {
  const r = await repo();
  const ran = await cli(["run", "evals/suite.yaml", "--out", "results.jsonl", "-q"], r.dir);
  assert.equal(ran.code, 1, ran.err);
  return r;
}

Deno.test("agentv report prints a Markdown report of a results file by default", async () => {
  await using r = await repoWithResults();
  const { code, out, err } = await cli(["report", "results.jsonl"], r.dir);
  assert.equal(code, 0, err);
  assert.match(out, /^## agentv results\n/);
  assert.match(out, /\| geo \| 3 \| 2 \| 0 \| 1 \| 0 \| 0 \|/);
  assert.match(out, /\| geo \| fail-1 \| 0\.00 \|/);
});

Deno.test("agentv report --format junit --out writes JUnit XML a JUnit parser reads back", async () => {
  await using r = await repoWithResults();
  const { code, out, err } = await cli(
    ["report", "results.jsonl", "--format", "junit", "--out", "reports/junit.xml"],
    r.dir,
  );
  assert.equal(code, 0, err);
  assert.equal(out, "");
  assert.match(err, /Wrote junit report of 3 case\(s\) to reports\/junit\.xml/);
  const parsed = await parseJunit(await Deno.readTextFile(r.path("reports/junit.xml")));
  const suite = (parsed as TestSuites).testsuite?.[0];
  assert.equal(suite?.name, "geo");
  assert.deepEqual([suite?.tests, suite?.failures, suite?.errors], [3, 1, 0]);
  const failed = suite?.testcase?.filter((c) => c.failure !== undefined).map((c) => c.name);
  assert.deepEqual(failed, ["fail-1"]);
});

Deno.test({
  name: "the JUnit file of a real run passes xmllint against the JUnit XSD",
  ignore: XMLLINT_IGNORED,
  async fn() {
    await using r = await repo();
    const ran = await cli(
      ["run", "evals/", "--out", "results.jsonl", "--report", "junit:results.xml", "-q"],
      r.dir,
    );
    assert.equal(ran.code, 1, ran.err);
    const result = await validateJunit(await Deno.readTextFile(r.path("results.xml")));
    assert.equal(result.code, 0, result.stderr);
  },
});

Deno.test("agentv report --format html writes one self-contained page", async () => {
  await using r = await repoWithResults();
  const { code, err } = await cli(
    ["report", "results.jsonl", "--format", "html", "--out", "report.html"],
    r.dir,
  );
  assert.equal(code, 0, err);
  const html = await Deno.readTextFile(r.path("report.html"));
  assert.match(html, /^<!doctype html>/i);
  assert.ok(["pass-1", "fail-1", "pass-2"].every((id) => html.includes(id)));
  assert.doesNotMatch(html, /<(script|link)[^>]+(src|href)="https?:/);
});

Deno.test("agentv report --format json prints the rows and their summary", async () => {
  await using r = await repoWithResults();
  const { code, out, err } = await cli(["report", "results.jsonl", "--format", "json"], r.dir);
  assert.equal(code, 0, err);
  const json = JSON.parse(out);
  const { rows } = await readResults(r.path("results.jsonl"));
  assert.deepEqual(
    json.rows.map((x: { eval_id: string }) => x.eval_id),
    rows.map((x) => x.eval_id),
  );
  assert.equal(json.summary.total, 3);
  assert.deepEqual(json.summary.verdicts, { pass: 2, borderline: 0, fail: 1 });
});

Deno.test("agentv report reads the original tool's rows and lists lines that are not rows", async () => {
  await using r = await repoWithResults();
  const original = JSON.stringify({
    timestamp: "2026-01-03T12:07:10.957Z",
    eval_id: "legacy-case",
    dataset: "legacy",
    score: 0.4,
    hits: [],
    misses: ["Missed the bug"],
    candidate_answer: "Looks fine",
    target: "azure_base",
    reasoning: "It missed the loop bug",
  });
  const text = await Deno.readTextFile(r.path("results.jsonl"));
  await Deno.writeTextFile(r.path("mixed.jsonl"), `${text}${original}\n[1, 2]\n`);
  const { code, out, err } = await cli(["report", "mixed.jsonl", "--format", "junit"], r.dir);
  // Written, but incomplete: line 5 (an array) is left out and named.
  assert.equal(code, 1);
  assert.match(err, /mixed\.jsonl:5:1: warning: Not a result row: found an array/);
  const root = (await parseJunit(out)) as TestSuites;
  assert.deepEqual(root.testsuite?.map((s) => [s.name, s.tests, s.failures]), [
    ["geo", 3, 1],
    ["legacy", 1, 1],
  ]);
});

Deno.test("agentv report rejects a missing file, an unknown format and --out over the results", async () => {
  await using r = await repoWithResults();
  const before = await Deno.readTextFile(r.path("results.jsonl"));
  const missing = await cli(["report", "nope.jsonl"], r.dir);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /The results file 'nope\.jsonl' does not exist/);
  const format = await cli(["report", "results.jsonl", "--format", "pdf"], r.dir);
  assert.equal(format.code, 2);
  assert.match(format.err, /--format must be one of junit, markdown, html, json, got 'pdf'/);
  const over = await cli(["report", "results.jsonl", "--out", "./results.jsonl"], r.dir);
  assert.equal(over.code, 2);
  assert.match(over.err, /is the results file itself/);
  assert.equal(await Deno.readTextFile(r.path("results.jsonl")), before);
  const none = await cli(["report"], r.dir);
  assert.equal(none.code, 2);
  assert.match(none.err, /No results file given/);
});

Deno.test("agentv run --report writes each report beside the results file or where named", async () => {
  await using r = await repo();
  const { code, out, err } = await cli(
    [
      "run",
      "evals/suite.yaml",
      "--out",
      "out/results.jsonl",
      "--report",
      "junit",
      "--report",
      "markdown:reports/run.md",
      "--report",
      "json",
      "--report",
      "html",
    ],
    r.dir,
  );
  assert.equal(code, 1, err);
  assert.match(out, /junit report: out\/results\.jsonl\.junit\.xml/);
  assert.match(out, /markdown report: reports\/run\.md/);
  const xml = await Deno.readTextFile(r.path("out/results.jsonl.junit.xml"));
  assert.equal(((await parseJunit(xml)) as TestSuites).failures, 1);
  assert.match(await Deno.readTextFile(r.path("reports/run.md")), /### Failed cases \(1\)/);
  const json = JSON.parse(await Deno.readTextFile(r.path("out/results.jsonl.report.json")));
  assert.equal(json.rows.length, 3);
  const html = await Deno.readTextFile(r.path("out/results.jsonl.html"));
  assert.match(html, /^<!doctype html>/i);
  assert.ok(html.includes("fail-1") && html.includes("Capital of Germany?"), "cases and inputs");
  // Nothing was written to the GitHub files outside GitHub Actions.
  assert.doesNotMatch(out, /::error/);
});

Deno.test("agentv run --report never writes a report over an eval file or the results", async () => {
  await using r = await repo();
  const { code, err } = await cli(
    [
      "run",
      "evals/suite.yaml",
      "--out",
      "results.jsonl",
      "--filter",
      "pass-*",
      "--report",
      "junit:evals/suite.yaml",
      "--report",
      "markdown:results.jsonl",
    ],
    r.dir,
  );
  // Refused as --out is: a usage error before anything runs.
  assert.equal(code, 2);
  assert.match(err, /--report 'junit:evals\/suite\.yaml' is the eval file of this run/);
  assert.equal(await Deno.readTextFile(r.path("evals/suite.yaml")), SUITE);
  assert.ok(!(await exists(r.path("results.jsonl"))), "nothing ran");
  const results = await cli(
    ["run", "evals/suite.yaml", "--out", "results.jsonl", "--report", "markdown:results.jsonl"],
    r.dir,
  );
  assert.equal(results.code, 2);
  assert.match(results.err, /--report 'markdown:results\.jsonl' is the results file of this run/);
  assert.ok(!(await exists(r.path("results.jsonl"))), "nothing ran");
});

Deno.test("agentv run --report markdown says when the run was a dry run", async () => {
  await using r = await repo();
  const { err } = await cli(
    ["run", "evals/suite.yaml", "--dry-run", "--out", "r.jsonl", "--report", "markdown", "-q"],
    r.dir,
  );
  const md = await Deno.readTextFile(r.path("r.jsonl.md"));
  assert.match(md, /^## agentv results\n\n> Dry run: every target and judge was a mock\.\n/, err);
});

Deno.test("agentv run refuses an unknown --report format before running anything", async () => {
  await using r = await repo();
  const { code, err } = await cli(
    ["run", "evals/suite.yaml", "--out", "results.jsonl", "--report", "xml:out.xml"],
    r.dir,
  );
  assert.equal(code, 2);
  assert.match(err, /--report 'xml:out\.xml': unknown format 'xml'/);
  assert.equal(await exists(r.path("results.jsonl")), false);
  const empty = await cli(["run", "evals/suite.yaml", "--report", "junit:"], r.dir);
  assert.equal(empty.code, 2);
  assert.match(empty.err, /the file after ':' is empty/);
});

Deno.test("on GitHub Actions, agentv run appends to the step summary and annotates failed case lines", async () => {
  await using r = await repo();
  const summaryFile = r.path("step_summary.md");
  await Deno.writeTextFile(summaryFile, "# Earlier step\n");
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_WORKSPACE: r.dir,
  };
  const { code, out, err } = await cli(["run", "evals/", "--out", "results.jsonl"], r.dir, env);
  assert.equal(code, 1, err);
  const summary = await Deno.readTextFile(summaryFile);
  assert.ok(summary.startsWith("# Earlier step\n## agentv results\n"), summary);
  assert.match(summary, /\| geo \| fail-1 \| 0\.00 \|/);
  assert.match(summary, /\| more \| j-fail \| 0\.00 \|/);

  const annotations = out.split("\n").filter((l) => l.startsWith("::"));
  assert.equal(annotations.length, 2, out);
  for (const [file, id] of [["evals/suite.yaml", "fail-1"], ["evals/more.jsonl", "j-fail"]]) {
    const line = annotations.find((a) => a.includes(`file=${file},`));
    assert.ok(line, `no annotation for ${file}:\n${annotations.join("\n")}`);
    const at = Number(/,line=(\d+),/.exec(line)?.[1]);
    // The annotated line is the case's line in the eval file.
    const source = (await Deno.readTextFile(r.path(file))).split("\n");
    assert.match(source[at - 1] ?? "", new RegExp(`"?id"?: "?${id}`));
    assert.match(line, new RegExp(`::Case '${id}' failed with score 0\\.00`));
  }
});

Deno.test("with --json on GitHub Actions, annotations go to stderr and stdout stays JSON", async () => {
  await using r = await repo();
  const { code, out, err } = await cli(
    ["run", "evals/suite.yaml", "--out", "results.jsonl", "--json"],
    r.dir,
    { GITHUB_ACTIONS: "true" },
  );
  assert.equal(code, 1, err);
  assert.equal(JSON.parse(out).total, 3);
  assert.match(err, /^::error file=evals\/suite\.yaml,line=\d+,title=geo\/fail-1 \(default\)::/m);
});

Deno.test("agentv report given an eval file says in one line that it is not a results file (exit 2, no report)", async () => {
  await using r = await repo();
  for (const file of ["evals/suite.yaml", "evals/more.jsonl"]) {
    const { code, out, err } = await cli(["report", file], r.dir);
    assert.equal(code, 2, err);
    assert.equal(out, "", "no report");
    const errors = err.split("\n").filter((l) => l.startsWith("error: "));
    assert.equal(errors.length, 1, err);
    assert.match(
      errors[0],
      new RegExp(`^error: '${file}' is not a results file: it is an eval file`),
    );
    assert.doesNotMatch(err, /warning/, "no warning per line");
    assert.match(err, new RegExp(`hint: run the evals first \\(agentv run ${file}\\)`));
  }
  await Deno.writeTextFile(r.path("notes.jsonl"), "hello\nworld\n");
  const other = await cli(["report", "notes.jsonl"], r.dir);
  assert.equal(other.code, 2);
  assert.match(
    other.err,
    /^error: 'notes\.jsonl' is not a results file: it is a file none of whose 2 lines is a result row \(line 1: Not JSON/m,
  );
});
