/**
 * No module the `agentv run` command is made of declares a flag of its own: over the command's
 * module graph (`deno info --json`, dynamic imports included), the run options of
 * `lib/schema/run_spec.ts` are the only declaration (run_flags_declared_once_test.ts checks that
 * every flag is an entry of it).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../../lib/cli/commands.ts";
import { runCommand } from "../../lib/cli/run.ts";

Deno.test("no module but lib/schema/run_spec.ts declares a flag that agentv run takes", async () => {
  // The run command's options are exactly those derived from the spec: nothing is spread in.
  const { runCommandOptions } = await import("../../lib/cli/run_args.ts");
  assert.deepEqual(runCommand.options, runCommandOptions());
  // And no module the run command is made of holds an option declaration in the form commands
  // use (a `type` of "string" or "boolean" and a `description` in one object literal), code only:
  // doc comments show such literals as examples.
  const optionLiteral = /\btype: "(?:string|boolean)",[^{}]{0,300}?\bdescription:/;
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "lib/cli/run.ts"],
    cwd: fileURLToPath(new URL("../../", import.meta.url)),
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(code, 0);
  const lib = new URL("../../lib/", import.meta.url).href;
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier?: string } }[] }[];
  };
  // The modules its code imports (not the types it names), dynamic imports included.
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code?.specifier) visit(dep.code.specifier);
    }
  };
  visit(info.roots[0]);
  const modules = [...seen].filter((m) => m.startsWith(lib) && m.endsWith(".ts"));
  assert.ok(modules.some((m) => m.endsWith("/schema/run_spec.ts")), "the graph holds the spec");
  const declaring: string[] = [];
  for (const module of modules) {
    const text = (await Deno.readTextFile(new URL(module))).replace(/\/\*[\s\S]*?\*\//g, "");
    if (optionLiteral.test(text)) declaring.push(module.slice(lib.length));
  }
  // Another command's module (the run imports a few functions of `trust` and `report`) declares
  // that command's options, which the check above keeps out of run's; `--help` is every
  // command's, added by the dispatcher.
  const others = new Set([
    "cli/help.ts",
    ...COMMANDS.filter((c) => c.name !== "run").map((c) => `cli/${c.module.replace(/^\.\//, "")}`),
  ]);
  assert.deepEqual(declaring.filter((m) => !others.has(m)), []);
});
