/**
 * Start-up cost is import cost: what `main.ts` imports statically is what `agentv --version` and
 * `agentv --help` pay for. Importing any `node:` module starts Deno's Node compatibility layer
 * (tens of ms) and npm packages cost more, so the static graph of `main.ts` must hold neither;
 * commands (and everything they need) are imported when they run.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../../lib/cli/commands.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const commandsUrl = new URL("../../lib/cli/commands.ts", import.meta.url);

interface InfoDependency {
  specifier: string;
  code?: { specifier?: string };
  isDynamic?: boolean;
}

interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
}

/**
 * Every module `entry` loads before it runs: static code imports only (no types, no dynamic);
 * with `dynamic`, also the modules its literal dynamic imports name (Deno analyses those at
 * start-up too).
 */
async function staticGraph(
  entry: string,
  options: { dynamic?: boolean } = {},
): Promise<{ modules: string[]; edges: string[] }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const edges: string[] = [];
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      const target = dep.code?.specifier;
      if (target === undefined || (dep.isDynamic && !options.dynamic)) continue;
      edges.push(`${short(specifier)} -> ${short(target)}`);
      visit(target);
    }
  };
  visit(info.roots[0]);
  return { modules: [...seen], edges };
}

function short(specifier: string): string {
  return specifier.replace(new URL("../../", import.meta.url).href, "");
}

Deno.test("main.ts statically imports no node: module and no npm package", async () => {
  const { edges } = await staticGraph("main.ts");
  const heavy = edges.filter((e) => /-> (node:|npm:)/.test(e));
  assert.deepEqual(heavy, [], `import these lazily (await import) instead:\n${heavy.join("\n")}`);
});

Deno.test("main.ts statically imports no command module", async () => {
  const { modules } = await staticGraph("main.ts");
  const commandModules = [
    "run.ts",
    "validate.ts",
    "trust.ts",
    "generate.ts",
    "compare.ts",
    "report.ts",
    "init.ts",
    "args.ts",
  ]
    .map((f) => new URL(`../../lib/cli/${f}`, import.meta.url).href);
  assert.deepEqual(modules.filter((m) => commandModules.includes(m)).map(short), []);
});

Deno.test("the graph Deno builds before main.ts runs holds no command module, dynamic imports included", async () => {
  // Deno analyses every statically named import, dynamic ones too, before the first line runs:
  // a literal `import("./run.ts")` anywhere reachable would cost every start-up ~20 ms.
  const { modules } = await staticGraph("main.ts", { dynamic: true });
  const all = modules.map(short);
  const commandModules = COMMANDS.map((c) => short(new URL(c.module, commandsUrl).href));
  assert.equal(commandModules.length, COMMANDS.length);
  assert.deepEqual(all.filter((m) => commandModules.includes(m)), []);
  assert.deepEqual(all.filter((m) => m.startsWith("npm:")), []);
});

Deno.test("every registry entry loads the command it lists, with the same name and summary", async () => {
  for (const entry of COMMANDS) {
    const command = await entry.load();
    assert.equal(command.name, entry.name);
    assert.equal(command.summary, entry.summary);
    assert.deepEqual(command.aliases, entry.aliases);
    assert.equal(typeof command.run, "function");
  }
});

Deno.test("the sandbox worker imports yaml and jsonc-parser only when a file needs them", async () => {
  // Both are CommonJS packages: the first one imported starts Deno's Node layer and CommonJS
  // loader (~50 ms in a fresh worker), which a JSONL dataset without a YAML sidecar never needs.
  const { edges } = await staticGraph("lib/dataset/load_worker.ts");
  const commonJs = edges.filter((e) => /-> npm:\/?(yaml|jsonc-parser)@/.test(e));
  assert.deepEqual(commonJs, [], `import them on first use instead:\n${commonJs.join("\n")}`);
});

Deno.test("the sandbox worker's static graph holds neither zod nor yaml: plain JSONL cases need neither", async () => {
  const { modules } = await staticGraph("lib/dataset/load_worker.ts");
  assert.deepEqual(modules.filter((s) => /npm:\/?(zod|yaml)@/.test(s)), []);
  assert.ok(modules.some((s) => s.endsWith("lib/dataset/plain_case.ts")));
});

Deno.test("the check of a JSONL file's case targets imports neither zod nor yaml", async () => {
  // validate's first worker applies the targets verdict (read by its second worker) to every
  // case after the last line: ~15 ms when the reply schemas came with it.
  const { modules } = await staticGraph("lib/dataset/check_case_targets.ts");
  assert.deepEqual(modules.filter((s) => /npm:\/?(zod|yaml)@/.test(s)), []);
});

Deno.test("the targets check imports jsonc-parser only for a JSON or JSONC targets file", async () => {
  // The sandbox checks each case's target against the targets file (run does too, on its main
  // thread). Most targets files are YAML; jsonc-parser is CommonJS, ~30 ms to import when it is
  // the first CommonJS package (a JSONL dataset with a JSON targets file).
  for (const entry of ["lib/dataset/check_case_targets.ts", "lib/dataset/targets_file.ts"]) {
    const { edges } = await staticGraph(entry);
    const jsonc = edges.filter((e) => /-> npm:\/?jsonc-parser@/.test(e));
    assert.deepEqual(jsonc, [], `${entry}: import it on first use instead:\n${jsonc.join("\n")}`);
  }
});

Deno.test("the sandbox worker loads the regex engine only for files that hold patterns", async () => {
  // The engine (re2js) is a large module: a file without `regex`/`pattern` never needs it.
  const { edges } = await staticGraph("lib/dataset/load_worker.ts");
  const engine = edges.filter((e) => /-> npm:.*re2js/.test(e));
  assert.deepEqual(engine, [], `load it with loadLinearRegex() instead:\n${engine.join("\n")}`);
  const probe = `
    import { loadEvalFile } from "./lib/dataset/load_eval_file.ts";
    import { linearRegexLoaded } from "./lib/text/linear_regex.ts";
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(dir + "/.agentv");
    const suite = (extra) => "evalcases:\\n  - id: a\\n    expected_outcome: hi\\n    input: Hi\\n" + extra;
    await Deno.writeTextFile(dir + "/plain.yaml", suite(""));
    await Deno.writeTextFile(dir + "/regex.yaml",
      suite("    evaluators:\\n      - { name: r, type: regex, pattern: '\\\\\\\\p{Greek}+' }\\n"));
    const plain = await loadEvalFile(dir + "/plain.yaml", { root: dir });
    const before = linearRegexLoaded();
    const loaded = await loadEvalFile(dir + "/regex.yaml", { root: dir });
    console.log(JSON.stringify([plain.cases.length, before, linearRegexLoaded(), loaded.cases.length]));
    await Deno.remove(dir, { recursive: true });
  `;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", probe],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), [1, false, true, 1]);
});
