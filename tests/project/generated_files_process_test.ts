/**
 * `lib/schema/run_spec_types.ts` is what `tools/generate.ts` writes from the run options
 * (`lib/schema/run_spec.ts`): their types, laid out by `deno fmt` (run as Deno's own formatter).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runSpecTypesSource } from "../../lib/schema/run_spec_docs.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REGENERATE = "run: deno run --allow-read --allow-write --allow-run tools/generate.ts";

/** `text` laid out by `deno fmt`, as the generator writes it. */
async function formatted(text: string, ext: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--ext=${ext}`, "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout);
}

Deno.test("lib/schema/run_spec_types.ts is the generated one", async () => {
  const committed = await Deno.readTextFile(`${ROOT}lib/schema/run_spec_types.ts`);
  assert.equal(committed, await formatted(runSpecTypesSource(), "ts"), REGENERATE);
});
