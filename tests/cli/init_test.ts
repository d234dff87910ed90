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
import { generateCommand } from "../../lib/cli/generate.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO, REPO_ROOT } from "./_buffer_io.ts";
import { jsonlRows, listFiles } from "./_files.ts";

const COMMANDS = [initCommand, runCommand, validateCommand, generateCommand];
const FILES = initFiles({ version: denoJson.version }).map((f) => f.path);

async function agentv(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(args, io, { commands: COMMANDS });
  return { code, stdout: io.out(), stderr: io.err() };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("agentv init writes the project files into the current folder and prints next steps", async () => {
  await using tree = await tempTree({});
  const { code, stdout, stderr } = await agentv(["init"], tree.root);
  assert.equal(code, 0, stderr);
  assert.deepEqual(await listFiles(tree.root), [...FILES, ".gitignore"].sort());
  for (const file of FILES) {
    assert.match(stdout, new RegExp(`created ${file.replaceAll(".", "\\.")}\\n`));
  }
  assert.match(stdout, /created \.gitignore \(\.env, \.agentv\/results\/, \.agentv\/cache\/\)\n/);
  assert.match(stdout, /Next steps:/);
  assert.match(stdout, /agentv run /);
  assert.ok(!stdout.includes("cd "), "no cd step when the project is the current folder");
  const example = await Deno.readTextFile(tree.path("evals/example.yaml"));
  assert.ok(
    example.startsWith("# yaml-language-server: $schema=../.agentv/eval.schema.json\n"),
    "the eval file starts with the schema comment, a path that works offline",
  );
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(tree.path(".agentv/eval.schema.json"))),
    JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "schema/eval.schema.json"))),
    "the schema shipped with agentv",
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
  assert.deepEqual(await listFiles(tree.path("new/project")), [...FILES, ".gitignore"].sort());
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

Deno.test("agentv generate rubrics on the init project writes rubrics its mock judge then answers: the project still runs and passes", async () => {
  await using tree = await tempTree({});
  assert.equal((await agentv(["init"], tree.root)).code, 0);
  const generated = await agentv(["generate", "rubrics", "evals/example.yaml"], tree.root);
  assert.equal(generated.code, 0, generated.stdout + generated.stderr);
  assert.doesNotMatch(generated.stderr, /has no judge_target/, "the target has its judge");
  assert.match(generated.stdout, /Updated 3 eval cases with generated rubrics/);
  const example = await Deno.readTextFile(tree.path("evals/example.yaml"));
  assert.equal([...example.matchAll(/^ {4}rubrics:$/gm)].length, 4, example);
  const run = await agentv(["run", "--out", "after.jsonl", "--quiet"], tree.root);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const rows = jsonlRows(await Deno.readTextFile(tree.path("after.jsonl")));
  assert.equal(rows.length, 4);
  for (const row of rows) {
    assert.equal(row.verdict, "pass", `${row.eval_id}: ${JSON.stringify(row.error)}`);
    const types = (row.evaluator_results as { type: string }[]).map((e) => e.type);
    assert.ok(types.includes("rubric"), `${row.eval_id} is graded by its rubrics: ${types}`);
  }
});

Deno.test("agentv init in a subfolder of a git repository puts the workflow at the repository root, running in the subfolder, and says so", async () => {
  await using tree = await tempTree({ "README.md": "repo\n" }, { git: true });
  const { code, stdout, stderr } = await agentv(["init", "tools/evals"], tree.root);
  assert.equal(code, 0, stderr);
  assert.ok(await exists(tree.path(".github/workflows/agentv.yml")));
  assert.equal(await exists(tree.path("tools/evals/.github")), false);
  assert.match(stdout, /created \.github\/workflows\/agentv\.yml\n/);
  assert.match(
    stdout,
    /is at the repository root \(\.\), where GitHub\nruns workflows; it runs the evals in tools\/evals\//,
  );
  const workflow = await Deno.readTextFile(tree.path(".github/workflows/agentv.yml"));
  assert.match(workflow, /^ {4}defaults:\n {6}run:\n {8}working-directory: tools\/evals$/m);
  assert.match(workflow, /path: tools\/evals\/\.agentv\/results\//);
  assert.ok(await exists(tree.path("tools/evals/.gitignore")));
  // Again in another subfolder: the workflow that is there is not overwritten.
  const again = await agentv(["init", "other"], tree.root);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /\.\.\/\.github\/workflows\/agentv\.yml; nothing was written/);
});

Deno.test("agentv init adds the lines a .gitignore lacks and keeps the rest", async () => {
  await using tree = await tempTree({ ".gitignore": "node_modules/\n.env" });
  assert.equal((await agentv(["init"], tree.root)).code, 0);
  const text = await Deno.readTextFile(tree.path(".gitignore"));
  assert.equal(
    text,
    "node_modules/\n.env\n# agentv: keys, results and the response cache stay out of git\n" +
      ".agentv/results/\n.agentv/cache/\n",
  );
  // git ignores them for real.
  const git = new Deno.Command("git", {
    args: [
      "check-ignore",
      ".env",
      ".agentv/results/r.jsonl",
      ".agentv/cache/x",
      "evals/example.yaml",
    ],
    cwd: tree.root,
    stdout: "piped",
    stderr: "null",
  });
  await new Deno.Command("git", { args: ["init", "-q"], cwd: tree.root }).output();
  const ignored = new TextDecoder().decode((await git.output()).stdout).trim().split("\n");
  assert.deepEqual(ignored, [".env", ".agentv/results/r.jsonl", ".agentv/cache/x"]);
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
