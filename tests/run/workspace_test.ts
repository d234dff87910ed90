/**
 * Case workspaces, end to end through `runEval` with a real `cli` target (a shell command that
 * edits files): every case gets its own fresh copy of `workspace_template`, the row records what
 * changed, evaluators get the path, and nothing is left behind unless kept.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import type { WorkspaceChanges } from "../../lib/schema/workspace.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const IDS = ["c1", "c2", "c3", "c4"];

/** The agent: reads the template's marker, overwrites it, deletes a file, prints its folder. */
const EDIT_COMMAND =
  "cat marker.txt > seen.txt && printf '%s\\n' {EVAL_ID} > marker.txt && rm old.txt && pwd";

function dataset(extraTarget = "", evalFileExtra = ""): Record<string, string> {
  const cases = IDS.map((id) =>
    `  - id: ${id}
    expected_outcome: edits the project
    input: edit it
    evaluators:
      - type: file_changes
        expected:
          - { path: marker.txt, change: modified, contains: "${id}" }
          - { path: seen.txt, change: added, regex: "^template$", flags: m }
          - { path: old.txt, change: deleted }
        allow_other_changes: false
      - name: tests-in-workspace
        type: code_judge
        script: ${
      JSON.stringify(
        `test "$(cat "$AGENTV_WORKSPACE_PATH/marker.txt")" = ${id} && echo '{"score": 1}'`,
      )
    }
      - name: module-reads-workspace
        type: code_judge
        module: ../judges/read_marker.ts
`
  ).join("");
  return {
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    workspace_template: ../project
    command_template: ${JSON.stringify(EDIT_COMMAND)}
${extraTarget}`,
    "project/marker.txt": "template\n",
    "project/old.txt": "to delete\n",
    "project/src/keep.ts": "export const keep = 1;\n",
    "judges/read_marker.ts":
      `export default async function (p: { eval_id: string; workspace_path?: string }) {
  const text = await Deno.readTextFile(p.workspace_path + "/marker.txt");
  return { score: text.trim() === p.eval_id ? 1 : 0, misses: [text] };
}
`,
    "evals/agent.yaml": `${evalFileExtra}evalcases:\n${cases}`,
  };
}

async function entries(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/** The pid of a process that has exited (its temp folder counts as a crashed run's). */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true", { stdout: "null", stderr: "null" }).spawn();
  await child.status;
  return child.pid;
}

Deno.test("runEval runs 4 parallel cases in separate fresh copies of the template and records each diff", async () => {
  await using tree = await tempTree(dataset(), { git: true });
  await using temp = await tempTree({});
  // A crashed run's leftovers: removed when this run makes its first workspace.
  const stale = join(temp.root, `agentv-ws-${await deadPid()}-crashed`);
  await Deno.mkdir(join(stale, "1-case"), { recursive: true });
  const { rows } = await runEval({
    files: ["evals"],
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: tree.root,
    workers: 4,
    allowRun: true,
    workspaceTempDir: temp.root,
  });
  assert.equal(rows.length, 4);
  const folders = new Set<string>();
  for (const row of rows.sort((a, b) => a.eval_id < b.eval_id ? -1 : 1)) {
    assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results));
    assert.equal(row.score, 1, JSON.stringify(row.evaluator_results));
    const folder = row.candidate_answer.trim();
    assert.ok(folder.startsWith(temp.root), folder);
    folders.add(folder);
    const ws = row.workspace as WorkspaceChanges;
    assert.deepEqual(ws.added, ["seen.txt"]);
    assert.deepEqual(ws.modified, ["marker.txt"]);
    assert.deepEqual(ws.deleted, ["old.txt"]);
    assert.equal(ws.template, tree.path("project"));
    assert.equal(ws.path, null);
    assert.equal(ws.diff_truncated, false);
    assert.equal(
      ws.diff,
      [
        "--- a/marker.txt",
        "+++ b/marker.txt",
        "@@ -1,1 +1,1 @@",
        "-template",
        `+${row.eval_id}`,
        "--- a/old.txt",
        "+++ /dev/null",
        "@@ -1,1 +0,0 @@",
        "-to delete",
        "--- /dev/null",
        "+++ b/seen.txt",
        "@@ -0,0 +1,1 @@",
        "+template",
        "",
      ].join("\n"),
    );
  }
  assert.equal(folders.size, 4, "every case ran in its own folder");
  // The template is untouched, and no workspace (nor the crashed run's folder) is left.
  assert.equal(await Deno.readTextFile(tree.path("project/marker.txt")), "template\n");
  assert.deepEqual(await entries(tree.path("project")), ["marker.txt", "old.txt", "src"]);
  assert.deepEqual(await entries(temp.root), []);
});

Deno.test("runEval keeps workspaces in .agentv/workspaces/<run_id>/<case> with keepWorkspaces", async () => {
  await using tree = await tempTree(dataset(), { git: true });
  await using temp = await tempTree({});
  const { rows } = await runEval({
    files: ["evals/agent.yaml"],
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: tree.root,
    allowRun: true,
    keepWorkspaces: true,
    workspaceTempDir: temp.root,
    filter: "c2",
  });
  assert.equal(rows.length, 1);
  const [row] = rows;
  const kept = tree.path(`.agentv/workspaces/${row.run_id}/c2`);
  assert.equal((row.workspace as WorkspaceChanges).path, kept);
  assert.equal(row.candidate_answer.trim(), kept);
  assert.equal(await Deno.readTextFile(join(kept, "marker.txt")), "c2\n");
  assert.equal(await Deno.readTextFile(join(kept, "seen.txt")), "template\n");
  assert.deepEqual(await entries(temp.root), []);
});

Deno.test("a case's workspace_template outside the dataset root is an error row naming the fix", async () => {
  await using outside = await tempTree({ "x.txt": "x\n" });
  await using tree = await tempTree({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: pwd
`,
    "evals/a.yaml": `execution:
  workspace_template: ${JSON.stringify(outside.root)}
evalcases:
  - { id: a, expected_outcome: x, input: hi, evaluators: [{ type: contains, value: x }] }
`,
  }, { git: true });
  const { rows } = await runEval({
    files: ["evals"],
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: tree.root,
    allowRun: true,
  });
  assert.equal(rows[0].status, "error");
  assert.match(rows[0].error ?? "", /workspace_template '.*' lies outside the dataset root/);
  assert.equal(rows[0].attempts, 0);
});

