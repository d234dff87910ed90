/**
 * Using agentv as a library by path (a clone, not JSR), the two ways docs/library.md documents: a
 * project whose deno.json maps agentv and agentv's npm imports, or `--import-map` pointing at
 * agentv's deno.json. Each is a real `deno run` of a script outside the repository that runs a
 * dataset folder with `runEval`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };
import { tempTree } from "../_helpers/temp_tree.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

const DATASET = {
  "evals/.agentv/targets.yaml":
    "targets:\n  - name: default\n    provider: mock\n    response: The capital is Paris.\n",
  "evals/geo/capital.yaml": "evalcases:\n" +
    "  - id: capital\n    expected_outcome: Names Paris\n    input: Capital of France?\n" +
    "    evaluators:\n      - type: contains\n        value: Paris\n",
};

function script(specifier: string): string {
  return `import { runEval } from ${JSON.stringify(specifier)};
const { rows } = await runEval({ files: ["evals"], env: {}, cwd: Deno.cwd() });
console.log(rows.map((r) => \`\${r.eval_id}=\${r.verdict}\`).join(","));
`;
}

async function denoRun(cwd: string, args: string[]): Promise<{ code: number; log: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return {
    code: output.code,
    log: text.decode(output.stdout) + text.decode(output.stderr),
  };
}

const MOD_URL = pathToFileURL(join(REPO_ROOT, "mod.ts")).href;

Deno.test("mod.ts by path: the docs' deno.json (agentv mapped, its npm imports copied) works", async () => {
  await using tree = await tempTree({ ...DATASET, "check.ts": script("@agentv/agentv") });
  // A relative path, as a project beside a clone of agentv would write it.
  const modPath = relative(tree.root, join(REPO_ROOT, "mod.ts")).replaceAll("\\", "/");
  // The deno.json docs/library.md shows, with the path of this clone.
  const readme = await Deno.readTextFile(join(REPO_ROOT, "docs/library.md"));
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!)
    .find((text) => text.includes('"@agentv/agentv": "../agentv/mod.ts"'));
  assert.ok(block, "docs/library.md shows a deno.json that maps @agentv/agentv by path");
  const config = JSON.parse(block) as { imports: Record<string, string> };
  for (const [name, specifier] of Object.entries(config.imports)) {
    if (name === "@agentv/agentv") continue;
    assert.equal(specifier, (denoJson.imports as Record<string, string>)[name], name);
  }
  config.imports["@agentv/agentv"] = modPath;
  await Deno.writeTextFile(tree.path("deno.json"), JSON.stringify(config));
  const { code, log } = await denoRun(tree.root, ["check.ts"]);
  assert.equal(code, 0, log);
  assert.match(log, /^capital=pass$/m);
});

Deno.test("mod.ts by path: --import-map names agentv's deno.json", async () => {
  await using tree = await tempTree({ ...DATASET, "check.ts": script(MOD_URL) });
  const { code, log } = await denoRun(tree.root, [
    "--no-config",
    "--unstable-worker-options",
    `--import-map=${join(REPO_ROOT, "deno.json")}`,
    "check.ts",
  ]);
  assert.equal(code, 0, log);
  assert.match(log, /^capital=pass$/m);
});

Deno.test("mod.ts by path without agentv's imports fails on its first npm import", async () => {
  await using tree = await tempTree({ ...DATASET, "check.ts": script(MOD_URL) });
  const { code, log } = await denoRun(tree.root, ["--no-config", "check.ts"]);
  assert.notEqual(code, 0);
  assert.match(log, /Import "(zod|yaml|jsonc-parser|re2js|ajv)" not a dependency/);
});
