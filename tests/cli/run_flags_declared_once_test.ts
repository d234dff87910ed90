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

const LIB = fileURLToPath(new URL("../../lib/", import.meta.url));

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
  // An option declaration in the form commands use: a `type` of "string" or "boolean" and a
  // `description` in one object literal.
  const optionLiteral = /\btype: "(?:string|boolean)",[^{}]{0,300}?\bdescription:/;
  const declaring: string[] = [];
  const walk = async (dir: string, rel: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`, `${rel}${entry.name}/`);
      else if (entry.name.endsWith(".ts")) {
        // Code only: doc comments show option literals as examples.
        const code = (await Deno.readTextFile(path)).replace(/\/\*[\s\S]*?\*\//g, "");
        if (optionLiteral.test(code)) declaring.push(`${rel}${entry.name}`);
      }
    }
  };
  await walk(LIB, "");
  // The other commands' own options (and --help) are declared where the command is.
  const commandModules = COMMANDS.filter((c) => c.name !== "run")
    .map((c) => `cli/${c.module.replace(/^\.\//, "")}`);
  const allowed = new Set([...commandModules, "cli/help.ts"]);
  assert.deepEqual(declaring.filter((file) => !allowed.has(file)).sort(), []);
  // And the run command takes none of theirs: its options are exactly the derived ones.
  const { runCommandOptions } = await import("../../lib/cli/run_args.ts");
  assert.deepEqual(runCommand.options, runCommandOptions());
});
