/** Eval file discovery and glob matching. */
import assert from "node:assert/strict";
import { discoverEvalFiles } from "../../lib/dataset/discover.ts";
import { globToRegExp, matchGlob } from "../../lib/text/glob.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const result = JSON.stringify({ eval_id: "a", score: 1, hits: [], misses: [] });
const evalLine = JSON.stringify({ id: "a", expected_outcome: "x", input: "y" });

Deno.test("discoverEvalFiles() walks folders and skips sidecars, results, dot folders, node_modules", async () => {
  await using tree = await tempTree({
    "evals/a.yaml": "evalcases: []",
    "evals/b.yml": "evalcases: []",
    "evals/data.jsonl": evalLine,
    "evals/data.yaml": "dataset: sidecar",
    "evals/run.baseline.jsonl": result,
    "evals/candidate-results.jsonl": result,
    "evals/notes.md": "x",
    "evals/.agentv/targets.yaml": "targets: []",
    "evals/.hidden/c.yaml": "evalcases: []",
    "evals/node_modules/pkg/d.yaml": "evalcases: []",
    "evals/deep/er/e.YAML": "evalcases: []",
  });
  const found = await discoverEvalFiles(["evals", "evals/a.yaml", "missing"], { cwd: tree.root });
  assert.deepEqual(found.files, [
    tree.path("evals/a.yaml"),
    tree.path("evals/b.yml"),
    tree.path("evals/data.jsonl"),
    tree.path("evals/deep/er/e.YAML"),
  ]);
  assert.deepEqual(found.problems, ["No such file or folder: 'missing'"]);
  // an explicitly named file is taken as given, even a sidecar
  const explicit = await discoverEvalFiles([tree.path("evals/data.yaml")], { cwd: "/" });
  assert.deepEqual(explicit.files, [tree.path("evals/data.yaml")]);
});

Deno.test("discoverEvalFiles() expands globs relative to cwd", async () => {
  await using tree = await tempTree({
    "evals/x/one.yaml": "evalcases: []",
    "evals/y/two.jsonl": evalLine,
    "evals/y/two.yaml": "dataset: sidecar",
    "evals/z/three.yml": "evalcases: []",
  });
  const found = await discoverEvalFiles(["evals/**/*.{yaml,jsonl}", "nothing/*.yaml"], {
    cwd: tree.root,
  });
  assert.deepEqual(found.files, [tree.path("evals/x/one.yaml"), tree.path("evals/y/two.jsonl")]);
  assert.deepEqual(found.problems, ["No eval files match 'nothing/*.yaml'"]);
});

Deno.test("matchGlob() supports *, **, ?, {a,b} and [...] classes", () => {
  const cases: [string, string, boolean][] = [
    ["*.md", "a.md", true],
    ["*.md", "x/a.md", false],
    ["**/*.md", "a.md", true],
    ["**/*.md", "x/y/a.md", true],
    ["docs/**", "docs/a/b", true],
    ["docs/**", "other/a", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["case-?", "case-1", true],
    ["case-?", "case-10", false],
    ["{a,b}.yaml", "b.yaml", true],
    ["{a,b{c,d}}.yaml", "bd.yaml", true],
    ["{a,b}.yaml", "c.yaml", false],
    ["file[0-9].txt", "file7.txt", true],
    ["file[!0-9].txt", "file7.txt", false],
    ["file[!0-9].txt", "filex.txt", true],
    ["a.b+c(d)", "a.b+c(d)", true],
    ["a.b", "axb", false],
    ["src\\*.ts", "src/x.ts", true],
  ];
  for (const [pattern, path, expected] of cases) {
    assert.equal(matchGlob(pattern, path), expected, `${pattern} vs ${path}`);
  }
  assert.ok(globToRegExp("**").test("any/thing"));
});
