import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO, normalize, REPO_ROOT } from "./_buffer_io.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

async function validate(args: string[], options: { cwd?: string; color?: boolean } = {}) {
  const io = createBufferIO(options);
  const code = await runCli(["validate", ...args], io);
  return { code, out: normalize(io.out()), err: normalize(io.err()), raw: io.out() };
}

Deno.test("agentv validate prints one ✓ line per valid file and a summary, exit 0", async () => {
  const { code, out, err } = await validate(["fixtures/cli/project"]);
  assert.equal(err, "");
  assert.equal(
    out,
    [
      "✓ fixtures/cli/project/.agentv/config.yaml (config file)",
      "✓ fixtures/cli/project/.agentv/targets.yaml (targets file)",
      "✓ fixtures/cli/project/evals/geography.yaml (2 cases)",
      "✓ fixtures/cli/project/evals/trivia.jsonl (2 cases)",
      "4 files valid (0 errors, 0 warnings)",
      "",
    ].join("\n"),
  );
  assert.equal(code, 0);
});

Deno.test("agentv validate prints file:line:col diagnostics with the source line, exit 1", async () => {
  const { code, out } = await validate(["fixtures/cli/broken"]);
  assert.equal(code, 1);
  const lines = out.split("\n");
  assert.ok(lines.includes("✓ fixtures/cli/broken/.agentv/config.yaml (config file)"), out);
  assert.ok(lines.includes("✗ fixtures/cli/broken/evals/bad_weight.yaml (1 case, 1 error)"), out);
  assert.ok(lines.includes("✗ fixtures/cli/broken/evals/malformed.jsonl (0 cases, 1 error)"), out);
  assert.ok(lines.includes("✗ fixtures/cli/broken/evals/syntax.yaml (0 cases, 1 error)"), out);
  const weight = lines.findIndex((l) =>
    l.startsWith("fixtures/cli/broken/evals/bad_weight.yaml:8:17: error: ")
  );
  assert.ok(weight > 0, out);
  assert.match(lines[weight], />= 0/);
  assert.equal(lines[weight + 1], "  8 |         weight: -1");
  assert.equal(lines[weight + 2], "    |                 ^");
  assert.ok(
    lines.some((l) =>
      /^fixtures\/cli\/broken\/evals\/malformed\.jsonl:2:\d+: error: Line 2: Invalid JSON/.test(l)
    ),
    out,
  );
  assert.ok(
    lines.some((l) => /^fixtures\/cli\/broken\/evals\/syntax\.yaml:\d+:\d+: error: /.test(l)),
    out,
  );
  assert.equal(lines.at(-2), "3 of 4 files invalid (3 errors, 0 warnings)");
});

Deno.test("agentv validate --json prints the reports with relative paths and positions", async () => {
  const { code, raw } = await validate([
    "fixtures/cli/broken/evals/bad_weight.yaml",
    "fixtures/cli/project/evals/geography.yaml",
    "--json",
  ]);
  assert.equal(code, 1);
  const result = JSON.parse(raw);
  assert.deepEqual(result.summary, { files: 2, valid: 1, invalid: 1, errors: 1, warnings: 0 });
  assert.deepEqual(result.problems, []);
  const [bad, good] = result.files;
  assert.deepEqual(
    { file: bad.file, kind: bad.kind, valid: bad.valid, cases: bad.cases },
    { file: "fixtures/cli/broken/evals/bad_weight.yaml", kind: "eval", valid: false, cases: 1 },
  );
  assert.deepEqual(
    { ...bad.diagnostics[0], message: undefined },
    {
      severity: "error",
      file: "fixtures/cli/broken/evals/bad_weight.yaml",
      line: 8,
      column: 17,
      path: "evalcases[0].evaluators[0].weight",
      message: undefined,
    },
  );
  assert.deepEqual(good, {
    file: "fixtures/cli/project/evals/geography.yaml",
    kind: "eval",
    valid: true,
    cases: 2,
    diagnostics: [],
  });
});

Deno.test("agentv validate --verbose shows the missing-sidecar warning", async () => {
  const quiet = await validate(["fixtures/cli/warnings/only.jsonl"]);
  assert.equal(quiet.code, 0);
  assert.equal(
    quiet.out,
    "✓ fixtures/cli/warnings/only.jsonl (1 case)\n1 file valid (0 errors, 0 warnings)\n",
  );
  const verbose = await validate(["fixtures/cli/warnings/only.jsonl", "--verbose"]);
  assert.equal(verbose.code, 0, "warnings do not invalidate");
  assert.match(verbose.out, /^✓ fixtures\/cli\/warnings\/only\.jsonl \(1 case, 1 warning\)\n/);
  assert.match(verbose.out, /\nfixtures\/cli\/warnings\/only\.jsonl: warning: .*[Ss]idecar/);
  assert.match(verbose.out, /\n1 file valid \(0 errors, 1 warning\)\n$/);
});

