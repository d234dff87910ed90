/**
 * The import direction of `lib/`, checked over the real module graph (`deno info --json`), as
 * std's `_tools/check_circular_package_dependencies.ts` does: imports flow one way, down the
 * pipeline the folder names tell (cli → view → store → render → run → calibration → compare →
 * results, scoring → targets → dataset → fs → errors → schema → text), and the npm parsers and
 * the PostgreSQL client stay behind their folder.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LIB = new URL("../../lib/", import.meta.url).href;

/**
 * The graph's entry points: the CLI, the library, and the modules started as workers (they are
 * not reached by static imports).
 */
const ENTRIES = [
  "main.ts",
  "mod.ts",
  "lib/dataset/load_worker.ts",
  "lib/scoring/module_judge_worker.ts",
];

/**
 * Which other `lib/` folders each folder may import. A folder always may import itself. The
 * layers, bottom to top: text, schema, errors, fs (shared by all); dataset (sources, loader, targets
 * files, the sandbox); targets (providers); scoring (evaluators, judges); results (the run's
 * data); compare (pairing, statistics, drift); calibration (judges against human labels,
 * corrected pass rates); run (spec, plan, pool, cache, budget, trust, resume, re-judging stored
 * answers); render (the views); store (the history store over SQLite and PostgreSQL); view (the
 * `agentv view` web app); cli (one file per command).
 */
const ALLOWED: Record<string, readonly string[]> = {
  text: [],
  schema: ["text"],
  errors: ["schema", "text"],
  fs: ["errors", "schema", "text"],
  dataset: ["fs", "errors", "schema", "text"],
  targets: ["dataset", "fs", "errors", "schema", "text"],
  scoring: ["targets", "dataset", "fs", "errors", "schema", "text"],
  results: ["fs", "errors", "schema", "text"],
  run: [
    "calibration",
    "results",
    "scoring",
    "targets",
    "dataset",
    "fs",
    "errors",
    "schema",
    "text",
  ],
  compare: ["results", "fs", "errors", "schema", "text"],
  calibration: ["compare", "results", "fs", "errors", "schema", "text"],
  render: ["calibration", "compare", "results", "dataset", "fs", "errors", "schema", "text"],
  store: ["compare", "results", "fs", "errors", "schema", "text"],
  view: ["store", "render", "calibration", "compare", "results", "fs", "errors", "schema", "text"],
  cli: [
    "view",
    "store",
    "render",
    "calibration",
    "compare",
    "run",
    "results",
    "scoring",
    "targets",
    "dataset",
    "fs",
    "errors",
    "schema",
    "text",
  ],
};

/**
 * Known violations, allowed here so the guard can land before they are fixed. Remove an entry
 * when its import goes away; never add one without a reason.
 */
const KNOWN: Record<string, string> = {};

/** npm packages and the only folders that may import them. */
const NPM_OWNERS: Record<string, readonly string[]> = {
  zod: ["schema"],
  yaml: ["dataset"],
  "jsonc-parser": ["dataset"],
  re2js: ["text"],
  postgres: ["store"],
};

/** Known npm imports outside their owner (`folder/file -> package`), with the reason. */
const KNOWN_NPM: Record<string, string> = {};

interface InfoModule {
  specifier: string;
  dependencies?: {
    specifier: string;
    code?: { specifier?: string };
    type?: { specifier?: string };
  }[];
}

let graph: Promise<Map<string, InfoModule>> | undefined;

/** Every module reachable from the entry points, by specifier (computed once per file). */
function moduleGraph(): Promise<Map<string, InfoModule>> {
  return graph ??= readModuleGraph();
}

async function readModuleGraph(): Promise<Map<string, InfoModule>> {
  const modules = new Map<string, InfoModule>();
  for (const entry of ENTRIES) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const info = JSON.parse(new TextDecoder().decode(stdout)) as { modules: InfoModule[] };
    for (const module of info.modules) modules.set(module.specifier, module);
  }
  return modules;
}

/** `folder/file.ts` of a lib module, or undefined outside lib/. */
function libPath(specifier: string | undefined): string | undefined {
  return specifier?.startsWith(LIB) ? specifier.slice(LIB.length) : undefined;
}

