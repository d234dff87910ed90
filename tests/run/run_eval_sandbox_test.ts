/**
 * `runEval` from the library loads eval files through the sandbox `agentv run` uses: a worker per
 * dataset root whose Deno permissions allow reading that root and nothing else. `sandbox: false`
 * loads them in this process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";

const SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";
const TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: ok\n";

/** A case whose input attaches the file `ref`. */
function fileCase(id: string, ref: string): string {
  return [
    `  - id: ${id}`,
    "    expected_outcome: Does not leak",
    "    input:",
    "      - role: user",
    "        content:",
    "          - {type: file, value: " + JSON.stringify(ref) + "}",
    "    evaluators: [{type: contains, value: ok}]",
  ].join("\n");
}

/**
 * `<tmp>/outside.txt` (the secret) and a dataset root `<tmp>/proj` whose eval file references the
 * secret with `../`, an absolute path and (with `symlink`) a link inside the root, plus one case
 * that attaches a file inside the root.
 */
async function escapeTree(options: { symlink: boolean }) {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv_lib_sandbox_" }));
  const root = join(tmp, "proj");
  await Deno.mkdir(join(root, ".agentv"), { recursive: true });
  await Deno.mkdir(join(root, "evals"));
  await Deno.writeTextFile(join(root, ".agentv", "targets.yaml"), TARGETS);
  await Deno.writeTextFile(join(tmp, "outside.txt"), `${SECRET}\n`);
  await Deno.writeTextFile(join(root, "evals", "inside.md"), "inside text\n");
  const cases = [
    fileCase("dotdot", "../../outside.txt"),
    fileCase("absolute", join(tmp, "outside.txt")),
    fileCase("fine", "inside.md"),
  ];
  if (options.symlink) {
    await Deno.symlink(join(tmp, "outside.txt"), join(root, "evals", "link.txt"));
    cases.push(fileCase("symlink", "link.txt"));
  }
  const evalFile = join(root, "evals", "escape.yaml");
  await Deno.writeTextFile(evalFile, ["evalcases:", ...cases, ""].join("\n"));
  return {
    tmp,
    root,
    evalFile,
    [Symbol.asyncDispose]: () => Deno.remove(tmp, { recursive: true }),
  };
}

/** What a worker was started with, and the messages it was sent. */
interface WorkerSeen {
  url: string;
  permissions: unknown;
  requests: { op?: string; root?: string }[];
}

/**
 * Runs `fn` with `globalThis.Worker` replaced by a subclass that records every worker started
 * (its URL and Deno permissions) and every request posted to it; `rewrite` may change a request
 * before it is posted (the worker itself is the real one, with the permissions it was given).
 */
async function watchingWorkers<T>(
  fn: () => Promise<T>,
  rewrite: (request: Record<string, unknown>) => Record<string, unknown> = (r) => r,
): Promise<{ value: T; workers: WorkerSeen[] }> {
  const Original = globalThis.Worker;
  const workers: WorkerSeen[] = [];
  class Watched extends Original {
    readonly #seen: WorkerSeen;
    constructor(url: string | URL, options?: WorkerOptions & { deno?: { permissions?: unknown } }) {
      super(url, options);
      this.#seen = { url: String(url), permissions: options?.deno?.permissions, requests: [] };
      workers.push(this.#seen);
    }
    override postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) {
      const request = rewrite(message as Record<string, unknown>);
      // A lent worker (the fast tier lends them) is told to forget what it read: not a request.
      if (request.op !== "reset") this.#seen.requests.push(request);
      super.postMessage(request, transfer as Transferable[]);
    }
  }
  globalThis.Worker = Watched;
  try {
    return { value: await fn(), workers };
  } finally {
    globalThis.Worker = Original;
  }
}

const idsOf = (rows: readonly ResultRow[]) => rows.map((r) => r.eval_id).sort();

Deno.test("runEval() loads in the sandbox: ../, absolute and linked references that leave the root are refused, the secret is never read", async () => {
  await using tree = await escapeTree({ symlink: true });
  const { value, workers } = await watchingWorkers(() =>
    runEval({ files: [tree.evalFile], env: {}, cwd: tree.root })
  );
  assert.deepEqual(idsOf(value.rows), ["fine"]);
  const refused = value.summary.invalid.filter((d) => d.severity === "error");
  assert.equal(refused.length, 3, JSON.stringify(refused, null, 2));
  for (const ref of ["../../outside.txt", join(tree.tmp, "outside.txt"), "link.txt"]) {
    assert.ok(refused.some((d) => d.message.includes(ref)), `a diagnostic names ${ref}`);
  }
  assert.ok(!JSON.stringify(value).includes(SECRET), "the secret is in no row or summary");
  // The file was loaded by one sandbox worker that may read the dataset root only.
  const sandboxes = workers.filter((w) => w.url.endsWith("/load_worker.ts"));
  assert.equal(sandboxes.length, 1);
  const permissions = sandboxes[0].permissions as Deno.PermissionOptionsObject;
  assert.deepEqual(permissions.read, [tree.root]);
  for (const kind of ["write", "net", "run", "ffi", "sys"] as const) {
    assert.equal(permissions[kind], false, kind);
  }
  assert.deepEqual(sandboxes[0].requests.map((r) => [r.op, r.root]), [["load", tree.root]]);
});

Deno.test("runEval()'s sandbox refuses the read at the Deno permission level when the loader's own check is bypassed", async () => {
  await using tree = await escapeTree({ symlink: false });
  // Every load request is told that the root is <tmp>, so the loader's path check (and the
  // worker's read guard) let the references to <tmp>/outside.txt through: only the worker's
  // Deno permissions, which runEval gave it for <tmp>/proj, stand in the way.
  const { value, workers } = await watchingWorkers(
    () => runEval({ files: [tree.evalFile], env: {}, cwd: tree.root }),
    (request) => request.op === "load" ? { ...request, root: tree.tmp } : request,
  );
  const sandbox = workers.find((w) => w.url.endsWith("/load_worker.ts"));
  assert.ok(sandbox, "the file was loaded in a sandbox worker");
  assert.deepEqual(sandbox.requests.map((r) => [r.op, r.root]), [["load", tree.tmp]]);
  assert.deepEqual((sandbox.permissions as Deno.PermissionOptionsObject).read, [tree.root]);
  assert.deepEqual(idsOf(value.rows), ["fine"]);
  const refused = value.summary.invalid.filter((d) => /outside\.txt/.test(d.message));
  assert.equal(refused.length, 2, JSON.stringify(value.summary.invalid, null, 2));
  // Not the loader's "outside the dataset root" refusal: the runtime's.
  for (const d of refused) assert.doesNotMatch(d.message, /outside the dataset root/);
  assert.ok(!JSON.stringify(value).includes(SECRET), "the secret was not read");
});

Deno.test("runEval({ sandbox: false }) loads in this process, with the loader's own checks", async () => {
  await using tree = await escapeTree({ symlink: true });
  const { value, workers } = await watchingWorkers(() =>
    runEval({ files: [tree.evalFile], env: {}, cwd: tree.root, sandbox: false })
  );
  assert.deepEqual(workers.filter((w) => w.url.endsWith("/load_worker.ts")), []);
  assert.deepEqual(idsOf(value.rows), ["fine"]);
  assert.equal(value.summary.invalid.filter((d) => d.severity === "error").length, 3);
  assert.ok(!JSON.stringify(value).includes(SECRET));
});