Deno.test("agentv validate checks .agentv/targets.yaml and .agentv/config.yaml files", async () => {
  const { code, out } = await validate(["fixtures/cli/broken_settings"]);
  assert.equal(code, 1);
  const lines = out.split("\n");
  assert.equal(
    lines[0],
    "✗ fixtures/cli/broken_settings/.agentv/config.yaml (config file, 1 error, 1 warning)",
  );
  assert.match(
    out,
    /\nfixtures\/cli\/broken_settings\/\.agentv\/config\.yaml:1:21: error: guideline_patterns must be a list/,
  );
  assert.match(
    out,
    /\nfixtures\/cli\/broken_settings\/\.agentv\/config\.yaml:2:1: warning: Unknown key 'guideline_pattern' .*did you mean 'guideline_patterns'\?/,
  );
  assert.ok(
    lines.includes("✗ fixtures/cli/broken_settings/.agentv/targets.yaml (targets file, 1 error)"),
    out,
  );
  assert.match(out, /\nfixtures\/cli\/broken_settings\/\.agentv\/targets\.yaml:2:\d+: error: /);
  const explicit = await validate(["fixtures/cli/project/.agentv/targets.yaml"]);
  assert.equal(explicit.code, 0);
  assert.equal(
    explicit.out.split("\n")[0],
    "✓ fixtures/cli/project/.agentv/targets.yaml (targets file)",
  );
});

Deno.test("agentv validate: a glob skips JSONL sidecars", async () => {
  const { code, out } = await validate(["fixtures/cli/project/**/*.yaml"]);
  assert.equal(code, 0);
  assert.equal(
    out,
    "✓ fixtures/cli/project/evals/geography.yaml (2 cases)\n1 file valid (0 errors, 0 warnings)\n",
  );
});

Deno.test("agentv validate with no path validates the current folder, as agentv run does", async () => {
  const here = await validate([], { cwd: join(REPO_ROOT, "fixtures/cli/project") });
  const named = await validate(["."], { cwd: join(REPO_ROOT, "fixtures/cli/project") });
  assert.equal(here.code, 0, here.out + here.err);
  assert.match(here.out, /^✓ evals\/geography\.yaml \(2 cases\)$/m);
  assert.equal(here.out, named.out);
  await using empty = await tempTree({ "notes.txt": "no evals here\n" });
  const none = await validate([], { cwd: empty.dir });
  assert.equal(none.code, 2);
  assert.match(none.err, /^error: No eval files \(\.yaml, \.yml, \.jsonl\) in '\.'/);
});

Deno.test("agentv validate: usage mistakes exit 2 with a message on stderr", async () => {
  const missing = await validate(["fixtures/cli/does-not-exist"]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /does-not-exist/);
  const partly = await validate([
    "fixtures/cli/project/evals/geography.yaml",
    "fixtures/cli/nope.yaml",
  ]);
  assert.equal(partly.code, 2, "a missing path is a usage error even when other files are valid");
  assert.match(partly.out, /^✓ fixtures\/cli\/project\/evals\/geography\.yaml/);
  const root = await validate(["fixtures/cli/project", "--root", "fixtures/cli/nowhere"]);
  assert.equal(root.code, 2);
  assert.match(root.err, /--root 'fixtures\/cli\/nowhere' is not a folder/);
});

Deno.test("agentv validate loads every corpus file with the README's case counts", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "fixtures/corpus/README.md"));
  // Files whose target no reachable targets file defines (as in the original), and files whose
  // cases are graded by a judge their target does not name (the original let a target judge
  // itself; agentv asks for a judge_target): every case is an error, as `run` records it.
  const unreachable = new Set([
    "features/code-judge-sdk/evals/dataset.yaml",
    "features/tool-trajectory-advanced/evals/trace-file-demo.yaml",
    "features/tool-trajectory-simple/evals/dataset.yaml",
    "features/basic/evals/dataset.yaml",
    "features/basic-jsonl/evals/dataset.jsonl",
    "features/code-judge-with-llm-calls/evals/contextual-precision.yaml",
    "features/code-judge-with-llm-calls/evals/contextual-recall.yaml",
    "features/composite/evals/dataset.yaml",
    "features/rubric/evals/dataset.yaml",
    "features/weighted-evaluators/evals/dataset.yaml",
    "showcase/cw-incident-triage/evals/dataset.yaml",
    "showcase/psychotherapy/evals/dataset-encouragement.yaml",
    "showcase/psychotherapy/evals/dataset-listening.yaml",
    "showcase/psychotherapy/evals/dataset-routing.yaml",
  ]);
  const expected = [
    ...readme.matchAll(/^\| ([\w./-]+\.(?:yaml|jsonl))\b[^|]*\| \w+ \| (\d+) \|$/gm),
  ]
    .map(([, file, cases]) =>
      unreachable.has(file)
        ? `✗ fixtures/corpus/agentv-examples/${file} (${plural(Number(cases))}, ${
          Number(cases) === 1 ? "1 error" : `${cases} errors`
        })`
        : `✓ fixtures/corpus/agentv-examples/${file} (${plural(Number(cases))})`
    );
  assert.equal(expected.length, 21);
  const { code, out } = await validate(["fixtures/corpus/agentv-examples"]);
  assert.equal(code, 1, out);
  const lines = out.split("\n");
  for (const line of expected) assert.ok(lines.includes(line), `missing: ${line}\n${out}`);
  assert.ok(!/\.baseline\.jsonl|-results\.jsonl/.test(out), "result files are not eval files");
});

