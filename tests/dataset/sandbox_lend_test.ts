/**
 * Lent sandbox workers (`lendSandboxWorkers`): a closed sandbox's worker serves the next sandbox
 * with exactly its permissions, having forgotten what it read; any other sandbox gets a worker of
 * its own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Sandbox } from "../../lib/dataset/sandbox.ts";
import {
  lendSandboxWorkers,
  returnSandboxWorker,
  startSandboxWorker,
} from "../../lib/dataset/sandbox_worker.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const SUITE = "evalcases:\n  - id: a\n    expected_outcome: Says hi\n    input: Hi\n" +
  "    evaluators: [{type: contains, value: hi}]\n";
const targets = (name: string) => `targets:\n  - name: ${name}\n    provider: mock\n`;

/** Runs `body` with workers lent, then puts the setting back as it was. */
async function lending(body: () => Promise<void>): Promise<void> {
  const before = lendSandboxWorkers(true);
  try {
    await body();
  } finally {
    lendSandboxWorkers(false);
    lendSandboxWorkers(before);
  }
}

Deno.test("a lent worker forgets the targets file it read: an edit between two commands is seen", async () => {
  await lending(async () => {
    await using tree = await tempTree({
      ".agentv/targets.yaml": targets("default"),
      "evals/a.yaml": SUITE,
    });
    const root = await Deno.realPath(tree.dir);
    const file = join(root, "evals/a.yaml");
    const check = { cwd: root };
    const first = new Sandbox(root);
    const before = await first.validate(file, { check });
    assert.equal(before.valid, true, JSON.stringify(before.diagnostics));
    first.close();
    await Deno.writeTextFile(join(root, ".agentv/targets.yaml"), targets("other"));
    using second = new Sandbox(root);
    const report = await second.validate(file, { check });
    assert.equal(report.valid, false);
    assert.match(JSON.stringify(report.diagnostics), /default/);
  });
});

Deno.test("a worker is lent only to a sandbox with exactly its permissions, and only while lending is on", async () => {
  await using tree = await tempTree({ "a/evals.yaml": SUITE, "b.yaml": SUITE });
  const root = await Deno.realPath(tree.dir);
  const a = [join(root, "a")];
  const started: Worker[] = [];
  const start = (roots: string[]) => {
    const worker = startSandboxWorker(roots);
    started.push(worker);
    return worker;
  };
  try {
    await lending(async () => {
      const worker = start(a);
      assert.equal(returnSandboxWorker(a, worker), true);
      assert.equal(start(a), worker, "the same root gets the lent worker");
      assert.equal(returnSandboxWorker(a, worker), true);
      const wider = start([...a, join(root, "b.yaml")]);
      assert.notEqual(wider, worker, "a sandbox that may read more gets its own");
      assert.equal(start(a), worker, "and the lent worker still waits for its own root");
      // A lent worker still works, and still reads its root only.
      using sandbox = new Sandbox(a[0]);
      assert.equal((await sandbox.load(join(root, "a/evals.yaml"))).cases.length, 1);
      sandbox.close();
      using again = new Sandbox(a[0]);
      assert.equal((await again.load(join(root, "a/evals.yaml"))).cases.length, 1);
      await assert.rejects(again.load(join(root, "b.yaml")), /outside the dataset root/);
    });
    const before = lendSandboxWorkers(false);
    try {
      const worker = start(a);
      assert.equal(returnSandboxWorker(a, worker), false, "not lent when lending is off");
    } finally {
      lendSandboxWorkers(before);
    }
  } finally {
    for (const worker of started) worker.terminate();
  }
});
