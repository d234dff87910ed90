/**
 * The scale-out recipes under examples/, as processes: the Kubernetes manifests type-check against
 * kubernetes-models' types (`deno check`), and the Indexed Job's pod script runs the real CLI in
 * a POSIX shell, shard by shard, resumes a retried pod, and the merge Job joins the shards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { project, rowsOf } from "../_helpers/run_project.ts";
import { documents, INDEXED_JOB, MERGE_JOB } from "./_manifests.ts";

Deno.test("the Kubernetes examples use only fields of the Kubernetes API (type check against its types)", async () => {
  // The schema validators accept unknown keys (the API server rejects them): a type check of
  // the manifests as object literals of kubernetes-models' types finds them. A typo below must
  // be found too (an unused @ts-expect-error fails the check).
  const docs = [...await documents(INDEXED_JOB), ...await documents(MERGE_JOB)];
  const types: Record<string, string> = {
    Job: "IJob",
    PersistentVolumeClaim: "IPersistentVolumeClaim",
  };
  const source = `import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
${
    docs.map((d, i) => `export const doc${i}: ${types[d.kind]} = ${JSON.stringify(d, null, 2)};`)
      .join("\n")
  }
export const typo: IJob = {
  apiVersion: "batch/v1",
  kind: "Job",
  spec: {
    // @ts-expect-error: completionsMode is not a field of JobSpec
    completionsMode: "Indexed",
    template: {},
  },
};
`;
  const dir = await Deno.makeTempDir({ prefix: "agentv-k8s-types-" });
  try {
    const file = join(dir, "manifests.ts");
    await Deno.writeTextFile(file, source);
    const checked = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", join(REPO_ROOT, "deno.json"), file],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = new TextDecoder().decode(checked.stderr);
    assert.equal(checked.code, 0, output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "the Indexed Job's pod script runs its shard, a retried pod resumes it, and the merge Job joins them",
  // The pods run a POSIX shell (sh), as in the image.
  ignore: Deno.build.os === "windows",
}, async () => {
  const [, job] = await documents(INDEXED_JOB);
  const [merge] = await documents(MERGE_JOB);
  const podScript: string = job.spec.template.spec.containers[0].args[0];
  const mergeScript: string = merge.spec.template.spec.containers[0].args[0];
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    echo: true\n",
    "evals/a.yaml": "evalcases:\n" +
      [...Array(4).keys()].map((i) =>
        `  - id: c${i}\n    expected_outcome: echoes\n    input: word-${i}\n` +
        `    evaluators: [{type: contains, value: "${i === 0 ? "nope" : `word-${i}`}"}]\n`
      ).join(""),
    // `agentv` as the image installs it: the real CLI with deno task agentv's permissions.
    "bin/agentv":
      `#!/bin/sh\nexec "${Deno.execPath()}" run --allow-read --allow-write --allow-env ` +
      `--allow-net=127.0.0.1 --allow-run --unstable-worker-options "${
        join(REPO_ROOT, "main.ts")
      }" "$@"\n`,
  });
  await Deno.chmod(join(p.dir, "bin/agentv"), 0o755);
  const results = join(p.dir, "results");
  await Deno.mkdir(results);
  // The pod's shell, in the image's working folder, with the volume at `results/`.
  const pod = async (script: string, env: Record<string, string>) => {
    const output = await new Deno.Command("sh", {
      args: ["-c", script.replaceAll("/results", results)],
      cwd: p.dir,
      env: { ...env, PATH: `${join(p.dir, "bin")}:${Deno.env.get("PATH") ?? ""}` },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return { code: output.code, out: text.decode(output.stdout) + text.decode(output.stderr) };
  };
  const shards = Number(job.spec.template.spec.containers[0].env[0].value);
  const env = (i: number) => ({ JOB_COMPLETION_INDEX: String(i), SHARDS: String(shards) });
  // c0 fails its check: its shard's run exits 1, which the pod reports as done (exit 0).
  for (let i = 0; i < shards; i++) {
    const first = await pod(podScript, env(i));
    assert.equal(first.code, 0, first.out);
  }
  // A pod started again (evicted, node lost) finds its shard's run record and resumes it.
  const retried = await pod(podScript, env(0));
  assert.equal(retried.code, 0, retried.out);
  assert.match(retried.out, /Resuming .*shard-/);
  const merged = await pod(mergeScript, {});
  assert.equal(merged.code, 1, merged.out); // c0 fails: the merge Job fails, the gate
  assert.match(merged.out, /Merged \d+ shards \(4 rows\)/);
  const rows = await rowsOf(join(results, "all.jsonl"));
  assert.deepEqual(rows.map((r) => r.eval_id), ["c0", "c1", "c2", "c3"], "each case once");
  for (const file of ["junit.xml", "report.html"]) {
    assert.ok((await Deno.stat(join(results, file))).size > 0, file);
  }
});