function plural(n: number): string {
  return `${n} case${n === 1 ? "" : "s"}`;
}

Deno.test("agentv validate refuses references outside the dataset root; --root widens it", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv_validate_" }));
  try {
    await Deno.mkdir(join(tmp, "proj", ".agentv"), { recursive: true });
    await Deno.writeTextFile(
      join(tmp, "proj", ".agentv", "config.yaml"),
      "guideline_patterns: ['*.instructions.md']\n",
    );
    await Deno.writeTextFile(join(tmp, "shared.md"), "SHARED-OUTSIDE-TEXT\n");
    await Deno.writeTextFile(
      join(tmp, "proj", "eval.yaml"),
      "evalcases:\n  - id: a\n    expected_outcome: x\n    input:\n      - role: user\n        content:\n          - type: file\n            value: ../shared.md\n",
    );
    const refused = await validate(["proj/eval.yaml"], { cwd: tmp });
    assert.equal(refused.code, 1);
    assert.match(refused.out, /^✗ proj\/eval\.yaml \(0 cases, 1 error\)\n/);
    assert.match(refused.out, /\nproj\/eval\.yaml:8:\d+: error: .*\.\.\/shared\.md/);
    assert.ok(refused.out.includes(join(tmp, "proj")), "names the root");
    assert.ok(!refused.out.includes("SHARED-OUTSIDE-TEXT"));
    const widened = await validate(["proj/eval.yaml", "--root", "."], { cwd: tmp });
    assert.equal(widened.code, 0, widened.out);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("agentv validate colours its output only when io.color is set", async () => {
  const plain = await validate(["fixtures/cli/broken/evals/bad_weight.yaml"]);
  assert.ok(!plain.raw.includes("\x1b["));
  const coloured = await validate(["fixtures/cli/broken/evals/bad_weight.yaml"], { color: true });
  assert.ok(coloured.raw.includes("\x1b[31m✗\x1b[39m"));
  assert.equal(coloured.out, plain.out);
});

Deno.test("agentv validate stops with exit 130 when interrupted", async () => {
  const io = createBufferIO();
  io.interrupt();
  assert.equal(await runCli(["validate", "fixtures/cli/project"], io), 130);
  assert.match(io.err(), /Interrupted/);
});

Deno.test("agentv validate: hostile files end in diagnostics, not crashes", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv_hostile_" }));
  try {
    await Deno.mkdir(join(tmp, ".agentv"));
    const levels = ["a", "b", "c", "d", "e", "f", "g"];
    const bomb = levels.map((name, i) =>
      `${name}: &${name} [${Array(9).fill(i === 0 ? '"lol"' : `*${levels[i - 1]}`).join(", ")}]`
    ).join("\n") + "\nevalcases: *g\n";
    await Deno.writeTextFile(join(tmp, "bomb.yaml"), bomb);
    await Deno.writeFile(
      join(tmp, "binary.yaml"),
      new Uint8Array(512).map((_, i) =>
        i % 256
      ),
    );
    await Deno.writeFile(join(tmp, "latin1.jsonl"), new Uint8Array([0x7b, 0xe9, 0x7d, 0x0a]));
    await Deno.writeTextFile(
      join(tmp, "nested.jsonl"),
      "[".repeat(20000) + "]".repeat(20000) + "\n",
    );
    await Deno.writeTextFile(
      join(tmp, "crlf.yaml"),
      "\ufeffevalcases:\r\n  - id: a\r\n    expected_outcome: x\r\n    input: hi\r\n",
    );
    const { code, out } = await validate(["."], { cwd: tmp });
    assert.equal(code, 1);
    const lines = out.split("\n");
    for (const name of ["binary.yaml", "bomb.yaml", "latin1.jsonl", "nested.jsonl"]) {
      assert.ok(lines.includes(`✗ ${name} (0 cases, 1 error)`), `${name}\n${out}`);
    }
    assert.ok(lines.includes("✓ crlf.yaml (1 case)"), out);
    assert.equal(lines.at(-2), "4 of 5 files invalid (4 errors, 0 warnings)");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
