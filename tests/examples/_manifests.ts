/**
 * The scale-out examples' files and their YAML documents, for the example tests.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

/** The GitHub Actions workflow that shards a run. */
export const WORKFLOW = "examples/github-actions/agentv-shards.yml";
/** The Kubernetes Indexed Job (and its volume claim) that runs one shard per pod. */
export const INDEXED_JOB = "examples/kubernetes/agentv-indexed-job.yaml";
/** The Kubernetes Job that merges the shards. */
export const MERGE_JOB = "examples/kubernetes/agentv-merge-job.yaml";

// deno-lint-ignore no-explicit-any
export type Doc = any;

/** The YAML documents of a file of the repository, failing on any YAML error. */
export async function documents(path: string): Promise<Doc[]> {
  const text = await Deno.readTextFile(join(REPO_ROOT, path));
  return parseAllDocuments(text).map((d) => {
    assert.deepEqual(d.errors, [], `${path}: YAML errors`);
    return d.toJS();
  });
}
