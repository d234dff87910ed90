/**
 * The reference sandbox: `../`, absolute paths and symlinks that leave the dataset root are
 * refused with a diagnostic naming the reference and the root, and the outside file is never
 * read — also when the load runs in a Worker that may only read the root.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { loadEvalFile } from "../../lib/dataset/load_eval_file.ts";
import { findDatasetRoot, findUpward, resolveReference } from "../../lib/fs/resolve.ts";
import type { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

function caseWithFile(id: string, ref: string): string {
  return JSON.stringify({
    id,
    expected_outcome: "x",
    input: [{ role: "user", content: [{ type: "file", value: ref }] }],
  });
}

async function outsideTree() {
  const tree = await tempTree({
    "secret.txt": "TOP SECRET",
    "data/.agentv/.keep": "",
    "data/evals/notes.md": "inside",
  });
  await Deno.symlink(tree.path("secret.txt"), tree.path("data/evals/link.md"));
  await Deno.writeTextFile(
    tree.path("data/evals/cases.jsonl"),
    [
      caseWithFile("dotdot", "../../secret.txt"),
      caseWithFile("absolute", tree.path("secret.txt")),
      caseWithFile("symlink", "link.md"),
      caseWithFile("inside", "notes.md"),
    ].join("\n") + "\n",
  );
  return tree;
}

Deno.test("references that leave the dataset root are refused and the outside file is not read", async () => {
  await using tree = await outsideTree();
  const loaded = await loadEvalFile(tree.path("data/evals/cases.jsonl"));
  assert.equal(loaded.root, tree.path("data"));
  assert.deepEqual(loaded.cases.map((c) => c.id), ["inside"]);
  assert.ok(!JSON.stringify(loaded).includes("TOP SECRET"));
  const byLine = new Map(loaded.diagnostics.map((d) => [d.line, d]));
  for (const line of [1, 2, 3]) {
    const d = byLine.get(line)!;
    assert.equal(d.severity, "error");
    assert.equal(d.path, "input[0].content[0].value");
    assert.ok(d.message.includes(tree.path("data")), d.message);
  }
  assert.match(byLine.get(1)!.message, /'\.\.\/\.\.\/secret\.txt' leads outside the dataset root/);
  assert.match(byLine.get(2)!.message, /secret\.txt' is an absolute path outside the dataset root/);
  assert.match(
    byLine.get(3)!.message,
    /'link\.md' resolves through a symlink to .*secret\.txt', outside the dataset root/,
  );
});

Deno.test("in a Worker that may only read the root, escaping references fail the same way", async () => {
  await using tree = await outsideTree();
  const root = tree.path("data");
  const worker = new Worker(new URL("./_sandbox_worker.ts", import.meta.url).href, {
    type: "module",
    deno: {
      permissions: {
        read: [root],
        env: ["LOG_TOKENS", "LOG_STREAM"],
        write: false,
        net: false,
        run: false,
        ffi: false,
        sys: false,
        import: false,
      },
    },
  });
  try {
    const answer = await new Promise<{ ok: boolean; report?: unknown; error?: string }>(
      (resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
        worker.postMessage({ path: tree.path("data/evals/cases.jsonl"), root });
      },
    );
    assert.ok(answer.ok, answer.error ?? "");
    const report = answer.report as Awaited<ReturnType<typeof validateEvalFile>>;
    assert.equal(report.cases, 1);
    const messages = report.diagnostics.map((d) => d.message).join("\n");
    // a read attempt outside the root would surface as a permission error instead
    assert.doesNotMatch(
      messages,
      /NotCapable|PermissionDenied|could not be accessed|Requires read access/,
    );
    assert.equal((messages.match(/outside the dataset root/g) ?? []).length, 3, messages);
  } finally {
    worker.terminate();
  }
});

Deno.test("references are searched from the eval folder up to the root, not beyond", async () => {
  await using tree = await tempTree({
    ".git/HEAD": "ref",
    "shared.md": "root level",
    "a/b/c/evals.yaml": "evalcases: []\n",
    "a/b/local.md": "b level",
  });
  const fromDir = tree.path("a/b/c");
  assert.deepEqual(await resolveReference("local.md", { fromDir, root: tree.root }), {
    path: tree.path("a/b/local.md"),
  });
  assert.deepEqual(await resolveReference("/shared.md", { fromDir, root: tree.root }), {
    path: tree.path("shared.md"),
  });
  const narrow = await resolveReference("shared.md", { fromDir, root: tree.path("a") });
  assert.ok("error" in narrow && /not found/.test(narrow.error));
  assert.equal(await findDatasetRoot(tree.path("a/b/c/evals.yaml")), tree.root);
  assert.equal(
    await findDatasetRoot(tree.path("a/b/c/evals.yaml"), { root: tree.path("a") }),
    tree.path("a"),
  );
});

Deno.test("findUpward() finds the nearest file between a folder and the root", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": "targets: []",
    "x/.agentv/targets.yaml": "targets: []",
    "x/y/z/.keep": "",
  });
  const names = [".agentv/targets.yaml", ".agentv/targets.yml"];
  assert.equal(
    await findUpward(tree.path("x/y/z"), tree.root, names),
    tree.path("x/.agentv/targets.yaml"),
  );
  assert.equal(await findUpward(tree.path("x/y/z"), tree.path("x/y"), names), undefined);
  assert.equal(await findUpward(tree.root, tree.path("x"), names), undefined);
});

Deno.test("without .agentv or .git the root is the eval file's folder", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    let expected = dir;
    for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
      if (await exists(join(d, ".agentv")) || await exists(join(d, ".git"))) {
        expected = d;
        break;
      }
    }
    assert.equal(await findDatasetRoot(join(dir, "e.yaml")), expected);
    await Deno.mkdir(join(dir, "sub"));
    await Deno.mkdir(join(dir, ".git"));
    assert.equal(await findDatasetRoot(join(dir, "sub", "e.yaml")), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
