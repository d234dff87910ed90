/** Loader: the dataset root and references that leave it. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { dataset, load } from "./_helpers.ts";

Deno.test("references leaving the root are refused; --root/options.root widen it", async () => {
  await using outside = await dataset({ "secret.txt": "SECRET" }, { git: false });
  await using ds = await dataset({
    "evals/e.yaml": "evalcases:\n" + [
      ["up", "../../secret.txt"],
      ["abs", join(outside.root, "secret.txt")],
      ["link", "link.txt"],
    ].map(([id, ref]) =>
      `  - id: ${id}\n    expected_outcome: G\n    input:\n      - role: user\n` +
      `        content: [{ type: file, value: "${ref}" }]\n`
    ).join(""),
  });
  await Deno.symlink(join(outside.root, "secret.txt"), ds.path("evals/link.txt"));
  const { cases, diagnostics } = await load(ds.path("evals/e.yaml"));
  assert.deepEqual(cases, []);
  assert.equal(diagnostics.length, 3);
  for (const d of diagnostics) {
    assert.equal(d.severity, "error");
    assert.ok(d.message.includes(ds.root), d.message); // names the root
    assert.match(d.path ?? "", /content\[0\]\.value$/);
  }
  assert.ok(diagnostics[1].message.includes(join(outside.root, "secret.txt")));
  assert.ok(diagnostics[2].message.includes("link.txt"));

  // CLI: same refusals, exit 1; the worker cannot read outside the root
  const io = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/e.yaml"], io), 1);
  assert.doesNotMatch(io.out(), /SECRET/);
  assert.match(io.out(), /link\.txt/);
});

Deno.test("the default root is the nearest folder with .agentv/ or .git", async () => {
  await using ds = await dataset({
    "shared.md": "shared",
    "project/.agentv/config.yaml": "guideline_patterns: []\n",
    "project/evals/e.yaml": "evalcases:\n" +
      "  - id: a\n    expected_outcome: G\n    input:\n      - role: user\n" +
      "        content: [{ type: file, value: shared.md }]\n",
  });
  const path = ds.path("project/evals/e.yaml");
  const refused = await load(path);
  assert.equal(refused.cases.length, 0);
  assert.ok(refused.diagnostics[0].message.includes(ds.path("project")));
  const widened = await load(path, { root: ds.root });
  assert.deepEqual(widened.cases[0].file_paths, [ds.path("shared.md")]);
  const io = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "project", "--root", "."], io), 0, io.out() + io.err());
});
