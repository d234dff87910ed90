/**
 * The docs are tested like code: in `README.md` and `docs/**\/*.md`, every YAML or JSONL example
 * that is an eval file passes agentv's validator, every targets file example loads, every other
 * YAML or JSONL block is marked as a fragment (`<!-- fragment -->` on the line before its fence),
 * every `agentv …` line of a shell block parses with the CLI's own argument parser, every relative
 * link and `#anchor` resolves, and the README's install commands grant exactly the permissions
 * of the compiled binaries. The small cases at the end show each check failing on a broken
 * example, a bad flag and a dead link.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import denoJson from "../../deno.json" with { type: "json" };
import { parseCommandLine } from "../../lib/cli/app.ts";
import { INIT_SCHEMA_PATH } from "../../lib/cli/init_templates.ts";
import { loadTargetsFile } from "../../lib/dataset/targets_file.ts";
import { AgentvError } from "../../lib/errors/agentv_error.ts";
import { validateEvalFile } from "../../mod.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { agentvCommands, anchors, type CodeBlock, codeBlocks, docFiles, links } from "./_docs.ts";

const DOCS = docFiles().map((file) => ({
  file,
  text: Deno.readTextFileSync(join(REPO_ROOT, file)),
}));
const BLOCKS = DOCS.flatMap((doc) => codeBlocks(doc.text, doc.file));
const SHELL = new Set(["sh", "bash", "shell", "console"]);

/** What a YAML or JSONL block holds. */
function kindOf(block: CodeBlock): "eval" | "targets" | "targets-list" | "other" {
  if (block.lang === "jsonl") return "eval";
  let value: unknown;
  try {
    value = parse(block.text);
  } catch {
    return "eval"; // not even YAML: the validator says what is wrong
  }
  if (Array.isArray(value)) {
    const targets = value.length > 0 &&
      value.every((t) => typeof t === "object" && t !== null && "provider" in t);
    return targets ? "targets-list" : "other";
  }
  if (typeof value !== "object" || value === null) return "other";
  if ("evalcases" in value) return "eval";
  if ("targets" in value) return "targets";
  return "other";
}

/** The YAML and JSONL blocks that are not fragments. */
function examples(blocks: CodeBlock[]): CodeBlock[] {
  return blocks.filter((b) => ["yaml", "yml", "jsonl"].includes(b.lang) && !b.fragment);
}

/** The problems `agentv validate`'s loader finds in an eval file example (none: valid). */
async function evalProblems(block: CodeBlock): Promise<string[]> {
  const ext = block.lang === "jsonl" ? "jsonl" : "yaml";
  // A first line `# evals/name.yaml` names the file; its folders are created.
  const named = /^# ([\w./-]+\.(?:yaml|yml|jsonl))\s*$/m.exec(block.text.split("\n")[0]!)?.[1];
  const path = named ?? `evals/example.${ext}`;
  await using tree = await tempTree({ [path]: block.text }, { git: true });
  const report = await validateEvalFile(tree.path(path));
  return report.diagnostics.map((d) => `${d.line}:${d.column}: ${d.severity}: ${d.message}`);
}

/** The problems the targets loader finds in a targets file example (none: it loads). */
async function targetsProblems(block: CodeBlock): Promise<string[]> {
  const text = kindOf(block) === "targets-list"
    ? `targets:\n${block.text.replace(/^/gm, "  ")}`
    : block.text;
  await using tree = await tempTree({ ".agentv/targets.yaml": text }, { git: true });
  try {
    const file = await loadTargetsFile(tree.path(".agentv/targets.yaml"));
    return file.diagnostics.map((d) => `${d.line}:${d.column}: ${d.severity}: ${d.message}`);
  } catch (error) {
    if (!(error instanceof AgentvError)) throw error;
    return [error.message, ...error.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)];
  }
}