Deno.test("a case without a template runs in an empty workspace when it names one in execution", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: "ls -A && printf 'new\\n' > made.txt"
`,
    "evals/empty/.keep": "",
    "evals/a.yaml": `evalcases:
  - id: a
    expected_outcome: x
    input: hi
    execution: { workspace_template: empty }
    evaluators: [{ type: file_changes, expected: [{ path: made.txt, change: added, contains: new }] }]
`,
  }, { git: true });
  await using temp = await tempTree({});
  const { rows } = await runEval({
    files: ["evals/a.yaml"],
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: tree.root,
    allowRun: true,
    workspaceTempDir: temp.root,
  });
  assert.equal(rows[0].status, "ok", rows[0].error ?? "");
  // `ls -A` listed only the template's file: nothing else was in the folder.
  assert.equal(rows[0].candidate_answer.trim(), ".keep");
  assert.equal(rows[0].score, 1);
  assert.deepEqual((rows[0].workspace as WorkspaceChanges).added, ["made.txt"]);
});

Deno.test("interrupting a run while the agent works deletes its workspace", async () => {
  await using signals = await tempTree({});
  await using temp = await tempTree({});
  await using tree = await tempTree({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    workspace_template: ../project
    command_template: ${
      JSON.stringify(`echo edit > file.txt && : > ${signals.root}/started && exec sleep 60`)
    }
`,
    "project/file.txt": "original\n",
    "evals/a.yaml": `evalcases:
  - { id: slow, expected_outcome: x, input: hi, evaluators: [{ type: contains, value: x }] }
`,
  }, { git: true });
  const controller = new AbortController();
  const watcher = Deno.watchFs(signals.root, { recursive: false });
  const started = (async () => {
    for await (const event of watcher) {
      if (event.paths.some((p) => p.endsWith("started"))) return;
    }
  })();
  const run = runEval({
    files: ["evals"],
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: tree.root,
    allowRun: true,
    signal: controller.signal,
    workspaceTempDir: temp.root,
  });
  await started;
  watcher.close();
  controller.abort();
  const { rows } = await run;
  assert.equal(rows[0].status, "error");
  assert.equal(rows[0].error, "interrupted");
  // What the agent did before it was stopped is still recorded.
  assert.deepEqual((rows[0].workspace as WorkspaceChanges).modified, ["file.txt"]);
  assert.deepEqual(await entries(temp.root), []);
});

Deno.test("a module judge may not read a workspace holding a link the agent pointed outside it", async () => {
  await using outside = await tempTree({ "secret.txt": "secret\n" });
  await using temp = await tempTree({});
  await using tree = await tempTree({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    workspace_template: ../project
    command_template: ${JSON.stringify(`ln -s ${outside.root}/secret.txt leak && echo ok`)}
`,
    "project/a.txt": "a\n",
    "judges/read_marker.ts": dataset()["judges/read_marker.ts"],
    "evals/a.yaml": `evalcases:
  - id: leak
    expected_outcome: x
    input: hi
    evaluators: [{ type: code_judge, module: ../judges/read_marker.ts }]
`,
  }, { git: true });
  const { rows } = await runEval({
    files: ["evals"],
    env: { PATH: Deno.env.get("PATH") ?? "" },
    cwd: tree.root,
    allowRun: true,
    workspaceTempDir: temp.root,
  });
  assert.equal(rows[0].status, "error");
  assert.match(rows[0].error ?? "", /workspace holds symlinks that lead outside it/);
  assert.deepEqual((rows[0].workspace as WorkspaceChanges).added, ["leak"]);
});
