/**
 * `agentv run` refuses arguments that would destroy input or disable a bound: `--out` naming a
 * file the run reads (an eval file, a sidecar, the targets file, a guideline, or a link to one)
 * and a `--timeout` below 1 ms.
 */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "./_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: ok\n";
const SUITE = [
  "dataset: args",
  "evalcases:",
  "  - id: c1",
  "    expected_outcome: Says ok",
  "    input:",
  "      - role: user",
  "        content:",
  "          - {type: file, value: ../docs/guide.instructions.md}",
  "          - {type: text, value: Say ok}",
  "    evaluators:",
  "      - {type: contains, value: ok}",
  "",
].join("\n");
const JSONL = '{"id": "j1", "expected_outcome": "Says ok", "input": "Say ok"}\n';
const SIDECAR = "execution:\n  evaluators:\n    - {type: contains, value: ok}\n";

function project(): Promise<Tree> {
  return tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/suite.yaml": SUITE,
    "evals/lines.jsonl": JSONL,
    "evals/lines.yaml": SIDECAR,
    "docs/guide.instructions.md": "Be brief.\n",
  }, { git: true, prefix: "agentv-args-" });
}

async function run(cwd: string, args: string[]) {
  const io = createBufferIO({ cwd });
  const code = await runCli(["run", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** Every file of the project, with its text. */
async function snapshot(tree: Tree): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const rel of [".agentv/targets.yaml", "evals/suite.yaml", "evals/lines.jsonl"]) {
    files[rel] = await Deno.readTextFile(tree.path(rel));
  }
  files["evals/lines.yaml"] = await Deno.readTextFile(tree.path("evals/lines.yaml"));
  files["docs/guide.instructions.md"] = await Deno.readTextFile(
    tree.path("docs/guide.instructions.md"),
  );
  return files;
}

for (
  const [what, out, files] of [
    ["the eval file", "evals/suite.yaml", ["evals/suite.yaml"]],
    ["a JSONL eval file", "evals/lines.jsonl", ["evals/lines.jsonl"]],
    ["the JSONL file's sidecar", "evals/lines.yaml", ["evals/lines.jsonl"]],
    ["the targets file", ".agentv/targets.yaml", ["evals/suite.yaml"]],
    ["a guideline the case reads", "docs/guide.instructions.md", ["evals/suite.yaml"]],
  ] as const
) {
  Deno.test(`--out naming ${what} is refused before anything runs (exit 2)`, async () => {
    await using p = await project();
    const before = await snapshot(p);
    const { code, err, out: stdout } = await run(p.root, [...files, "--out", out]);
    assert.equal(code, 2, err);
    assert.match(err, new RegExp(`--out '${out.replaceAll(".", "\\.")}' is the .* of this run`));
    assert.doesNotMatch(stdout, /\[1\/1\]/, "a case ran");
    assert.deepEqual(await snapshot(p), before, "an input file was changed");
  });
}

Deno.test({
  name: "--out naming a link to the eval file is refused (exit 2)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using p = await project();
    await Deno.symlink(p.path("evals/suite.yaml"), p.path("results.jsonl"));
    const before = await snapshot(p);
    const { code, err } = await run(p.root, ["evals/suite.yaml", "--out", "results.jsonl"]);
    assert.equal(code, 2, err);
    assert.match(err, /--out 'results\.jsonl' is the same file as the eval file '.*suite\.yaml'/);
    assert.deepEqual(await snapshot(p), before);
  },
});

Deno.test("--targets FILE named by --out is refused (exit 2)", async () => {
  await using p = await project();
  await Deno.writeTextFile(p.path("other-targets.yaml"), TARGETS);
  const { code, err } = await run(p.root, [
    "evals/suite.yaml",
    "--targets",
    "other-targets.yaml",
    "--out",
    "other-targets.yaml",
  ]);
  assert.equal(code, 2, err);
  assert.match(err, /is the targets file of this run/);
  assert.equal(await Deno.readTextFile(p.path("other-targets.yaml")), TARGETS);
});

Deno.test("a new --out path runs", async () => {
  await using p = await project();
  const { code, err } = await run(p.root, ["evals/suite.yaml", "--out", "results/run.jsonl"]);
  assert.equal(code, 0, err);
  assert.match(await Deno.readTextFile(p.path("results/run.jsonl")), /"eval_id":"c1"/);
});

for (const value of ["0", "0.0001", "0.0009"]) {
  Deno.test(`--timeout ${value} (below 1 ms) is a usage error (exit 2)`, async () => {
    await using p = await project();
    const { code, err } = await run(p.root, [
      "evals/suite.yaml",
      "--timeout",
      value,
      "--out",
      "r.jsonl",
    ]);
    assert.equal(code, 2, err);
    assert.match(err, new RegExp(`--timeout must be a number of seconds >= 0\\.001.*'${value}'`));
  });
}

Deno.test("--timeout 0.001 (1 ms) is accepted", async () => {
  await using p = await project();
  const { code, err } = await run(p.root, [
    "evals/suite.yaml",
    "--timeout",
    "0.001",
    "--out",
    "r.jsonl",
  ]);
  assert.notEqual(code, 2, err);
});

Deno.test("--out naming a file an evaluator reads (a judge prompt) is refused (exit 2)", async () => {
  const prompt = "Grade {{ candidate_answer }} against {{ expected_outcome }}.\n";
  await using p = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/judged.yaml": [
      "evalcases:",
      "  - id: c1",
      "    expected_outcome: Says ok",
      "    input: Say ok",
      "    evaluators:",
      "      - {type: contains, value: ok}",
      "      - {type: llm_judge, prompt: prompts/grade.md, weight: 0}",
      "",
    ].join("\n"),
    "evals/prompts/grade.md": prompt,
  }, { git: true, prefix: "agentv-args-" });
  const { code, err } = await run(p.root, [
    "evals/judged.yaml",
    "--dry-run",
    "--out",
    "evals/prompts/grade.md",
  ]);
  assert.equal(code, 2, err);
  assert.match(err, /--out 'evals\/prompts\/grade\.md' is the evaluator file of this run/);
  assert.equal(await Deno.readTextFile(p.path("evals/prompts/grade.md")), prompt);
});
