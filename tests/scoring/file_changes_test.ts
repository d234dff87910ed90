/**
 * `file_changes` scores what a target changed in a real workspace (a copy of a template made by
 * the runner's workspace manager, edited here as an agent would).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evaluateFileChanges } from "../../lib/scoring/file_changes.ts";
import { runEvaluator } from "../../lib/scoring/run_evaluator.ts";
import { createWorkspaceManager } from "../../lib/run/workspace.ts";
import { EvaluatorConfigSchema, FileChangesSchema } from "../../lib/schema/evaluator.ts";
import { makeCase, makeContext } from "./_context.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

/** A workspace copied from a template, edited like an agent would, and its context. */
async function editedWorkspace() {
  const tree = await tempTree({
    "tpl/src/add.ts": "export function add(a: number, b: number) {\n  return 0;\n}\n",
    "tpl/README.md": "# calc\n",
    "tpl/old.txt": "old\n",
  });
  const temp = await tempTree({});
  const manager = createWorkspaceManager({ runId: "r", tempDir: temp.root });
  const ws = (await manager.open({
    evalCase: makeCase(),
    target: { provider: "cli", workspaceTemplate: tree.path("tpl") },
    evalDir: tree.root,
    root: tree.root,
  }))!;
  await Deno.writeTextFile(
    join(ws.path, "src", "add.ts"),
    "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  );
  await Deno.writeTextFile(join(ws.path, "src", "add_test.ts"), "Deno.test('add', () => {});\n");
  await Deno.remove(join(ws.path, "old.txt"));
  const context = makeContext({ workspacePath: ws.path, workspaceChanges: await ws.changes() });
  return {
    context,
    async [Symbol.asyncDispose]() {
      await ws.dispose();
      await manager.close();
      await temp[Symbol.asyncDispose]();
      await tree[Symbol.asyncDispose]();
    },
  };
}

function config(input: Record<string, unknown>) {
  return FileChangesSchema.parse({ type: "file_changes", ...input });
}

Deno.test("file_changes scores each expected path, change kind and content check", async () => {
  await using ws = await editedWorkspace();
  const r = await evaluateFileChanges(
    config({
      expected: [
        { path: "src/add.ts", change: "modified", contains: "a + b", regex: "return\\s+a" },
        { path: "src/*_test.ts", change: "added" },
        { path: "old.txt", change: "deleted" },
        { path: "README.md" },
        { path: "src/add.ts", contains: ["a + b", "a * b"] },
        { path: "src/add_test.ts", change: "modified" },
      ],
    }),
    ws.context,
  );
  assert.equal(r.status, "ok");
  assert.equal(r.score, 3 / 6);
  assert.deepEqual(r.hits, [
    'src/add.ts: modified, contains "a + b", matches /return\\s+a/',
    "src/add_test.ts: added",
    "old.txt: deleted",
  ]);
  assert.equal(r.misses.length, 3);
  assert.equal(r.misses[0], "README.md: expected changed, but the file was not changed");
  assert.match(
    r.misses[1],
    /^src\/add\.ts: src\/add\.ts was modified but it does not contain "a \* b"/,
  );
  assert.equal(r.misses[2], "src/add_test.ts: expected modified, but src/add_test.ts was added");
});

Deno.test("file_changes with allow_other_changes: false counts the unexpected files as one miss", async () => {
  await using ws = await editedWorkspace();
  const strict = await evaluateFileChanges(
    config({ expected: [{ path: "src/add.ts" }], allow_other_changes: false }),
    ws.context,
  );
  assert.equal(strict.score, 1 / 2);
  assert.deepEqual(strict.misses, [
    "Unexpected changes (allow_other_changes: false): old.txt (deleted), src/add_test.ts (added)",
  ]);
  const globbed = await evaluateFileChanges(
    config({ expected: [{ path: "**" }], allow_other_changes: false }),
    ws.context,
  );
  assert.equal(globbed.score, 1);
  assert.deepEqual(globbed.hits.at(-1), "No other files changed");
});

Deno.test("file_changes is an evaluator error when the case ran without a workspace", async () => {
  const r = await runEvaluator(
    EvaluatorConfigSchema.parse({ type: "file_changes", expected: [{ path: "a.txt" }] }),
    makeContext(),
  );
  assert.equal(r.status, "error");
  assert.match(r.error ?? "", /ran without a workspace.*workspace_template/);
});

Deno.test("file_changes is skipped in a dry run, where the mock target changes nothing", async () => {
  const r = await runEvaluator(
    EvaluatorConfigSchema.parse({ type: "file_changes", expected: [{ path: "a.txt" }] }),
    makeContext({ dryRun: true }),
  );
  assert.equal(r.status, "skipped");
  assert.match(r.reasoning ?? "", /^Dry run/);
});

Deno.test("file_changes schema refuses content checks on a deleted file, '..' paths and slow regexes", () => {
  const problems = (input: Record<string, unknown>) => {
    const r = EvaluatorConfigSchema.safeParse({ type: "file_changes", ...input });
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };
  assert.match(
    problems({ expected: [{ path: "a", change: "deleted", contains: "x" }] }).join(),
    /deleted file has no content to check/,
  );
  assert.match(problems({ expected: [{ path: "../a" }] }).join(), /relative to the workspace/);
  assert.match(
    problems({ expected: [{ path: "a", regex: "(a)\\1" }] }).join(),
    /regex cannot be used/,
  );
  assert.match(
    problems({ expected: [{ path: "a", change: "renamed" }] }).join(),
    /change 'renamed'/,
  );
  assert.match(problems({ expected: [] }).join(), /at least one file/);
  assert.deepEqual(problems({ expected: [{ path: "a" }] }), []);
});
