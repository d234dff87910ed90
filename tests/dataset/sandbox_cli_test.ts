import assert from "node:assert/strict";
import { join } from "node:path";
import {
  Sandbox,
  sandboxedLoad,
  sandboxedValidate,
  sandboxPermissions,
} from "../../lib/dataset/sandbox.ts";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import type { LoadedEvalFile } from "../../lib/dataset/load_eval_file.ts";

const SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";

/**
 * A temp tree: `<tmp>/outside.txt` (the secret) and a dataset root `<tmp>/proj` (with
 * `.agentv/`) whose eval file references the secret in three ways, plus one good case.
 */
async function escapeTree(): Promise<{ tmp: string; root: string; evalFile: string }> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv_sandbox_" }));
  const root = join(tmp, "proj");
  await Deno.mkdir(join(root, ".agentv"), { recursive: true });
  await Deno.mkdir(join(root, "evals"));
  await Deno.writeTextFile(join(root, ".agentv", "config.yaml"), "guideline_patterns: []\n");
  await Deno.writeTextFile(join(tmp, "outside.txt"), `${SECRET}\n`);
  await Deno.writeTextFile(join(root, "evals", "inside.md"), "inside text\n");
  await Deno.symlink(join(tmp, "outside.txt"), join(root, "evals", "link.txt"));
  const fileCase = (id: string, ref: string) =>
    [
      `  - id: ${id}`,
      `    expected_outcome: Does not leak`,
      `    input:`,
      `      - role: user`,
      `        content:`,
      `          - type: file`,
      `            value: ${JSON.stringify(ref)}`,
    ].join("\n");
  const evalFile = join(root, "evals", "escape.yaml");
  await Deno.writeTextFile(
    evalFile,
    [
      "evalcases:",
      fileCase("dotdot", "../../outside.txt"),
      fileCase("absolute", join(tmp, "outside.txt")),
      fileCase("symlink", "link.txt"),
      fileCase("fine", "inside.md"),
      "",
    ].join("\n"),
  );
  return { tmp, root, evalFile };
}

type ProbeResult = { ok: boolean; value?: unknown; name?: string; message?: string };

/** Runs probes in order in one worker with exactly the sandbox's permissions for `root`. */
async function probe(root: string, ...messages: unknown[]): Promise<ProbeResult> {
  const worker = new Worker(new URL("./_probe_worker.ts", import.meta.url).href, {
    type: "module",
    deno: { permissions: sandboxPermissions([root]) },
  });
  try {
    let last: ProbeResult = { ok: false };
    for (const message of messages) {
      last = await new Promise((resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => {
          event.preventDefault();
          reject(new Error(event.message));
        };
        worker.postMessage(message);
      });
    }
    return last;
  } finally {
    worker.terminate();
  }
}

