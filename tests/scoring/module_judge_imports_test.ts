/**
 * Module judges import only files inside the dataset root: `npm:` (static, computed, or hidden
 * in an eval'd string), `jsr:`, `http(s):`, `data:`, `node:` and files outside the root are
 * refused before anything is fetched. The registry (a loopback server) sees no request and the
 * Deno cache gets no package.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { scanImports } from "../../lib/scoring/module_judge_imports.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { moduleJudge, runJudgedCases } from "./_judge_run.ts";

/** A loopback server standing for the npm registry and a module host; counts its requests. */
function countingServer() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return new Response("not here", { status: 404 });
  });
  return { seen, server, url: `http://127.0.0.1:${server.addr.port}/` };
}

async function entries(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir(dir)) found.push(e.name);
  return found;
}

Deno.test("a module judge importing npm:, jsr:, http:, data:, node: or a file outside the root is refused and nothing is fetched", async () => {
  const registry = countingServer();
  await using outside = await tempTree({ "stolen.ts": "export const x = 1;\n" });
  await using denoDir = await tempTree({});
  const judge = (body: string) => `${body}\nexport default () => ({ score: 1 });\n`;
  const cases: Record<string, string> = {
    npm_static: judge('import pad from "npm:left-pad@1.3.0";\nvoid pad;'),
    npm_computed: `export default async () => {
  const name = "left-pad";
  await import("npm:" + name);
  return { score: 1 };
};
`,
    npm_in_eval: `export default async () => {
  await (0, eval)('import("npm:left-pad@1.3.0")');
  return { score: 1 };
};
`,
    jsr: judge('import "jsr:@std/path@1";'),
    http: judge(`await import("${registry.url}mod.ts");`),
    data: judge('await import("data:text/javascript,export default 1");'),
    node: judge('import fs from "node:fs";\nvoid fs;'),
    outside: judge(`import { x } from ${JSON.stringify(join(outside.dir, "stolen.ts"))};\nvoid x;`),
    bare: judge('import pad from "left-pad";\nvoid pad;'),
  };
  const files: Record<string, string> = {
    "judges/fine.ts": "export default () => ({ score: 1 });\n",
    "judges/helper.ts": 'import { n } from "./lib.ts";\nexport default () => ({ score: n });\n',
    "judges/lib.ts": "export const n = 1;\n",
  };
  for (const [id, source] of Object.entries(cases)) files[`judges/${id}.ts`] = source;
  const run = await runJudgedCases(
    [
      ...Object.keys(cases).map((id) => ({ id, evaluators: moduleJudge(`../judges/${id}.ts`) })),
      { id: "fine", evaluators: moduleJudge("../judges/helper.ts") },
    ],
    files,
    { env: { NPM_CONFIG_REGISTRY: registry.url, DENO_DIR: denoDir.dir } },
  );
  await registry.server.shutdown();
  assert.equal(run.status, "finished");
  for (const id of Object.keys(cases)) {
    const result = run.rows[id].evaluator_results[0];
    assert.equal(result.status, "error", `${id}: ${JSON.stringify(result)}`);
  }
  const error = (id: string) => run.rows[id].evaluator_results[0].error ?? "";
  assert.match(
    error("npm_static"),
    /npm_static\.ts:1:\d+: import of 'npm:left-pad@1\.3\.0' is not a file/,
  );
  assert.match(error("npm_computed"), /computed specifier is refused/);
  // Hidden from the source check in a string: the host's --no-npm refuses it.
  assert.match(error("npm_in_eval"), /npm specifiers were requested; but --no-npm is specified/);
  assert.match(error("jsr"), /'jsr:@std\/path@1' is not a file/);
  assert.match(error("http"), /is not a file/);
  assert.match(error("data"), /'data:text\/javascript,export default 1' is not a file/);
  assert.match(error("node"), /'node:fs' is not a file/);
  assert.match(error("outside"), /outside the dataset root/);
  assert.match(error("bare"), /'left-pad' is a package name/);
  assert.equal(run.rows.fine.status, "ok", run.rows.fine.error ?? "");
  assert.deepEqual(registry.seen, [], "nothing was requested");
  const cached = await entries(join(denoDir.dir, "npm")).catch(() => []);
  assert.deepEqual(cached, [], "no npm package reached the Deno cache");
});

Deno.test("scanImports finds static, side-effect, re-export and dynamic imports, skipping strings, comments and regexes", () => {
  const found = scanImports(`import a from "./a.ts";
import type { T } from "npm:types";
export * from "./b.js";
import "./c.ts";
const re = /import("npm:z")/g; // import("npm:c")
/* import("npm:d") */
const s = "import(\\"npm:e\\")";
const t = \`a \${import("jsr:f")} b \${ {a: 1}.a } import("npm:g")\`;
const m = await import("npm:" + name);
const q = import.meta.url; obj.import("x"); if (y) /"/.test(z); import("./after.ts");
`);
  assert.deepEqual(found.map((f) => f.specifier ?? "<computed>"), [
    "./a.ts",
    "npm:types",
    "./b.js",
    "./c.ts",
    "jsr:f",
    "<computed>",
    "./after.ts",
  ]);
  assert.deepEqual(found[5], { line: 9, column: 17 });
});
