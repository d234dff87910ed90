/** CLI: usage errors, help, version and colour rules. */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "./_buffer_io.ts";

Deno.test("usage errors exit 2 with a suggestion; help and version exit 0", async () => {
  const run = async (args: string[]) => {
    const io = createBufferIO();
    const code = await runCli(args, io);
    return { code, out: io.out(), err: io.err() };
  };
  const flag = await run(["validate", "fixtures/cli/project", "--jsno"]);
  assert.equal(flag.code, 2);
  assert.match(flag.err, /--jsno/);
  assert.match(flag.err, /did you mean '--json'/);
  assert.equal(flag.out, "");
  const top = await run(["--verison"]);
  assert.equal(top.code, 2);
  assert.match(top.err, /did you mean '--version'/);
  const command = await run(["validat", "x"]);
  assert.equal(command.code, 2);
  assert.match(command.err, /did you mean 'validate'/);
  assert.equal((await run(["validate", "no/such/path.yaml"])).code, 2);
  assert.equal((await run(["validate", "fixtures/cli/project", "--root", "no/such/dir"])).code, 2);
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /validate/);
  const validateHelp = await run(["validate", "--help"]);
  assert.equal(validateHelp.code, 0);
  for (const option of ["--root", "--verbose", "--json"]) {
    assert.ok(validateHelp.out.includes(option));
  }
  const version = await run(["--version"]);
  assert.equal(version.code, 0);
  assert.match(version.out, /0\.1\.0/);
});

Deno.test("colours are used when the IO asks for them", async () => {
  const io = createBufferIO({ color: true, isTTY: true });
  assert.equal(await runCli(["validate", "fixtures/cli/broken/evals/bad_weight.yaml"], io), 1);
  // deno-lint-ignore no-control-regex
  assert.match(io.out(), /\x1b\[/);
});
