/**
 * Every flag of `agentv run` is an entry of the run options (`lib/schema/run_spec.ts`): the
 * command's parser options and `--help` are derived from them, each flag reads into the option of
 * its entry, and no other module declares a flag that the `run` command takes.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseCommandArgs } from "../../lib/cli/args.ts";
import { COMMANDS } from "../../lib/cli/commands.ts";
import { formatCommandHelp } from "../../lib/cli/help.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { parseRunArgs } from "../../lib/cli/run_args.ts";
import { parseFlagText } from "../../lib/schema/run_option.ts";
import { RUN_OPTION_ENTRIES } from "../../lib/schema/run_spec.ts";

Deno.test("every option of the run command is named by the run spec, and every entry is a flag", () => {
  const declared = new Map(RUN_OPTION_ENTRIES.map(([name, d]) => [d.flag, { name, d }]));
  const unnamed = Object.keys(runCommand.options).filter((flag) => !declared.has(flag));
  assert.deepEqual(unnamed, [], "flags of `agentv run` that lib/schema/run_spec.ts does not name");
  assert.deepEqual(Object.keys(runCommand.options), [...declared.keys()], "in the spec's order");
  for (const [flag, option] of Object.entries(runCommand.options)) {
    const { d } = declared.get(flag)!;
    assert.equal(option.type, d.value === undefined ? "boolean" : "string", flag);
    assert.equal(option.description, d.help, flag);
    assert.equal(option.valueName, d.value, flag);
    assert.equal(option.short, d.short, flag);
    assert.equal(option.multiple ?? false, d.multiple ?? false, flag);
  }
  const help = formatCommandHelp(runCommand);
  for (const [, d] of RUN_OPTION_ENTRIES) assert.ok(help.includes(`--${d.flag}`), d.flag);
});

Deno.test("each flag of agentv run reads into the option of its entry", async () => {
  // A value each flag that takes one accepts (the first of these its reader takes).
  const candidates = ["1", "0.5", "1/2", "all", "junit", "read", "a*", "o.jsonl"];
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    let value: string[] = [];
    if (d.value !== undefined) {
      const accepted = [];
      for (const text of candidates) {
        if ((await parseFlagText(d, text)).ok) accepted.push(text);
      }
      assert.ok(accepted.length > 0, `--${d.flag} accepts one of ${candidates.join(" ")}`);
      value = [accepted[0]];
    }
    const parsed = parseCommandArgs([`--${d.flag}`, ...value], runCommand.options, {
      command: "run",
    });
    const { given } = await parseRunArgs(parsed);
    assert.deepEqual(Object.keys(given), [name], `--${d.flag} sets ${name}`);
  }
});

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
