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
  await using tmp = await tempTree({});
  // One dry run per file: a blocked case's row (its target or its judge cannot be used) and a
  // rejected case's diagnostic are that file's problems.
  const dryRun = async (file: string, i: number) => {
    const out = join(tmp.dir, `${i}.jsonl`);
    const io = createBufferIO({ cwd: REPO_ROOT });
    const code = await runCli(["run", file, "--dry-run", "--json", "--quiet", "--out", out], io);
    const summary = JSON.parse(io.out() || "{}") as {
      invalid?: { severity: string; file: string }[];
    };
    const rows = await Deno.readTextFile(out).then(
      (text) =>
        text.trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as ResultRow),
      () => [] as ResultRow[],
    );
    const problems = [
      ...rows.filter((r) => r.attempts === 0 && r.status === "error").map((r) => r.error),
      ...(summary.invalid ?? []).filter((d) =>
        d.severity === "error" && resolve(REPO_ROOT, d.file) === file
      ),
      ...(code === 2 ? [io.err()] : []),
    ];
    return problems;
  };
  const reports = validated.files.filter((r) => r.kind === "eval");
  const problems: unknown[][] = [];
  for (let i = 0; i < reports.length; i += 4) {
    const batch = reports.slice(i, i + 4);
    problems.push(...await Promise.all(batch.map((r, j) => dryRun(r.file, i + j))));
  }
  let invalidFiles = 0;
  reports.forEach((report, i) => {
    const name = relative(REPO_ROOT, report.file);
    if (!report.valid) invalidFiles++;
    assert.equal(
      report.valid,
      problems[i].length === 0,
      `${name}: validate ${report.valid ? "✓" : "✗"} but run --dry-run found ${
        JSON.stringify(problems[i])
      }\n${JSON.stringify(report.diagnostics)}`,
    );
  });
  assert.ok(invalidFiles > 0, "the corpus has files whose target or judge is unreachable");
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

/**
 * Everything a run knows about a case's judge before it calls a target, as a list: each condition
 * is a targets file and a case `bad` (beside a case `fine` that needs no judge), and the problem
 * `validate`, `run --dry-run` and `run` must all report for `bad`, before any call.
 */
const JUDGE_CONDITIONS: {
  name: string;
  targets: string;
  bad: string;
  args?: string[];
  problem: RegExp;
}[] = [
  {
    name: "a case without evaluators (llm_judge by default) whose target has no judge_target",
    targets: "  - name: default\n    provider: mock\n    response: ok\n",
    bad: "",
    problem: /No judge for target 'default': the case lists no evaluators, so llm_judge/,
  },
  {
    name: "a rubric case whose target has no judge_target",
    targets: "  - name: default\n    provider: mock\n    response: ok\n",
    bad: "    rubrics: [Says ok]\n",
    problem: /No judge for target 'default': set judge_target/,
  },
  {
    name: "a code_judge with target: whose target has no judge_target",
    targets: "  - name: default\n    provider: mock\n    response: ok\n",
    bad:
      "    evaluators:\n      - type: code_judge\n        script: [deno, --version]\n        target: true\n",
    problem: /No judge for target 'default'/,
  },
  {
    name: "a judge_target that names no target",
    targets: "  - name: default\n    provider: mock\n    response: ok\n    judge_target: gpt\n",
    bad: "",
    problem: /judge_target 'gpt' is not defined/,
  },
  {
    name: "a --judge-target that names no target",
    targets: "  - name: default\n    provider: mock\n    response: ok\n",
    bad: "",
    args: ["--judge-target", "gtp"],
    problem: /'gtp'.* not defined/,
  },
  {
    name: "a judge target whose definition is invalid",
    targets:
      "  - name: default\n    provider: mock\n    response: ok\n    judge_target: j\n  - name: j\n    provider: mock\n    delay_ms: -5\n",
    bad: "",
    problem: /'j'.*invalid.*delay_ms/,
  },
  {
    name: "a mock judge whose fixed response has no rubric checks, for a rubric case",
    targets:
      "  - name: default\n    provider: mock\n    response: ok\n    judge_target: j\n  - name: j\n    provider: mock\n    response: {score: 1}\n",
    bad: "    rubrics: [Says ok]\n",
    problem: /Judge target 'j' of target 'default' cannot answer rubric checks/,
  },
  {
    name: "a mock judge whose fixed response is no score, for an llm_judge case",
    targets:
      "  - name: default\n    provider: mock\n    response: ok\n    judge_target: j\n  - name: j\n    provider: mock\n    response: Looks fine\n",
    bad: "    evaluators: [{type: llm_judge}]\n",
    problem: /Judge target 'j' of target 'default' cannot answer a score/,
  },
];

