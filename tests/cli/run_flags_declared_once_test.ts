/**
 * Every flag of `agentv run` is an entry of the run options (`lib/schema/run_spec.ts`): the
 * command's parser options and `--help` are derived from them, each flag reads into the option of
 * its entry (no other module declares a flag that the `run` command takes: checked over its module
 * graph by run_flags_declared_once_process_test.ts).
 */
import assert from "node:assert/strict";
import { parseCommandArgs } from "../../lib/cli/args.ts";
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
  const candidates = ["1", "0.5", "1/2", "all", "junit", "read", "a*", "o.jsonl", "none"];
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