Deno.test("sandboxedLoad() refuses ../, absolute and symlinked references that leave the root", async () => {
  const { tmp, root, evalFile } = await escapeTree();
  try {
    const loaded = await sandboxedLoad(evalFile);
    assert.equal(loaded.root, root);
    assert.deepEqual(loaded.cases.map((c) => c.id), ["fine"]);
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    assert.equal(errors.length, 3, JSON.stringify(loaded.diagnostics, null, 2));
    for (const [i, ref] of ["../../outside.txt", join(tmp, "outside.txt"), "link.txt"].entries()) {
      assert.ok(errors[i].message.includes(ref), `names the reference: ${errors[i].message}`);
      assert.ok(errors[i].message.includes(root), `names the root: ${errors[i].message}`);
      assert.equal(errors[i].file, evalFile);
      assert.equal(typeof errors[i].line, "number");
    }
    assert.ok(!JSON.stringify(loaded).includes(SECRET), "the secret is not in the result");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the sandbox worker's runtime permissions refuse reads outside the root", async () => {
  const { tmp, root } = await escapeTree();
  try {
    const inside = await probe(root, { op: "read", path: join(root, "evals", "inside.md") });
    assert.deepEqual(inside, { ok: true, value: "inside text\n" });
    for (const path of [join(tmp, "outside.txt"), join(root, "..", "outside.txt")]) {
      const outside = await probe(root, { op: "read", path });
      assert.equal(outside.ok, false, path);
      assert.equal(outside.name, "NotCapable");
    }
    const link = join(root, "evals", "link.txt");
    const guarded = await probe(root, { op: "confine", root }, { op: "read", path: link });
    assert.equal(guarded.ok, false);
    assert.equal(guarded.name, "NotCapable");
    assert.match(guarded.message ?? "", /outside the dataset root/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the sandbox worker refuses the read even when the loader's path check is bypassed", async () => {
  const { tmp, root, evalFile } = await escapeTree();
  try {
    // The loader is told the root is <tmp>, so its own path check lets every reference through;
    // the worker may still read <tmp>/proj only. Deno's permission check refuses ../ and the
    // absolute path; it checks paths as given, so the symlink needs the worker's read guard.
    const load = { op: "load", path: evalFile, root: tmp };
    const runtimeOnly = await probe(root, load);
    assert.equal(runtimeOnly.ok, true, runtimeOnly.message ?? "");
    const plain = runtimeOnly.value as LoadedEvalFile;
    assert.deepEqual(plain.cases.map((c) => c.id).sort(), ["fine", "symlink"]);
    for (const id of ["dotdot", "absolute"]) {
      assert.ok(!JSON.stringify(plain.cases.find((c) => c.id === id) ?? "").includes(SECRET));
    }
    assert.equal(plain.diagnostics.filter((d) => /outside\.txt/.test(d.message)).length, 2);

    const guarded = await probe(root, { op: "confine", root }, load);
    assert.equal(guarded.ok, true, guarded.message ?? "");
    const loaded = guarded.value as LoadedEvalFile;
    assert.deepEqual(loaded.cases.map((c) => c.id), ["fine"]);
    assert.ok(!JSON.stringify(loaded).includes(SECRET), "the secret was not read");
    assert.equal(loaded.diagnostics.filter((d) => d.severity === "error").length, 3);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the sandbox worker cannot write, use the network, run programs or read other env vars", async () => {
  const { tmp, root } = await escapeTree();
  Deno.env.set("AGENTV_SANDBOX_TEST_SECRET", "sk-test-SECRET-123");
  try {
    for (
      const message of [
        { op: "write", path: join(root, "written.txt") },
        { op: "net" },
        { op: "run" },
        { op: "env", name: "AGENTV_SANDBOX_TEST_SECRET" },
      ]
    ) {
      const result = await probe(root, message);
      assert.equal(result.ok, false, JSON.stringify(message));
      assert.equal(result.name, "NotCapable", JSON.stringify(result));
    }
    assert.deepEqual(await probe(root, { op: "env", name: "LOG_TOKENS" }), {
      ok: true,
      value: null,
    });
  } finally {
    Deno.env.delete("AGENTV_SANDBOX_TEST_SECRET");
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("Sandbox refuses an eval file that is (or links to) a file outside the root", async () => {
  const { tmp, root } = await escapeTree();
  const linked = join(root, "evals", "linked.yaml");
  await Deno.writeTextFile(join(tmp, "real.yaml"), "evalcases: []\n");
  await Deno.symlink(join(tmp, "real.yaml"), linked);
  const sandbox = new Sandbox(root);
  try {
    await assert.rejects(() => sandbox.load(linked), (error: unknown) => {
      assert.ok(error instanceof EvalLoadError);
      assert.match(error.diagnostics[0].message, /outside the dataset root/);
      return true;
    });
    const report = await sandbox.validate(join(tmp, "real.yaml"));
    assert.equal(report.valid, false);
    assert.match(report.diagnostics[0].message, /outside the dataset root/);
  } finally {
    sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("sandboxedLoad() rethrows file-level problems as EvalLoadError with diagnostics", async () => {
  const file = new URL("../../fixtures/cli/broken/evals/syntax.yaml", import.meta.url).pathname;
  await assert.rejects(() => sandboxedLoad(file), (error: unknown) => {
    assert.ok(error instanceof EvalLoadError, String(error));
    assert.equal(error.diagnostics[0].severity, "error");
    assert.equal(typeof error.diagnostics[0].line, "number");
    return true;
  });
  const report = await sandboxedValidate(file);
  assert.equal(report.valid, false);
  assert.equal(report.kind, "eval");
});

Deno.test("Sandbox reuses one worker for many files and stops on abort", async () => {
  const dir = new URL("../../fixtures/cli/project/", import.meta.url).pathname;
  const sandbox = new Sandbox(dir.replace(/\/$/, ""));
  try {
    const a = await sandbox.validate(`${dir}evals/geography.yaml`);
    const b = await sandbox.validate(`${dir}evals/trivia.jsonl`);
    assert.deepEqual([a.valid, a.cases, b.valid, b.cases], [true, 2, true, 2]);
    const controller = new AbortController();
    const pending = sandbox.load(`${dir}evals/geography.yaml`, { signal: controller.signal });
    controller.abort(new DOMException("Interrupted", "AbortError"));
    await assert.rejects(() => pending, { name: "AbortError" });
  } finally {
    sandbox.close();
  }
});

Deno.test("Sandbox posts a load or validate request before it returns to the caller", async () => {
  // `run` imports the runner right after asking for its files; evaluating that module graph holds
  // the event loop for a while, so a request still waiting on an async step would start late.
  const { tmp, root, evalFile } = await escapeTree();
  const posted: string[] = [];
  const original = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
    posted.push((message as { op: string }).op);
    return original.call(this, message, ...rest);
  };
  using sandbox = new Sandbox(root);
  try {
    const loading = sandbox.load(evalFile).catch((e) => e);
    const validating = sandbox.validate(evalFile);
    assert.deepEqual(posted, ["load", "validate"]);
    await Promise.all([loading, validating]);
  } finally {
    Worker.prototype.postMessage = original;
    sandbox.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
