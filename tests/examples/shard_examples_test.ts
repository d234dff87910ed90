/**
 * The scale-out recipes under examples/ work: the Kubernetes manifests pass the Kubernetes API
 * schema (kubernetes-models' validators, generated from the Kubernetes OpenAPI definitions) and
 * run one shard per completion index on a shared volume; every agentv invocation in them and in
 * the GitHub Actions workflow parses with the real CLI's options; and the workflow's commands,
 * run as its matrix would run them, shard, merge and report a real eval file. The checks that
 * start processes (a type check of the manifests, the pod's shell script) are in
 * shard_examples_process_test.ts. (The workflow itself passes the workflow validators in tests/project/workflows_test.ts.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Job } from "kubernetes-models/batch/v1/Job";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { parse } from "yaml";
import denoJson from "../../deno.json" with { type: "json" };
import { parseCommandArgs } from "../../lib/cli/args.ts";
import { COMMANDS } from "../../lib/cli/commands.ts";
import { parseShardArg } from "../../lib/cli/shard_arg.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";
import { type Doc, documents, INDEXED_JOB, MERGE_JOB, WORKFLOW } from "./_manifests.ts";

/** Checks one manifest against the Kubernetes schema of its kind; throws what is wrong. */
function validateManifest(doc: Doc): void {
  if (doc.apiVersion === "batch/v1" && doc.kind === "Job") new Job(doc).validate();
  else if (doc.apiVersion === "v1" && doc.kind === "PersistentVolumeClaim") {
    new PersistentVolumeClaim(doc).validate();
  } else throw new Error(`no schema for ${doc.apiVersion} ${doc.kind}`);
}

/**
 * The agentv invocations of a shell script: continuation lines joined, redirections left out,
 * `$VAR`, `${VAR}` and `${{ expr }}` replaced from `values`, words split (double quotes kept
 * together).
 */
function agentvCalls(script: string, values: Record<string, string>): string[][] {
  const joined = script.replace(/\\\n\s*/g, " ");
  const calls: string[][] = [];
  for (const line of joined.split("\n")) {
    if (!/^\s*agentv\s/.test(line)) continue;
    const command = line.trim().replace(/\s*(>>?|\|\||&&|;).*$/, "");
    const expanded = command
      .replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e) => lookup(values, e))
      .replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, v) => lookup(values, v));
    const words = [...expanded.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
    calls.push(words.slice(1));
  }
  return calls;
}

/** The words with `dir/name-*.ext` globs expanded in `cwd`, as the shell would (sorted). */
function expandGlobs(words: string[], cwd: string): string[] {
  return words.flatMap((word) => {
    if (!word.includes("*")) return [word];
    const slash = word.lastIndexOf("/");
    const dir = word.slice(0, slash);
    const pattern = new RegExp(
      `^${word.slice(slash + 1).replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`,
    );
    const names = [...Deno.readDirSync(join(cwd, dir))].map((e) => e.name)
      .filter((n) => pattern.test(n)).sort();
    assert.ok(names.length > 0, `${word} matches no file`);
    return names.map((n) => `${dir}/${n}`);
  });
}

function lookup(values: Record<string, string>, name: string): string {
  const value = values[name];
  if (value === undefined) throw new Error(`no value for ${name} in an agentv invocation`);
  return value;
}

/** Parses an invocation with the real command's options (throws the user's UsageError). */
async function parseCall(words: string[]) {
  const [name, ...rest] = words;
  const entry = COMMANDS.find((c) => c.name === name);
  assert.ok(entry, `agentv ${name}: no such command`);
  const command = await entry.load();
  const parsed = parseCommandArgs(rest, command.options, { command: name });
  if (typeof parsed.values.shard === "string") parseShardArg(parsed.values.shard);
  return { name, parsed };
}

Deno.test("the Kubernetes examples pass the Kubernetes schema, which rejects broken manifests", async () => {
  const docs = [...await documents(INDEXED_JOB), ...await documents(MERGE_JOB)];
  assert.deepEqual(docs.map((d) => d.kind), ["PersistentVolumeClaim", "Job", "Job"]);
  for (const doc of docs) validateManifest(doc);
  const job = docs[1];
  const broken = [
    { ...job, spec: { ...job.spec, completionMode: "Indexd" } },
    { ...job, spec: { ...job.spec, completions: "4" } },
    { ...job, spec: { ...job.spec, template: { spec: { containers: [{ image: "x" }] } } } },
  ];
  for (const doc of broken) assert.throws(() => validateManifest(doc), JSON.stringify(doc.spec));
});

