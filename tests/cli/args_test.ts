import assert from "node:assert/strict";
import { parseCommandArgs } from "../../lib/cli/args.ts";
import { formatOptions } from "../../lib/cli/help.ts";
import { UsageError } from "../../lib/errors/agentv_error.ts";

const options = {
  root: { type: "string" as const, valueName: "DIR", description: "Dataset root" },
  verbose: { type: "boolean" as const, short: "v", description: "Say more" },
  tag: { type: "string" as const, multiple: true, description: "A tag" },
};

Deno.test("parseCommandArgs() returns option values and positionals", () => {
  const parsed = parseCommandArgs(
    ["a.yaml", "--root=x", "-v", "--tag", "t1", "--tag", "t2", "--", "--literal"],
    options,
  );
  assert.deepEqual(parsed, {
    values: { root: "x", verbose: true, tag: ["t1", "t2"] },
    positionals: ["a.yaml", "--literal"],
  });
  assert.equal(parseCommandArgs(["--help"], options).values.help, true);
});

Deno.test("parseCommandArgs() turns an unknown option into a UsageError with a suggestion", () => {
  assert.throws(
    () => parseCommandArgs(["--verbos"], options, { command: "validate" }),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.equal(error.message, "Unknown option '--verbos'; did you mean '--verbose'?");
      assert.match(error.hint ?? "", /agentv validate --help/);
      return true;
    },
  );
  assert.throws(() => parseCommandArgs(["-x"], options), /Unknown option '-x'/);
  assert.throws(
    () => parseCommandArgs(["--zzzzzzzz"], options),
    (error: unknown) => error instanceof UsageError && !error.message.includes("did you mean"),
  );
});

Deno.test("parseCommandArgs() explains missing values and values given to switches", () => {
  assert.throws(
    () => parseCommandArgs(["--root"], options),
    /Option '--root' needs a value; expected --root DIR/,
  );
  assert.throws(
    () => parseCommandArgs(["--verbose=1"], options),
    /Option '--verbose' is a switch and takes no value/,
  );
});

Deno.test("formatOptions() aligns short and long names, value names and --help", () => {
  assert.equal(
    formatOptions(options),
    [
      "      --root DIR   Dataset root",
      "  -v, --verbose    Say more",
      "      --tag VALUE  A tag (repeatable)",
      "  -h, --help       Show help for this command",
    ].join("\n"),
  );
});
