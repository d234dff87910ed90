/**
 * `agentv init [DIR]`: the files it writes, that they validate and run against the mock at once,
 * that it never overwrites, and a real `init` + `run` in an empty folder.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { initCommand } from "../../lib/cli/init.ts";
import { initFiles } from "../../lib/cli/init_templates.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { validateCommand } from "../../lib/cli/validate.ts";
import { EVAL_SCHEMA_ID } from "../../lib/schema/json_schema.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO } from "./_buffer_io.ts";

const COMMANDS = [initCommand, runCommand, validateCommand];
const FILES = initFiles({ version: denoJson.version }).map((f) => f.path);

async function agentv(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(args, io, { commands: COMMANDS });
  return { code, stdout: io.out(), stderr: io.err() };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** Every file under `dir` (relative, `/`-separated, sorted). */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory) out.push(...await listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

function jsonlRows(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

Deno.test("agentv init writes the project files into the current folder and prints next steps", async () => {
  await using tree = await tempTree({});
  const { code, stdout, stderr } = await agentv(["init"], tree.root);
  assert.equal(code, 0, stderr);
  assert.deepEqual(await listFiles(tree.root), [...FILES].sort());
  for (const file of FILES) {
    assert.match(stdout, new RegExp(`created ${file.replaceAll(".", "\\.")}\\n`));
  }
  assert.match(stdout, /Next steps:/);
  assert.match(stdout, /agentv run evals\//);
  assert.ok(!stdout.includes("cd "), "no cd step when the project is the current folder");
  const example = await Deno.readTextFile(tree.path("evals/example.yaml"));
  assert.ok(
    example.startsWith(`# yaml-language-server: $schema=${EVAL_SCHEMA_ID}\n`),
    "the eval file starts with the schema comment",
  );
  const targets = await Deno.readTextFile(tree.path(".agentv/targets.yaml"));
  for (const provider of ["openai", "azure", "anthropic", "gemini", "cli"]) {
    assert.match(targets, new RegExp(`^  #   provider: ${provider}$`, "m"), provider);
  }
  assert.match(targets, /\$\{\{ OPENAI_API_KEY \}\}/);
  const workflow = await Deno.readTextFile(tree.path(".github/workflows/agentv.yml"));
  assert.match(workflow, new RegExp(`jsr:@agentv/agentv@${denoJson.version}/cli`));
  assert.match(workflow, /--report junit:/);
  assert.match(workflow, /actions\/upload-artifact@v4/);
});

Deno.test("agentv init DIR creates the folder, nested, and says to cd into it", async () => {
  await using tree = await tempTree({});
  const { code, stdout, stderr } = await agentv(["init", "new/project"], tree.root);
  assert.equal(code, 0, stderr);
  assert.deepEqual(await listFiles(tree.path("new/project")), [...FILES].sort());
  assert.match(stdout, /created new\/project\/evals\/example\.yaml/);
  assert.match(stdout, /^ {2}cd new\/project$/m);
});

Deno.test("every YAML file agentv init writes passes agentv validate without a warning", async () => {
  await using tree = await tempTree({});
  assert.equal((await agentv(["init"], tree.root)).code, 0);
  const { code, stdout, stderr } = await agentv(["validate", "--json", "."], tree.root);
  assert.equal(code, 0, stdout + stderr);
  const result = JSON.parse(stdout) as {
    files: { file: string; valid: boolean; diagnostics: unknown[] }[];
    summary: { errors: number; warnings: number };
  };
  assert.deepEqual(
    result.files.map((f) => f.file).sort(),
    [".agentv/config.yaml", ".agentv/targets.yaml", "evals/example.yaml"],
  );
  for (const file of result.files) assert.deepEqual(file.diagnostics, [], file.file);
  assert.deepEqual([result.summary.errors, result.summary.warnings], [0, 0]);
});

Deno.test("agentv init then agentv run evals/ passes every example case against the mock", async () => {
  await using tree = await tempTree({});
  assert.equal((await agentv(["init"], tree.root)).code, 0);
  const { code, stdout, stderr } = await agentv(
    ["run", "evals/", "--out", "results.jsonl", "--quiet"],
    tree.root,
  );
  assert.equal(code, 0, stdout + stderr);
  const example = await Deno.readTextFile(tree.path("evals/example.yaml"));
  const ids = [...example.matchAll(/^ {2}- id: (\S+)$/gm)].map((m) => m[1]);
  assert.ok(ids.length >= 3, "the example has a few cases");
  const rows = jsonlRows(await Deno.readTextFile(tree.path("results.jsonl")));
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), [...ids].sort());
  for (const row of rows) {
    assert.equal(row.status, "ok", JSON.stringify(row.error));
    assert.equal(row.verdict, "pass", `${row.eval_id}: ${JSON.stringify(row.misses)}`);
    assert.equal(row.score, 1, String(row.eval_id));
  }
  const judged = rows.find((r) => r.eval_id === "judged-answer");
  const evaluators = (judged?.evaluator_results ?? []) as { type?: string; score: number }[];
  assert.ok(
    evaluators.some((e) => e.type === "llm_judge" && e.score === 1),
    "the mock judge graded it",
  );
});

Deno.test("agentv init refuses to overwrite: exit 2, lists every existing file, writes nothing", async () => {
  await using tree = await tempTree({
    ".env.example": "MINE=1\n",
    "evals/example.yaml": "evalcases: []\n",
  });
  const before = await listFiles(tree.root);
  const { code, stdout, stderr } = await agentv(["init"], tree.root);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.match(stderr, /Refusing to overwrite 2 existing files/);
  assert.match(stderr, /\.env\.example, evals\/example\.yaml; nothing was written/);
  assert.deepEqual(await listFiles(tree.root), before);
  assert.equal(await Deno.readTextFile(tree.path(".env.example")), "MINE=1\n");
  assert.equal(await Deno.readTextFile(tree.path("evals/example.yaml")), "evalcases: []\n");
  assert.equal(await exists(tree.path(".agentv")), false);
});

Deno.test("agentv init refuses a file where it needs a folder, and writes nothing", async () => {
  await using tree = await tempTree({ "evals": "not a folder\n" });
  const { code, stderr } = await agentv(["init"], tree.root);
  assert.equal(code, 2);
  assert.match(stderr, /Refusing to overwrite 1 existing file in '\.': evals; nothing was written/);
  assert.deepEqual(await listFiles(tree.root), ["evals"]);
});

Deno.test("agentv init refuses a path that is a file, and more than one folder", async () => {
  await using tree = await tempTree({ "notes.txt": "x\n" });
  const file = await agentv(["init", "notes.txt"], tree.root);
  assert.equal(file.code, 2);
  assert.match(file.stderr, /'notes\.txt' is not a folder/);
  const inside = await agentv(["init", "notes.txt/sub"], tree.root);
  assert.equal(inside.code, 2);
  assert.match(inside.stderr, /'notes\.txt\/sub' is inside a file/);
  const two = await agentv(["init", "a", "b"], tree.root);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /at most one folder/);
  assert.deepEqual(await listFiles(tree.root), ["notes.txt"]);
});
