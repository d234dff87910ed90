/**
 * The attack: the eval file on disk is one thing when the loader reads it and another a moment
 * later (a race, or a file system the attacker controls). Consent hashes the bytes the loader
 * parsed, not a second read: a file swapped to the trusted bytes right after it was loaded still
 * runs nothing, and a file swapped to new bytes after the load runs only what was loaded. The
 * swap is deterministic: a loader hook rewrites the file as soon as it has parsed it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadEvalFile, runEval, UntrustedDatasetError } from "../../mod.ts";
import { trustStorePermission } from "../../lib/cli/trust.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { project } from "../_helpers/run_project.ts";
import { exists, user } from "./_attack.ts";

const SCORE = `echo '{"score": 1}'`;

const FORMATS = {
  yaml: {
    file: "evals/a.yaml",
    text: (script: string) =>
      `evalcases:\n  - id: c1\n    expected_outcome: x\n    input: hi\n    evaluators:\n      - type: code_judge\n        script: ${
        JSON.stringify(script)
      }\n`,
  },
  jsonl: {
    file: "evals/a.jsonl",
    text: (script: string) =>
      JSON.stringify({
        id: "c1",
        expected_outcome: "x",
        input: "hi",
        evaluators: [{ type: "code_judge", script }],
      }) + "\n",
  },
};

for (const [format, { file, text }] of Object.entries(FORMATS)) {
  const TRUSTED = text(SCORE);
  const EVIL = text(`touch EVIL_RAN; ${SCORE}`);

  Deno.test(`${format}: a file swapped back to the trusted bytes right after it was loaded runs nothing`, async () => {
    await using p = await project({
      ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
      [file]: TRUSTED,
    });
    await using me = await user();
    assert.equal((await me.agentv(["trust", "."], p.dir)).code, 0);
    const permission = await trustStorePermission(
      createBufferIO({ cwd: p.dir, env: { XDG_CONFIG_HOME: me.config.dir } }),
    );
    const path = join(p.dir, file);
    await Deno.writeTextFile(path, EVIL);
    let swapped = false;
    const error = await runEval({
      files: [file],
      env: {},
      cwd: p.dir,
      allowRun: permission,
      // The file is the attacker's when it is parsed, the trusted one from then on.
      load: async (at, options) => {
        const set = await loadEvalFile(at, options);
        await Deno.writeTextFile(path, TRUSTED);
        swapped = true;
        return set;
      },
    }).then(() => undefined, (e) => e);
    assert.ok(swapped);
    assert.ok(error instanceof UntrustedDatasetError, String(error));
    assert.match(error.diagnostics[0].message, /touch EVIL_RAN/);
    assert.equal(await exists(join(p.dir, "evals/EVIL_RAN")), false);
  });

  Deno.test(`${format}: a file swapped to new bytes after the trusted ones were loaded runs only what was loaded`, async () => {
    await using p = await project({
      ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
      [file]: TRUSTED,
    });
    await using me = await user();
    assert.equal((await me.agentv(["trust", "."], p.dir)).code, 0);
    const permission = await trustStorePermission(
      createBufferIO({ cwd: p.dir, env: { XDG_CONFIG_HOME: me.config.dir } }),
    );
    const path = join(p.dir, file);
    const { rows } = await runEval({
      files: [file],
      env: {},
      cwd: p.dir,
      allowRun: permission,
      load: async (at, options) => {
        const set = await loadEvalFile(at, options);
        await Deno.writeTextFile(path, EVIL);
        return set;
      },
    });
    assert.equal(rows[0].status, "ok", rows[0].error ?? "");
    assert.equal(await Deno.readTextFile(path), EVIL);
    assert.equal(await exists(join(p.dir, "evals/EVIL_RAN")), false);
  });
}
