/**
 * The package is publishable: `deno publish --dry-run` (offline) builds the JSR package from
 * deno.json's exports and publish settings and runs its checks (slow types, excluded files).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("deno publish --dry-run passes (offline)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  assert.equal(output.code, 0, text.decode(output.stderr) + text.decode(output.stdout));
});
