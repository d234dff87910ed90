/**
 * `validate` of a large eval file uses two sandbox workers with the same permissions: one reads
 * the cases, the other the targets file that applies (its verdict is sent to the first). The
 * report is the one a single worker gives; a failed second worker only means the first reads the
 * targets file itself; a targets file that links outside the root is refused in either; and a
 * JSONL file of plain cases is validated by a worker that never loads zod or yaml (its static graph
 * is checked by tests/project/startup_imports_process_test.ts).
 */
import assert from "node:assert/strict";
import { Sandbox, type TargetsVerdict } from "../../lib/dataset/sandbox.ts";
import { prestartSandbox, type SandboxPreload } from "../../lib/dataset/sandbox_worker.ts";
import { validatePaths } from "../../lib/cli/validate.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const TARGETS =
  "targets:\n  - name: default\n    provider: mock\n    judge_target: j\n  - name: azure\n    provider: mock\n    judge_target: j\n  - name: j\n    provider: mock\n    judge: true\n";

/** A JSONL file of `n` cases over 1 MiB: plain ones, some with an undefined target or a typo. */
function bigJsonl(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const record: Record<string, unknown> = {
      id: `case-${i}`,
      expected_outcome: `Answers question ${i} ${"politely ".repeat(8)}`,
      input: `What is ${i} + ${i}?`,
    };
    if (i % 1000 === 7) record.execution = { target: "azur" };
    if (i % 1000 === 9) record.typo = true;
    lines.push(JSON.stringify(record));
  }
  return lines.join("\n") + "\n";
}

/**
 * Records the `op` of every message posted to a worker while `fn` runs, but `reset` (a worker
 * lent to the next sandbox, as the fast tier's lanes lend them, is told to forget what it read).
 */
async function postedOps<T>(fn: () => Promise<T>): Promise<{ ops: string[]; value: T }> {
  const ops: string[] = [];
  const original = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
    const op = (message as { op: string }).op;
    if (op !== "reset") ops.push(op);
    return original.call(this, message, ...rest);
  };
  try {
    return { ops, value: await fn() };
  } finally {
    Worker.prototype.postMessage = original;
  }
}

Deno.test("validate of a large JSONL file reads its targets file in a second worker and reports what one worker reports", async () => {
  await using tree = await tempTree(
    { ".agentv/targets.yaml": TARGETS, "evals/big.jsonl": bigJsonl(12_000) },
    { git: true },
  );
  const file = tree.path("evals/big.jsonl");
  assert.ok((await Deno.stat(file)).size > 1 << 20);
  const { ops, value: result } = await postedOps(() => validatePaths([file], { cwd: tree.dir }));
  // The cases' request first, then the second worker's, then the verdict it sent on.
  assert.deepEqual(ops, ["validate", "targets", "verdict"]);
  using single = new Sandbox(tree.root);
  const alone = await single.validate(file, { check: { cwd: tree.dir } });
  assert.deepEqual(result.files, [alone]);
  assert.equal(alone.cases, 12_000);
  const errors = alone.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 12);
  assert.equal(alone.diagnostics.length, 24); // and the unknown keys' warnings
  assert.deepEqual([errors[0].line, errors[0].column, errors[0].path], [
    8,
    176,
    "execution.target",
  ]);
  assert.match(
    errors[0].message,
    /^Case 'case-7': target 'azur' is not defined .*did you mean 'azure'/,
  );
});

Deno.test("a validate whose verdict cannot be read elsewhere reads the targets file itself", async () => {
  await using tree = await tempTree(
    { ".agentv/targets.yaml": TARGETS, "cases.jsonl": bigJsonl(2_000) },
    { git: true },
  );
  const file = tree.path("cases.jsonl");
  using sandbox = new Sandbox(tree.root);
  const check = { cwd: tree.dir };
  const alone = await sandbox.validate(file, { check });
  const failed = await sandbox.validate(file, {
    check,
    verdict: Promise.reject(new Error("the second worker crashed")),
  });
  assert.deepEqual(failed, alone);
  // A verdict that arrives is the one used: here one that defines no target.
  const none: TargetsVerdict = { shown: ".agentv/targets.yaml", defined: [], broken: [] };
  const strict = await sandbox.validate(file, { check, verdict: Promise.resolve(none) });
  assert.equal(strict.diagnostics.filter((d) => /is not defined/.test(d.message)).length, 2000);
});

Deno.test("the targets worker is confined like the first: a targets file linking outside the root is refused", async () => {
  await using outside = await tempTree({ "targets.yaml": TARGETS + "  - name: secret-target\n" });
  await using tree = await tempTree({ "cases.jsonl": bigJsonl(20) }, { git: true });
  await Deno.mkdir(tree.path(".agentv"));
  await Deno.symlink(outside.path("targets.yaml"), tree.path(".agentv/targets.yaml"));
  using checker = new Sandbox(tree.root, { preload: "targets" });
  const { verdict, definitions } = await checker.readTargets(tree.path("cases.jsonl"), {
    cwd: tree.dir,
  });
  assert.equal(definitions, undefined);
  assert.deepEqual(verdict.defined, []);
  assert.match(verdict.invalid?.message ?? "", /outside the dataset root/);
  using sandbox = new Sandbox(tree.root);
  const report = await sandbox.validate(tree.path("cases.jsonl"), {
    check: { cwd: tree.dir },
    verdict: Promise.resolve(verdict),
  });
  assert.ok(!JSON.stringify(report).includes("secret-target"));
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 2); // the first case of each target used
  assert.match(errors[0].message, /cannot be used: the targets file .* is invalid/);
});

Deno.test("validate prestarts a worker that preloads nothing for a .jsonl file, the loader otherwise", async () => {
  await using tree = await tempTree(
    { "evals/a.jsonl": "{}\n", "evals/b.yaml": "evalcases: []\n" },
    { git: true },
  );
  const preloadOf = (args: string[], jsonlFirst = true): SandboxPreload | undefined => {
    let preload: SandboxPreload | undefined;
    prestartSandbox(args, tree.dir, { jsonlFirst, onStart: (_, p) => preload = p })();
    return preload;
  };
  assert.equal(preloadOf(["evals/a.jsonl"]), "jsonl");
  assert.equal(preloadOf(["evals/a.jsonl", "--root", "."]), "jsonl");
  assert.equal(preloadOf(["evals/b.yaml"]), "loader");
  assert.equal(preloadOf(["evals"]), "loader");
  assert.equal(preloadOf(["evals/a.jsonl"], false), "loader"); // `run` loads with the loader
});
