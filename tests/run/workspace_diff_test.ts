/**
 * The workspace diff of a row: added / modified / deleted files of a real folder against its
 * snapshot, a unified diff naming `/dev/null` for added and deleted files, binary files named
 * only, `.git` left out, and the size cap (saying what was cut).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  diffWorkspace,
  snapshotWorkspace,
  WORKSPACE_DIFF_MAX_BYTES,
} from "../../lib/run/workspace_diff.ts";
import { createWorkspaceManager } from "../../lib/run/workspace.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;

function caseWith(id: string, execution: EvalCase["execution"] = { target: "t" }): EvalCase {
  return {
    id,
    dataset: "d",
    expected_outcome: "x",
    input: [{ role: "user", content: "hi" }],
    expected_output: [],
    execution,
    evaluator: "contains",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
  };
}

Deno.test("diffWorkspace lists added, modified and deleted files and diffs them", async () => {
  await using tree = await tempTree({
    "tpl/a.txt": "one\ntwo\nthree\n",
    "tpl/gone.txt": "bye\n",
    "tpl/same.txt": "same\n",
    "tpl/bin.dat": new Uint8Array([0, 1, 2]),
  });
  await using temp = await tempTree({});
  const manager = createWorkspaceManager({ runId: "r1", tempDir: temp.root });
  const ws = await manager.open({
    evalCase: caseWith("c", { target: "t", workspace_template: "tpl" }),
    target: { provider: "cli" },
    evalDir: tree.root,
    root: tree.root,
  });
  assert.ok(ws !== undefined);
  await Deno.writeTextFile(join(ws.path, "a.txt"), "one\n2\nthree\n");
  await Deno.remove(join(ws.path, "gone.txt"));
  await Deno.mkdir(join(ws.path, "src"));
  await Deno.writeTextFile(join(ws.path, "src", "new.ts"), "export {};\n");
  await Deno.writeFile(join(ws.path, "bin.dat"), new Uint8Array([0, 9, 9]));
  await Deno.mkdir(join(ws.path, ".git"));
  await Deno.writeTextFile(join(ws.path, ".git", "HEAD"), "ref: refs/heads/main\n");
  const changes = await ws.changes();
  assert.deepEqual(changes.added, ["src/new.ts"]);
  assert.deepEqual(changes.modified, ["a.txt", "bin.dat"]);
  assert.deepEqual(changes.deleted, ["gone.txt"]);
  assert.equal(changes.template, join(tree.root, "tpl"));
  assert.equal(
    changes.diff,
    [
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1,3 +1,3 @@",
      " one",
      "-two",
      "+2",
      " three",
      "Files a/bin.dat and b/bin.dat differ (binary)",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1,1 +0,0 @@",
      "-bye",
      "--- /dev/null",
      "+++ b/src/new.ts",
      "@@ -0,0 +1,1 @@",
      "+export {};",
      "",
    ].join("\n"),
  );
  await ws.dispose();
  await assert.rejects(() => Deno.stat(ws.path), Deno.errors.NotFound);
  await manager.close();
  assert.deepEqual(await Array.fromAsync(Deno.readDir(temp.root)), []);
});

Deno.test("diffWorkspace cuts the diff at the cap on a line boundary and says how much is left out", async () => {
  await using dir = await tempTree({});
  const snapshot = await snapshotWorkspace(dir.root);
  for (let f = 0; f < 10; f++) {
    const lines = Array.from({ length: 50 }, (_, i) => `file ${f} line ${i}`).join("\n") + "\n";
    await Deno.writeTextFile(join(dir.root, `f${f}.txt`), lines);
  }
  const full = await diffWorkspace(dir.root, { snapshot, maxDiffBytes: 10_000_000 });
  assert.equal(full.diff_truncated, false);
  const cap = 2000;
  const cut = await diffWorkspace(dir.root, { snapshot, maxDiffBytes: cap });
  assert.equal(cut.diff_truncated, true);
  assert.deepEqual(cut.added, full.added);
  const lines = cut.diff.split("\n");
  const note = lines.at(-2)!;
  const shown = lines.slice(0, -2).join("\n") + "\n";
  assert.ok(bytes(shown) <= cap, `${bytes(shown)} bytes shown`);
  assert.ok(full.diff.startsWith(shown));
  const left = bytes(full.diff) - bytes(shown);
  assert.match(note, new RegExp(`^\\.\\.\\. diff cut at ${cap} bytes: ${left} more bytes`));
});

Deno.test("the default cap is 256 KiB", async () => {
  await using dir = await tempTree({});
  const snapshot = await snapshotWorkspace(dir.root);
  const line = "x".repeat(99) + "\n";
  await Deno.writeTextFile(join(dir.root, "big.txt"), line.repeat(3000)); // 300 000 bytes
  const changes = await diffWorkspace(dir.root, { snapshot });
  assert.equal(WORKSPACE_DIFF_MAX_BYTES, 262_144);
  assert.equal(changes.diff_truncated, true);
  const shown = changes.diff.split("\n").slice(0, -2).join("\n") + "\n";
  assert.ok(bytes(shown) <= WORKSPACE_DIFF_MAX_BYTES);
  assert.ok(bytes(shown) > WORKSPACE_DIFF_MAX_BYTES - line.length - 1);
});

Deno.test("a template holding a link out of it is refused and leaves no workspace", async () => {
  await using outside = await tempTree({ "secret.txt": "s\n" });
  await using tree = await tempTree({ "tpl/a.txt": "a\n" });
  await Deno.symlink(join(outside.root, "secret.txt"), join(tree.root, "tpl", "link"));
  await using temp = await tempTree({});
  const manager = createWorkspaceManager({ runId: "r", tempDir: temp.root });
  await assert.rejects(
    () =>
      manager.open({
        evalCase: caseWith("c"),
        target: { provider: "cli", workspaceTemplate: join(tree.root, "tpl") },
        evalDir: tree.root,
        root: tree.root,
      }),
    /holds a link that leads outside it \(or is absolute, so the copy would point back into the template\): link -> /,
  );
  await manager.close();
  assert.deepEqual(await Array.fromAsync(Deno.readDir(temp.root)), []);
});

Deno.test("a case needs no workspace unless it or its target names a template or the target is an agent", async () => {
  await using tree = await tempTree({});
  await using temp = await tempTree({});
  const manager = createWorkspaceManager({ runId: "r", tempDir: temp.root });
  const request = { evalCase: caseWith("c"), evalDir: tree.root, root: tree.root };
  assert.equal(await manager.open({ ...request, target: { provider: "openai" } }), undefined);
  const agent = await manager.open({ ...request, target: { provider: "claude-code" } });
  assert.ok(agent !== undefined);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(agent.path)), []);
  await agent.dispose();
  await manager.close();
});
