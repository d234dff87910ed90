/**
 * The control for tests/scoring/module_judge_imports_test.ts: a Deno process without the judge
 * host's guards does fetch the same npm import from the loopback registry, so the refusals there
 * are the guards' doing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempTree } from "../_helpers/temp_tree.ts";

/** A loopback server standing for the npm registry and a module host; counts its requests. */
function countingServer() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return new Response("not here", { status: 404 });
  });
  return { seen, server, url: `http://127.0.0.1:${server.addr.port}/` };
}

Deno.test("control: without the judge host's guards the same npm import does reach the registry", async () => {
  const registry = countingServer();
  await using project = await tempTree({
    "m.ts": 'await import("npm:left-pad@1.3.0").catch(() => {});\n',
  });
  await using denoDir = await tempTree({});
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", join(project.dir, "m.ts")],
    cwd: project.dir,
    env: { NPM_CONFIG_REGISTRY: registry.url, DENO_DIR: denoDir.dir, NO_COLOR: "1" },
    stdout: "null",
    stderr: "null",
  }).output();
  await registry.server.shutdown();
  assert.ok(output.code >= 0);
  assert.ok(registry.seen.length > 0, "deno asks the registry when nothing stops it");
});
