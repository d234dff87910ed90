import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { runCli } from "../../lib/cli/app.ts";
import type { Command, ParsedArgs } from "../../lib/cli/command.ts";
import { UsageError } from "../../lib/errors/agentv_error.ts";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import { createBufferIO, REPO_ROOT } from "./_buffer_io.ts";

/** A command that records its arguments and then does what `behaviour` says. */
function fakeCommand(
  name: string,
  behaviour: (args: ParsedArgs) => Promise<number> = () => Promise.resolve(0),
  aliases?: string[],
): Command & { calls: ParsedArgs[] } {
  const calls: ParsedArgs[] = [];
  return {
    name,
    aliases,
    summary: `The ${name} command`,
    usage: `agentv ${name} <thing> [--target NAME]`,
    options: {
      target: { type: "string", short: "t", valueName: "NAME", description: "Target name" },
      verbose: { type: "boolean", description: "Say more" },
    },
    calls,
    run(args) {
      calls.push(args);
      return behaviour(args);
    },
  };
}

Deno.test("runCli() prints the version from deno.json", async () => {
  const io = createBufferIO();
  assert.equal(await runCli(["--version"], io), 0);
  assert.equal(io.out(), `agentv ${denoJson.version}\n`);
  assert.equal(io.err(), "");
});

Deno.test("runCli() --help lists every command with its summary", async () => {
  const io = createBufferIO();
  assert.equal(await runCli(["--help"], io), 0);
  assert.match(io.out(), /^agentv \d+\.\d+\.\d+: /);
  assert.match(io.out(), /\n {2}validate +Check eval files/);
  assert.match(io.out(), /Exit codes: 0 ok; 1 /);
});

Deno.test("runCli() shows a command's help for 'help <command>' and '<command> --help'", async () => {
  for (const args of [["help", "validate"], ["validate", "--help"], ["validate", "-h"]]) {
    const io = createBufferIO();
    assert.equal(await runCli(args, io), 0, args.join(" "));
    assert.match(io.out(), /Usage:\n {2}agentv validate \[file\|folder\|glob\]\.\.\./);
    assert.match(io.out(), /--root DIR/);
    assert.match(io.out(), /-h, --help/);
  }
});

Deno.test("runCli() rejects an unknown command with a suggestion and exit code 2", async () => {
  const io = createBufferIO();
  assert.equal(await runCli(["valdate", "evals"], io), 2);
  assert.equal(io.out(), "");
  assert.match(io.err(), /^error: Unknown command 'valdate'; did you mean 'validate'\?\n/);
  assert.match(io.err(), /Usage: agentv <command>/);
  assert.doesNotMatch(io.err(), /\n\s+at /, "no stack trace for a user mistake");
});

Deno.test("runCli() rejects an unknown option with a suggestion and the command's usage", async () => {
  const io = createBufferIO();
  assert.equal(await runCli(["validate", "evals", "--jsno"], io), 2);
  assert.match(io.err(), /^error: Unknown option '--jsno'; did you mean '--json'\?\n/);
  assert.match(io.err(), /Usage: agentv validate /);
  const top = createBufferIO();
  assert.equal(await runCli(["--verison"], top), 2);
  assert.match(top.err(), /Unknown option '--verison'; did you mean '--version'\?/);
});

Deno.test("runCli() reports a missing option value and a value given to a switch", async () => {
  const missing = createBufferIO();
  assert.equal(await runCli(["validate", "evals", "--root"], missing), 2);
  assert.match(missing.err(), /Option '--root' needs a value; expected --root DIR/);
  const extra = createBufferIO();
  assert.equal(await runCli(["validate", "evals", "--json=yes"], extra), 2);
  assert.match(extra.err(), /Option '--json' is a switch and takes no value/);
});

Deno.test("runCli() with no arguments prints the help, as --help does, and exits 0", async () => {
  const io = createBufferIO();
  assert.equal(await runCli([], io), 0);
  const help = createBufferIO();
  assert.equal(await runCli(["--help"], help), 0);
  assert.equal(io.out(), help.out());
  assert.match(io.out(), /^Usage:\n {2}agentv <command>/m);
  assert.equal(io.err(), "");
});

