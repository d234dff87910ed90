/**
 * Module judges may read the dataset root, except the files that hold secrets or agentv's state:
 * `.env*` (at any depth), `.agentv/cache/`, `.agentv/targets.*`, and links to them. A judge that
 * reads one gets a permission error; other files under the root stay readable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isDeniedPath, judgeReadScope } from "../../lib/scoring/judge_read_scope.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { moduleJudge, runJudgedCases } from "./_judge_run.ts";

const PROBE = `const paths = [
  "../.env", "../.env.local", "../sub/.env.production", "../.agentv/cache/ab/entry.json",
  "../.agentv/targets.yaml", "../link-to-env", "../data/ok.txt", "../sub/notes.txt",
];
export default async () => {
  const details: Record<string, string> = {};
  for (const path of paths) {
    try {
      details[path] = "read: " + (await Deno.readTextFile(new URL(path, import.meta.url)));
    } catch (e) {
      details[path] = (e as Error).name;
    }
  }
  return { score: 1, details };
};
`;

Deno.test("a module judge cannot read .env*, .agentv/cache/ or .agentv/targets.*; other files under the root it can", async () => {
  const run = await runJudgedCases([
    { id: "probe", evaluators: moduleJudge("../judges/probe.ts") },
    { id: "reads_env", evaluators: moduleJudge("../judges/env.ts") },
    { id: "imports_cache", evaluators: moduleJudge("../judges/cache.ts") },
  ], {
    ".env": "OPENAI_API_KEY=sk-secret\n",
    ".env.local": "TOKEN=secret\n",
    "sub/.env.production": "TOKEN=secret\n",
    "sub/notes.txt": "notes",
    ".agentv/cache/ab/entry.json": '{"secret": true}\n',
    "data/ok.txt": "ok",
    "judges/probe.ts": PROBE,
    "judges/env.ts":
      "export default async () => ({ score: 1, reasoning: await Deno.readTextFile(new URL('../.env', import.meta.url)) });\n",
    "judges/cache.ts":
      'import entry from "../.agentv/cache/ab/entry.json" with { type: "json" };\nexport default () => ({ score: 1, details: entry });\n',
  }, { beforeRun: (root) => Deno.symlink(join(root, ".env"), join(root, "link-to-env")) });
  const details = run.rows.probe.evaluator_results[0].details as Record<string, string>;
  for (
    const denied of [
      "../.env",
      "../.env.local",
      "../sub/.env.production",
      "../.agentv/cache/ab/entry.json",
      "../.agentv/targets.yaml",
      "../link-to-env",
    ]
  ) {
    assert.match(details[denied], /NotCapable|PermissionDenied/, `${denied}: ${details[denied]}`);
  }
  assert.equal(details["../data/ok.txt"], "read: ok");
  assert.equal(details["../sub/notes.txt"], "read: notes");
  const env = run.rows.reads_env.evaluator_results[0];
  assert.equal(env.status, "error");
  assert.match(env.error ?? "", /NotCapable: Requires read access to ".*\.env"/);
  assert.doesNotMatch(JSON.stringify(run.rows), /sk-secret/);
  const cache = run.rows.imports_cache.evaluator_results[0];
  assert.equal(cache.status, "error");
  assert.match(cache.error ?? "", /may not read/);
});

Deno.test("judgeReadScope lists the root entry by entry, leaving out what is denied", async () => {
  await using tree = await tempTree({
    ".env": "x",
    "a/b/.env.test": "x",
    "a/c.txt": "x",
    "d/e.txt": "x",
    ".agentv/cache/k": "x",
    ".agentv/results/r.jsonl": "x",
    ".agentv/targets.yaml": "x",
  });
  const scope = await judgeReadScope(tree.dir);
  const rel = (paths: string[]) => paths.map((p) => p.slice(tree.dir.length + 1)).sort();
  assert.deepEqual(rel(scope.allow), [".agentv/results", "a/c.txt", "d"]);
  assert.ok(rel(scope.denied).includes("a/b/.env.test"));
  assert.equal(isDeniedPath(join(tree.dir, ".agentv/targets.json")), true);
  assert.equal(isDeniedPath(join(tree.dir, "agentv/targets.json")), false);
});