/** Why an `agentv …` command line does not parse (undefined: it parses). */
async function commandProblem(words: string[]): Promise<string | undefined> {
  try {
    await parseCommandLine(words);
    return undefined;
  } catch (error) {
    if (!(error instanceof AgentvError)) throw error;
    return error.message;
  }
}

/** Why a link of `file` does not resolve (undefined: it does, or it leaves the repository). */
function linkProblem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined; // https:, mailto:
  const [path = "", anchor] = target.split("#", 2);
  const resolved = path === "" ? join(REPO_ROOT, file) : join(REPO_ROOT, dirname(file), path);
  let text: string | undefined;
  try {
    const stat = Deno.statSync(resolved);
    if (stat.isFile && resolved.endsWith(".md")) text = Deno.readTextFileSync(resolved);
  } catch {
    return `${target}: no such file`;
  }
  if (anchor && text !== undefined && !anchors(text).has(anchor)) {
    return `${target}: no heading has the anchor #${anchor}`;
  }
  return undefined;
}

Deno.test("every eval file example of the docs passes the validator", async () => {
  const failures: string[] = [];
  const checked = examples(BLOCKS).filter((b) => kindOf(b) === "eval");
  for (const block of checked) {
    for (const problem of await evalProblems(block)) {
      failures.push(`${block.file}:${block.line}: ${problem}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(checked.length >= 8, `${checked.length} eval file examples`);
});

Deno.test("every targets file example of the docs loads", async () => {
  const failures: string[] = [];
  const checked = examples(BLOCKS).filter((b) => kindOf(b).startsWith("targets"));
  for (const block of checked) {
    for (const problem of await targetsProblems(block)) {
      failures.push(`${block.file}:${block.line}: ${problem}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(checked.length >= 10, `${checked.length} targets examples`);
});

Deno.test("every other YAML or JSONL block of the docs is marked as a fragment", () => {
  const unmarked = examples(BLOCKS).filter((b) => kindOf(b) === "other")
    .map((b) => `${b.file}:${b.line}`);
  assert.deepEqual(unmarked, [], "validate them whole, or mark them with <!-- fragment -->");
});

Deno.test("every agentv command line of the docs parses with the CLI's argument parser", async () => {
  const failures: string[] = [];
  let count = 0;
  for (const block of BLOCKS.filter((b) => SHELL.has(b.lang))) {
    for (const words of agentvCommands(block.text)) {
      count++;
      const problem = await commandProblem(words);
      if (problem) {
        failures.push(`${block.file}:${block.line}: agentv ${words.join(" ")}: ${problem}`);
      }
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(count >= 40, `${count} command lines`);
});

Deno.test("every relative link and anchor of the docs resolves", () => {
  const failures = DOCS.flatMap(({ file, text }) =>
    links(text).flatMap(({ line, target }) => {
      const problem = linkProblem(file, target);
      return problem ? [`${file}:${line}: ${problem}`] : [];
    })
  );
  assert.deepEqual(failures, []);
});

Deno.test("every docs page is linked from the docs index", () => {
  const index = DOCS.find((d) => d.file === "docs/README.md");
  assert.ok(index, "docs/README.md is the index");
  const linked = new Set(
    links(index.text).map((l) => join("docs", l.target.split("#")[0]!).replaceAll("\\", "/")),
  );
  const pages = DOCS.map((d) => d.file).filter((f) => f.startsWith("docs/") && f !== index.file);
  assert.deepEqual(pages.filter((p) => !linked.has(p)), []);
});

Deno.test("the README's install commands grant exactly the compile task's permission flags", () => {
  const flags = (line: string) =>
    line.split(/\s+/).filter((w) => /^--(allow|deny|unstable)-/.test(w)).sort();
  const compile = flags((denoJson.tasks as Record<string, string>)["compile:linux-x64"]);
  const readme = DOCS.find((d) => d.file === "README.md")!;
  const installs = codeBlocks(readme.text).filter((b) => SHELL.has(b.lang))
    .flatMap((b) => b.text.split("\n")).filter((l) => l.startsWith("deno install"));
  assert.ok(installs.length >= 2, "the README installs from JSR and from a URL");
  for (const line of installs) assert.deepEqual(flags(line), compile, line);
  assert.ok(readme.text.includes("deno task install"), "and from a clone");
});

// The checks themselves catch what they are for.

Deno.test("the README's $schema line is the one agentv init writes", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  const lines = readme.split("\n").filter((l) => l.includes("yaml-language-server: $schema="));
  assert.deepEqual(lines, [`# yaml-language-server: $schema=../${INIT_SCHEMA_PATH}`]);
});

Deno.test("docs check: an eval example with a mistake is reported, a fragment is not checked", async () => {
  const md = "```yaml\nevalcases:\n  - id: a\n    input: hi\n    evaluators:\n" +
    "      - type: contains\n        weight: -1\n        value: x\n```\n\n" +
    "<!-- fragment -->\n```yaml\nrubrics: [x]\n```\n";
  const [broken, fragment] = codeBlocks(md);
  assert.equal(kindOf(broken!), "eval");
  const problems = await evalProblems(broken!);
  assert.ok(problems.some((p) => /weight must be >= 0/.test(p)), problems.join("\n"));
  assert.ok(problems.some((p) => /expected_outcome/.test(p)), problems.join("\n"));
  assert.equal(fragment!.fragment, true);
  assert.deepEqual(examples([fragment!]), []);
  assert.equal(kindOf({ ...fragment!, fragment: false }), "other");
});

Deno.test("docs check: a targets example with an unknown provider is reported", async () => {
  const [block] = codeBlocks("```yaml\n- name: a\n  provider: opnai\n```\n");
  assert.equal(kindOf(block!), "targets-list");
  const problems = await targetsProblems(block!);
  assert.ok(problems.some((p) => /openai/.test(p)), problems.join("\n"));
});

Deno.test("docs check: a bad flag or command is reported, a synopsis's options are parsed", async () => {
  const [block] = codeBlocks(
    "```console\n$ agentv run evals/ --wokers 4   # typo\nagentv valdate x && agentv compare a b \\\n" +
      "  --fail-on flips > out.txt\nagentv merge <results>... [-o FILE] [--bogus]\n```\n",
  );
  const commands = agentvCommands(block!.text);
  assert.deepEqual(commands, [
    ["run", "evals/", "--wokers", "4"],
    ["valdate", "x"],
    ["compare", "a", "b", "--fail-on", "flips"],
    ["merge", "<results>...", "-o", "FILE", "--bogus"],
  ]);
  assert.match((await commandProblem(commands[0]!))!, /Unknown option '--wokers'.*--workers/);
  assert.match((await commandProblem(commands[1]!))!, /Unknown command 'valdate'.*validate/);
  assert.equal(await commandProblem(commands[2]!), undefined);
  assert.match((await commandProblem(commands[3]!))!, /Unknown option '--bogus'/);
});

Deno.test("docs check: a dead link or anchor is reported", () => {
  const md = "# Top\n\n## The `eval` format\n\n[a](docs/README.md) [b](#the-eval-format) " +
    "[c](docs/nope.md) [d](README.md#no-such-heading) [e](https://example.com/x) `[f](x.md)`\n";
  assert.deepEqual(links(md).map((l) => l.target), [
    "docs/README.md",
    "#the-eval-format",
    "docs/nope.md",
    "README.md#no-such-heading",
    "https://example.com/x",
  ]);
  assert.ok(anchors(md).has("the-eval-format"));
  assert.equal(linkProblem("README.md", "docs/README.md"), undefined);
  assert.match(linkProblem("README.md", "docs/nope.md")!, /no such file/);
  assert.match(linkProblem("README.md", "README.md#no-such-heading")!, /no heading/);
  assert.equal(linkProblem("README.md", "https://example.com/x"), undefined);
});