for (const condition of JUDGE_CONDITIONS) {
  Deno.test(`validate, run --dry-run and run all report ${condition.name}, before any call`, async () => {
    await using tree = await tempTree({
      ".agentv/targets.yaml":
        `targets:\n${condition.targets}  - name: plain\n    provider: mock\n    response: ok\n`,
      "evals/a.yaml": "evalcases:\n  - id: bad\n    input: hi\n    expected_outcome: says ok\n" +
        condition.bad +
        "  - id: fine\n    input: hi\n    expected_outcome: says ok\n    execution: {target: plain}\n" +
        "    evaluators: [{type: contains, value: ok}]\n",
    }, { git: true });
    const extra = condition.args ?? [];
    const v = createBufferIO({ cwd: tree.dir });
    assert.equal(await runCli(["validate", "evals", ...extra], v), 1, v.out() + v.err());
    assert.match(v.out(), new RegExp(`Case 'bad': .*${condition.problem.source}`));
    assert.doesNotMatch(v.out(), /Case 'fine'/);
    for (const dry of [true, false]) {
      const out = join(tree.dir, `${dry}.jsonl`);
      const r = createBufferIO({ cwd: tree.dir });
      const args = ["run", "evals", "--out", out, "--allow-run", ...extra];
      const code = await runCli(dry ? [...args, "--dry-run"] : args, r);
      assert.equal(code, 1, `dry ${dry}: ${r.out()}${r.err()}`);
      const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
        JSON.parse(l) as ResultRow
      );
      const bad = rows.find((row) => row.eval_id === "bad")!;
      assert.equal(bad.status, "error", `dry ${dry}`);
      assert.match(bad.error ?? "", condition.problem, `dry ${dry}`);
      assert.equal(rows.find((row) => row.eval_id === "fine")?.status, "ok");
    }
  });
}

Deno.test("a mock judge with judge: true is wired for every judged case: validate ✓, run --dry-run and run grade them, and a code judge's target: reaches it", async () => {
  const proxyJudge = join(REPO_ROOT, "fixtures/evaluators/judges/proxy_judge.ts");
  const script = [Deno.execPath(), "run", "--no-config", "--quiet", "--allow-env"]
    .concat(["--allow-net=127.0.0.1", proxyJudge]);
  await using tree = await tempTree({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: ok\n" +
      "    judge_target: j\n  - name: j\n    provider: mock\n    judge: true\n",
    "evals/a.yaml": "evalcases:\n" +
      "  - id: by-default\n    input: hi\n    expected_outcome: says ok\n" +
      "  - id: rubrics\n    input: hi\n    expected_outcome: says ok\n    rubrics: [Says ok]\n" +
      "  - id: proxy\n    input: hi\n    expected_outcome: says ok\n    evaluators:\n" +
      `      - {type: code_judge, script: ${JSON.stringify(script)}, target: true}\n`,
  }, { git: true });
  const v = createBufferIO({ cwd: tree.dir });
  assert.equal(await runCli(["validate", "evals"], v), 0, v.out() + v.err());
  for (const dry of [true, false]) {
    const out = join(tree.dir, `${dry}.jsonl`);
    const r = createBufferIO({ cwd: tree.dir });
    const args = ["run", "evals", "--out", out, "--allow-run", ...(dry ? ["--dry-run"] : [])];
    // The fixture scores 0 unless the judge replies "judged: ...": the real run fails that case.
    assert.equal(await runCli(args, r), dry ? 0 : 1, r.out() + r.err());
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
      JSON.parse(l) as ResultRow
    );
    const byId = new Map(rows.map((row) => [row.eval_id, row]));
    assert.equal(byId.get("by-default")?.verdict, "pass");
    assert.equal(byId.get("rubrics")?.verdict, "pass");
    if (!dry) {
      // The code judge is not run in a dry run; in a real run its proxy calls the mock judge.
      const proxy = byId.get("proxy")!.evaluator_results[0];
      assert.equal(proxy.status, "ok", proxy.error ?? "");
      const details = proxy.details as { raw_text: string; info: { targetName: string } };
      assert.equal(details.info.targetName, "j");
      assert.equal(JSON.parse(details.raw_text).score, 1);
    }
  }
});