/** The package name of an npm specifier or bare import (`npm:zod@4/x` → `zod`). */
function packageName(specifier: string): string | undefined {
  const bare = specifier.replace(/^npm:/, "");
  if (/^(\.|\/|node:|file:|https?:|jsr:)/.test(bare)) return undefined;
  const parts = bare.split("/");
  const name = bare.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return name.replace(/(?<=.)@.*$/, "");
}

Deno.test("lib/ folders import only the folders below them", async () => {
  const modules = await moduleGraph();
  const violations: string[] = [];
  for (const module of modules.values()) {
    const from = libPath(module.specifier);
    if (from === undefined) continue;
    const fromFolder = from.split("/")[0];
    assert.ok(fromFolder in ALLOWED, `lib/${fromFolder}/ is a new folder: add it to ALLOWED`);
    for (const dep of module.dependencies ?? []) {
      const to = libPath(dep.code?.specifier ?? dep.type?.specifier);
      if (to === undefined) continue;
      const toFolder = to.split("/")[0];
      if (toFolder === fromFolder || ALLOWED[fromFolder].includes(toFolder)) continue;
      const edge = `${fromFolder} -> ${toFolder}`;
      if (edge in KNOWN) continue;
      violations.push(`lib/${from} imports lib/${to} (${edge} is not allowed)`);
    }
  }
  assert.deepEqual(violations, [], violations.join("\n"));
});

Deno.test("only main.ts and lib/cli import lib/cli", async () => {
  const modules = await moduleGraph();
  const violations: string[] = [];
  for (const module of modules.values()) {
    const from = libPath(module.specifier);
    if (from === undefined || from.startsWith("cli/")) continue;
    for (const dep of module.dependencies ?? []) {
      const to = libPath(dep.code?.specifier ?? dep.type?.specifier);
      if (to?.startsWith("cli/")) violations.push(`${module.specifier} imports lib/${to}`);
    }
  }
  assert.deepEqual(violations, []);
});

Deno.test("zod, yaml, jsonc-parser, re2js and postgres are imported only by their own folder", async () => {
  const modules = await moduleGraph();
  const violations: string[] = [];
  for (const module of modules.values()) {
    const from = libPath(module.specifier) ??
      (module.specifier.startsWith("file:") ? module.specifier : undefined);
    if (from === undefined) continue;
    for (const dep of module.dependencies ?? []) {
      const name = packageName(dep.specifier);
      if (name === undefined || !(name in NPM_OWNERS)) continue;
      if (NPM_OWNERS[name].includes(from.split("/")[0])) continue;
      if (`${from} -> ${name}` in KNOWN_NPM) continue;
      violations.push(`${from} imports ${name} (only lib/${NPM_OWNERS[name].join(", lib/")})`);
    }
  }
  assert.deepEqual(violations, [], violations.join("\n"));
});

Deno.test("every lib/ folder names its public surface in a mod.ts, and the root mod.ts re-exports only those", async () => {
  const folders: string[] = [];
  for await (const entry of Deno.readDir(new URL("../../lib/", import.meta.url))) {
    if (entry.isDirectory) folders.push(entry.name);
  }
  assert.deepEqual(folders.sort(), Object.keys(ALLOWED).sort(), "the layers are the folders");
  for (const folder of folders) {
    if (folder === "cli") continue; // the commands: main.ts is its face
    const mod = await Deno.readTextFile(new URL(`../../lib/${folder}/mod.ts`, import.meta.url));
    assert.match(mod, /@module/, `lib/${folder}/mod.ts documents the folder`);
    const code = mod.replace(/\/\*\*[\s\S]*?\*\//g, "").trim();
    assert.match(code, /^(export \{[^}]*\} from "\.\/[a-z_/]+\.ts";\s*)+$/, `lib/${folder}/mod.ts`);
  }
  const root = await Deno.readTextFile(new URL("../../mod.ts", import.meta.url));
  const code = root.replace(/\/\*\*[\s\S]*?\*\//g, "");
  const sources = [...code.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
  assert.ok(sources.length > 0);
  for (const source of sources) assert.match(source, /^\.\/lib\/[a-z]+\/mod\.ts$/, source);
});
