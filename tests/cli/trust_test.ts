/** `agentv trust`: where the trust store lives and what it records. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { isTrusted, trustFilePath } from "../../lib/run/trust_store.ts";
import { cli, project } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

Deno.test("trustFilePath: $XDG_CONFIG_HOME/agentv, else $HOME/.config/agentv", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(
    trustFilePath(env({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), "linux"),
    join("/x", "agentv", "trust.json"),
  );
  assert.equal(
    trustFilePath(env({ HOME: "/h" }), "linux"),
    join("/h", ".config/agentv/trust.json"),
  );
  assert.equal(trustFilePath(env({}), "linux"), undefined);
});

Deno.test("isTrusted: every command file must be recorded with the same hash", () => {
  const store = {
    version: 1 as const,
    roots: { "/d": { trusted_at: "t", files: { "/d/a.yaml": "aa", "/d/t.yaml": "bb" } } },
  };
  const file = (f: string, sha256: string) => ({ file: f, sha256, commands: [] });
  assert.equal(isTrusted(store, { root: "/d", files: [file("/d/a.yaml", "aa")] }), true);
  assert.equal(isTrusted(store, { root: "/d", files: [file("/d/a.yaml", "ab")] }), false);
  assert.equal(isTrusted(store, { root: "/d", files: [file("/d/new.yaml", "cc")] }), false);
  assert.equal(isTrusted(store, { root: "/e", files: [file("/d/a.yaml", "aa")] }), false);
});

Deno.test("agentv trust writes to $HOME/.config/agentv without XDG_CONFIG_HOME; a root without commands records nothing", async () => {
  await using home = await tempTree({});
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - {name: default, provider: cli, command_template: echo hi}\n",
    "evals/a.yaml": "evalcases:\n  - {id: c1, expected_outcome: x, input: hi}\n",
  });
  const r = await cli(["trust", "evals"], p.dir, { env: { HOME: home.dir } });
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /targets\.yaml:2:\d+: .*cli target 'default'/);
  const store = JSON.parse(
    await Deno.readTextFile(join(home.dir, ".config", "agentv", "trust.json")),
  );
  assert.deepEqual(Object.keys(store.roots), [p.dir]);

  await using plain = await project({
    "evals/a.yaml": "evalcases:\n  - {id: c1, expected_outcome: x, input: hi}\n",
  });
  const none = await cli(["trust"], plain.dir, { env: { HOME: home.dir } });
  assert.equal(none.code, 0);
  assert.match(none.out, /No commands found/);
});