Deno.test("the Indexed Job runs shard $JOB_COMPLETION_INDEX of n in n pods onto the volume the merge Job reads", async () => {
  const [claim, job] = await documents(INDEXED_JOB);
  const [merge] = await documents(MERGE_JOB);
  assert.equal(job.spec.completionMode, "Indexed");
  const n = job.spec.completions;
  assert.equal(job.spec.parallelism, n);
  const container = job.spec.template.spec.containers[0];
  const shards = container.env.find((e: Doc) => e.name === "SHARDS")?.value;
  assert.equal(Number(shards), n, "SHARDS is the number of completions");
  const script: string = container.args.join("\n");
  assert.match(script, /--shard "\$JOB_COMPLETION_INDEX\/\$SHARDS"/);
  for (const pod of [job, merge]) {
    const spec = pod.spec.template.spec;
    assert.equal(spec.volumes[0].persistentVolumeClaim.claimName, claim.metadata.name);
    assert.equal(spec.containers[0].volumeMounts[0].mountPath, "/results");
    assert.equal(spec.containers[0].image, container.image, "one image: the same eval files");
  }
  assert.deepEqual(claim.spec.accessModes, ["ReadWriteMany"], "pods on several nodes write");
  // Every invocation parses; each completion index gives a valid shard of n.
  for (let index = 0; index < n; index++) {
    const values = { JOB_COMPLETION_INDEX: String(index), SHARDS: String(n), out: "/r/s.jsonl" };
    const calls = await Promise.all(agentvCalls(script, values).map(parseCall));
    assert.deepEqual(calls.map((c) => c.parsed.values.shard), [`${index}/${n}`, `${index}/${n}`]);
    assert.deepEqual(calls.map((c) => c.parsed.values.resume !== undefined), [true, false]);
  }
  const out = /out="([^"]+)"/.exec(script)?.[1].replace("$JOB_COMPLETION_INDEX", "*");
  const merged = await Promise.all(
    agentvCalls(merge.spec.template.spec.containers[0].args[0], {})
      .map(parseCall),
  );
  assert.deepEqual(merged.map((c) => c.name), ["merge", "report", "report", "report"]);
  assert.deepEqual(merged[0].parsed.positionals, [out], "merge reads every shard's file");
});

/** The `run:` scripts of a workflow job's steps. */
function runScripts(workflow: Doc, job: string): string[] {
  return workflow.jobs[job].steps.flatMap((s: Doc) => s.run ? [s.run] : []);
}

Deno.test("the GitHub Actions example's commands shard, merge and report a real eval file", async () => {
  const workflow = parse(await Deno.readTextFile(join(REPO_ROOT, WORKFLOW)));
  const shards: number[] = workflow.jobs.shard.strategy.matrix.shard;
  assert.deepEqual(shards, [...shards.keys()], "shard indices 0 to n-1");
  const install = runScripts(workflow, "shard").join("\n");
  assert.match(install, new RegExp(`jsr:@agentv/agentv@${denoJson.version}/cli`), "the version");

  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    echo: true\n",
    "evals/a.yaml": "evalcases:\n" +
      [...Array(8).keys()].map((i) =>
        `  - id: c${i}\n    expected_outcome: echoes\n    input: word-${i}\n` +
        `    evaluators: [{type: contains, value: word-${i}}]\n`
      ).join(""),
  });
  // Each matrix job, then what the artifacts bring to the merge job: the same folder.
  for (const shard of shards) {
    const values = { "matrix.shard": String(shard), "strategy.job-total": String(shards.length) };
    for (const script of runScripts(workflow, "shard")) {
      for (const words of agentvCalls(script, values)) {
        await parseCall(words);
        const r = await cli(expandGlobs(words, p.dir), p.dir);
        assert.equal(r.code, 0, r.out + r.err);
      }
    }
  }
  const reports: string[] = [];
  for (const script of runScripts(workflow, "merge")) {
    for (const words of agentvCalls(script, { GITHUB_STEP_SUMMARY: "summary.md" })) {
      const { name } = await parseCall(words);
      const r = await cli(expandGlobs(words, p.dir), p.dir);
      assert.equal(r.code, 0, `${words.join(" ")}: ${r.out}${r.err}`);
      if (name === "report") reports.push(words.join(" "));
    }
  }
  assert.equal(reports.length, 3);
  const results = join(p.dir, "agentv-results/results.jsonl");
  assert.equal((await rowsOf(results)).length, 8);
  assert.equal((await readRunRecord(runRecordPath(results))).merged_from?.length, shards.length);
  for (const file of ["junit.xml", "report.html"]) {
    assert.ok((await Deno.stat(join(p.dir, "agentv-results", file))).size > 0, file);
  }
});