Deno.test("the help lists every exit code, 70 (internal error) included", async () => {
  const io = createBufferIO();
  await runCli(["--help"], io);
  const text = io.out().replace(/\n/g, " ");
  for (
    const [code, meaning] of [["0", "ok"], ["1", "ran and failed"], ["2", "usage"], [
      "130",
      "interrupted",
    ], ["70", "internal error"]]
  ) {
    assert.match(text, new RegExp(`\\b${code} ${meaning}`), code);
  }
});

Deno.test("runCli() dispatches two-word commands and aliases with parsed options", async () => {
  const generate = fakeCommand("generate rubrics");
  const run = fakeCommand("run", undefined, ["eval"]);
  const commands = [run, generate];
  const io = createBufferIO();
  assert.equal(
    await runCli(["generate", "rubrics", "a.yaml", "-t", "judge", "--verbose"], io, { commands }),
    0,
  );
  assert.deepEqual(generate.calls, [{
    values: { target: "judge", verbose: true },
    positionals: ["a.yaml"],
  }]);
  assert.equal(await runCli(["eval", "x"], createBufferIO(), { commands }), 0);
  assert.deepEqual(run.calls[0].positionals, ["x"]);

  const typo = createBufferIO();
  assert.equal(await runCli(["generate", "rubric", "a.yaml"], typo, { commands }), 2);
  assert.match(typo.err(), /did you mean 'agentv generate rubrics'\?/);
  const bare = createBufferIO();
  assert.equal(await runCli(["generate"], bare, { commands }), 2);
  assert.match(bare.err(), /'agentv generate' needs a subcommand: rubrics/);
  const help = createBufferIO();
  assert.equal(await runCli(["--help"], help, { commands }), 0);
  assert.match(help.out(), /run \(eval\) +The run command/);
  assert.match(help.out(), /generate rubrics +The generate rubrics command/);
});

Deno.test("runCli() prints a UsageError with its hint and exits 2", async () => {
  const command = fakeCommand("go", () => {
    throw new UsageError("Target 'x' is not defined", "define it in .agentv/targets.yaml");
  });
  const io = createBufferIO();
  assert.equal(await runCli(["go"], io, { commands: [command] }), 2);
  assert.match(io.err(), /^error: Target 'x' is not defined\nhint: define it in/);
  assert.doesNotMatch(io.err(), /\n\s+at /);
});

Deno.test("runCli() renders an EvalLoadError's diagnostics and exits 2", async () => {
  const file = `${REPO_ROOT}/fixtures/cli/broken/evals/syntax.yaml`;
  const command = fakeCommand("go", () => {
    throw new EvalLoadError("YAML syntax error", [
      { severity: "error", file, line: 3, column: 12, message: "Unclosed flow sequence" },
    ]);
  });
  const io = createBufferIO();
  assert.equal(await runCli(["go"], io, { commands: [command] }), 2);
  assert.equal(
    io.err(),
    "fixtures/cli/broken/evals/syntax.yaml:3:12: error: Unclosed flow sequence\n" +
      "  3 |     input: [unclosed\n" +
      "    |            ^\n",
  );
});

Deno.test("runCli() treats any other exception as an internal error: stack trace, exit 70", async () => {
  const command = fakeCommand("go", () => Promise.reject(new TypeError("x is undefined")));
  const io = createBufferIO();
  assert.equal(await runCli(["go"], io, { commands: [command] }), 70);
  assert.match(io.err(), /internal error in agentv/);
  assert.match(io.err(), /TypeError: x is undefined\n\s+at /);
});

Deno.test("runCli() exits 130 when a command fails after an interrupt", async () => {
  const io = createBufferIO();
  const command = fakeCommand("go", () => {
    io.interrupt();
    return Promise.reject(new DOMException("Interrupted", "AbortError"));
  });
  assert.equal(await runCli(["go"], io, { commands: [command] }), 130);
  assert.match(io.err(), /Interrupted/);
});

Deno.test("runCli() colours errors only when io.color is set", async () => {
  const plain = createBufferIO();
  await runCli(["nope"], plain);
  assert.ok(!plain.err().includes("\x1b["));
  const coloured = createBufferIO({ color: true, isTTY: true });
  await runCli(["nope"], coloured);
  assert.ok(coloured.err().includes("\x1b[31m"));
});
