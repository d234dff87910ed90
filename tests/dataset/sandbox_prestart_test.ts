/**
 * The sandbox worker that `validate` and `run` start before their modules load: its root is
 * guessed from the command line as the loader finds it, and a sandbox adopts it only when its
 * permissions are exactly the guessed ones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Sandbox, sandboxRoot } from "../../lib/dataset/sandbox.ts";
import { prestartSandbox } from "../../lib/dataset/sandbox_worker.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const SUITE = "evalcases:\n  - id: a\n    expected_outcome: Says hi\n    input: Hi\n";

/** The roots `prestartSandbox` starts a worker for (the worker is terminated at once). */
function guess(args: string[], cwd: string, alsoReadFlag?: string): readonly string[] {
  let roots: readonly string[] = [];
  const discard = prestartSandbox(args, cwd, {
    ...(alsoReadFlag ? { alsoReadFlag } : {}),
    onStart: (r) => roots = r,
  });
  discard();
  return roots;
}

Deno.test("the early worker's root is the one the loader finds for the first path named", async () => {
  await using tree = await tempTree({
    "project/.agentv/targets.yaml": "targets: []\n",
    "project/evals/deep/a.yaml": SUITE,
    "project/evals/b.yaml": SUITE,
    "loose/c.yaml": SUITE,
    "elsewhere/t.yaml": "targets: []\n",
  });
  const root = await Deno.realPath(tree.dir);
  const project = join(root, "project");
  const cases: [string[], string, string][] = [
    [["evals/deep/a.yaml", "--workers", "8"], project, join(project, "evals/deep/a.yaml")],
    [["--dry-run", "evals"], project, join(project, "evals/b.yaml")],
    [["--filter", "x*", "project/evals/b.yaml"], root, join(project, "evals/b.yaml")],
    [["../loose/c.yaml"], project, join(root, "loose/c.yaml")],
  ];
  for (const [args, cwd, file] of cases) {
    assert.deepEqual(guess(args, cwd), [await sandboxRoot(file)], args.join(" "));
  }
  // No path named: the working folder's dataset, as `agentv run` with no path.
  assert.deepEqual(guess([], join(project, "evals")), [project]);
  // `--root` wins; `validate --targets` adds the file it may read.
  assert.deepEqual(guess(["evals", "--root", "evals"], project), [join(project, "evals")]);
  assert.deepEqual(
    guess(["evals", "--targets=../elsewhere/t.yaml"], project, "targets"),
    [project, join(root, "elsewhere/t.yaml")],
  );
});

Deno.test("a wrong guess never widens a sandbox: it gets a worker of its own root", async () => {
  await using tree = await tempTree({
    "a/.agentv/config.yaml": "{}\n",
    "a/secret.yaml": SUITE,
    "b/.agentv/config.yaml": "{}\n",
    "b/evals.yaml": SUITE,
  });
  const root = await Deno.realPath(tree.dir);
  let guessed: readonly string[] = [];
  const discard = prestartSandbox(["a/secret.yaml"], root, { onStart: (r) => guessed = r });
  try {
    assert.deepEqual(guessed, [join(root, "a")]);
    using sandbox = new Sandbox(join(root, "b"));
    assert.equal((await sandbox.load(join(root, "b/evals.yaml"))).cases.length, 1);
    await assert.rejects(sandbox.load(join(root, "a/secret.yaml")), /outside the dataset root/);
    // The sandbox of the guessed root adopts the early worker and loads with it.
    using adopted = new Sandbox(join(root, "a"));
    assert.equal((await adopted.load(join(root, "a/secret.yaml"))).cases.length, 1);
  } finally {
    discard();
  }
});
