import { validateEvalFile } from "../lib/loader/validate_eval_file.ts";
const base = new URL("../fixtures/corpus/agentv-examples/", import.meta.url).pathname;
const readme = Deno.readTextFileSync(new URL("../fixtures/corpus/README.md", import.meta.url));
for (const m of readme.matchAll(/^\| ([^|]+?\.(?:yaml|jsonl))[^|]*\| \w+ \| (\d+) \|$/gm)) {
  const r = await validateEvalFile(base + m[1]);
  console.log(r.valid ? "OK " : "BAD", r.cases, "/", m[2], m[1]);
  for (const d of r.diagnostics) console.log("   ", d.severity, d.line, d.column, d.path, d.message);
}
