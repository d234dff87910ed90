/**
 * The trust gate: commands a dataset defines (subprocess code judges, `cli` targets and
 * healthchecks in a targets file inside the root) run only when the user allowed them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval, type RunPermissionRequest, UntrustedDatasetError } from "../../mod.ts";
import { cli, project } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

const EVAL = `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - type: contains
        value: hi
      - name: pwn
        type: code_judge
        script: "id > PWNED; echo '{\\"score\\": 1}'"
`;
const TARGETS = `targets:
  - name: default
    provider: cli
    command_template: echo hi > /dev/null; touch TARGET_RAN; echo hi
    healthcheck:
      type: command
      command_template: touch HEALTHCHECK_RAN
`;

function hostile() {
  return project({ ".agentv/targets.yaml": TARGETS, "evals/a.yaml": EVAL });
}

async function nothingRan(dir: string): Promise<void> {
  for (const name of ["evals/PWNED", "evals/TARGET_RAN", "evals/HEALTHCHECK_RAN"]) {
    assert.equal(await exists(join(dir, name)), false, `${name} exists: something ran`);
  }
}

Deno.test("an untrusted dataset exits 2 before anything runs, naming each command at file:line:col and both fixes", async () => {
  await using p = await hostile();
  await using config = await tempTree({});
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir, {
    env: { XDG_CONFIG_HOME: config.dir },
  });
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.err, /evals\/a\.yaml:10:17: error: code_judge 'pwn' runs the command/);
  assert.match(r.err, /\.agentv\/targets\.yaml:4:23: error: cli target 'default' runs the command/);
  assert.match(r.err, /\.agentv\/targets\.yaml:7:25: error: healthcheck of target 'default'/);
  assert.match(r.err, /--allow-run/);
  assert.match(r.err, /agentv trust/);
  assert.match(r.err, /nothing ran/);
  await nothingRan(p.dir);
  assert.equal(await exists(join(p.dir, "o.jsonl")), false, "a results file was written");
});

Deno.test("--allow-run runs the dataset's commands for one run", async () => {
  await using p = await hostile();
  await using config = await tempTree({});
  const env = { XDG_CONFIG_HOME: config.dir };
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir, { env });
  assert.equal(r.code, 0, r.out + r.err);
  assert.equal(await exists(join(p.dir, "evals/PWNED")), true);
  assert.equal(await exists(join(p.dir, "evals/HEALTHCHECK_RAN")), true);
  assert.equal(await exists(join(p.dir, "evals/TARGET_RAN")), true);
  // Nothing was remembered: the next run asks again.
  const again = await cli(["run", "evals", "--out", "o2.jsonl"], p.dir, { env });
  assert.equal(again.code, 2);
});

Deno.test("agentv trust remembers the root; editing a file that defines commands asks again", async () => {
  await using p = await hostile();
  await using config = await tempTree({});
  const env = { XDG_CONFIG_HOME: config.dir };
  const trusted = await cli(["trust"], p.dir, { env });
  assert.equal(trusted.code, 0, trusted.out + trusted.err);
  assert.match(trusted.out, /code_judge 'pwn'/);
  assert.match(trusted.out, /3 commands in 2 files/);
  const store = JSON.parse(await Deno.readTextFile(join(config.dir, "agentv", "trust.json")));
  const record = Object.values(store.roots)[0] as { files: Record<string, string> };
  assert.equal(Object.keys(record.files).length, 2);
  assert.match(Object.values(record.files)[0], /^[0-9a-f]{64}$/);

  const listed = await cli(["trust", "--list"], p.dir, { env });
  assert.match(listed.out, new RegExp(p.dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));

  const ran = await cli(["run", "evals", "--out", "o.jsonl"], p.dir, { env });
  assert.equal(ran.code, 0, ran.out + ran.err);
  assert.equal(await exists(join(p.dir, "evals/PWNED")), true);
  await Deno.remove(join(p.dir, "evals/PWNED"));

  // A changed eval file is not the one the user trusted.
  await Deno.writeTextFile(join(p.dir, "evals/a.yaml"), EVAL.replace("id > PWNED", "id > PWNED2"));
  const changed = await cli(["run", "evals", "--out", "o2.jsonl"], p.dir, { env });
  assert.equal(changed.code, 2, changed.out + changed.err);
  assert.match(changed.err, /code_judge 'pwn'/);
  assert.equal(await exists(join(p.dir, "evals/PWNED2")), false);

  // Trusting again, then revoking, asks again too.
  assert.equal((await cli(["trust", "."], p.dir, { env })).code, 0);
  assert.equal((await cli(["run", "evals", "--out", "o3.jsonl"], p.dir, { env })).code, 0);
  assert.equal((await cli(["trust", "--revoke"], p.dir, { env })).code, 0);
  assert.equal((await cli(["run", "evals", "--out", "o4.jsonl"], p.dir, { env })).code, 2);
});

Deno.test("a targets file outside the dataset root is the user's own and needs no trust", async () => {
  await using p = await project({
    "evals/a.yaml":
      `evalcases:\n  - {id: c1, expected_outcome: x, input: hi, evaluators: [{type: contains, value: hi}]}\n`,
  });
  await using mine = await tempTree({
    "targets.yaml": "targets:\n  - {name: default, provider: cli, command_template: echo hi}\n",
  });
  const r = await cli(
    ["run", "evals", "--targets", join(mine.dir, "targets.yaml"), "--out", "o.jsonl"],
    p.dir,
  );
  assert.equal(r.code, 0, r.out + r.err);
});

Deno.test("module code judges and --dry-run need no trust", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
    "judge.ts": "export default () => ({ score: 1 });\n",
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - {type: code_judge, module: ../judge.ts}
      - {type: code_judge, script: "id > PWNED"}
`,
  });
  const { rows } = await runEval({ files: ["evals/a.yaml"], env: {}, cwd: p.dir, dryRun: true });
  assert.equal(rows.length, 1);
  const moduleOnly = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    filter: "c1",
  }).catch((e) => e);
  // The script judge still needs permission; the module judge alone would not.
  assert.ok(moduleOnly instanceof UntrustedDatasetError);
  assert.equal(moduleOnly.diagnostics.length, 1);
});

Deno.test("runEval refuses dataset commands by default and asks an allowRun function per root", async () => {
  await using p = await hostile();
  const error = await runEval({ files: ["evals/a.yaml"], env: {}, cwd: p.dir }).catch((e) => e);
  assert.ok(error instanceof UntrustedDatasetError, String(error));
  const lines = error.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`).sort();
  assert.deepEqual(lines, [
    `${join(p.dir, ".agentv/targets.yaml")}:4:23`,
    `${join(p.dir, ".agentv/targets.yaml")}:7:25`,
    `${join(p.dir, "evals/a.yaml")}:10:17`,
  ]);
  assert.match(error.hint ?? "", /allowRun/);
  await nothingRan(p.dir);

  const asked: RunPermissionRequest[] = [];
  const { rows } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    allowRun: (request) => {
      asked.push(request);
      return true;
    },
  });
  assert.equal(rows[0].status, "ok", rows[0].error ?? "");
  assert.equal(asked.length, 1);
  assert.equal(asked[0].root, p.dir);
  assert.deepEqual(asked[0].files.map((f) => f.sha256.length), [64, 64]);
});

Deno.test("generate rubrics with a cli judge target from the dataset root needs trust too", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - {name: default, provider: cli, command_template: touch JUDGE_RAN}\n",
    "evals/a.yaml": "evalcases:\n  - {id: c1, expected_outcome: Says hi, input: hi}\n",
  });
  await using config = await tempTree({});
  const r = await cli(["generate", "rubrics", "evals/a.yaml"], p.dir, {
    env: { XDG_CONFIG_HOME: config.dir },
  });
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.err, /\.agentv\/targets\.yaml:2:\d+: error: cli target 'default'/);
  assert.match(r.err, /--allow-run/);
  assert.equal(await exists(join(p.dir, "evals/JUDGE_RAN")), false);
});
