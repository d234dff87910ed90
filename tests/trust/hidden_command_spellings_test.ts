/**
 * The attack: a dataset hides a command behind a spelling the loader accepts but a text scan
 * misses — `type: "code\x5fjudge"` (a YAML escape), `"type":"code\u005fjudge"` (a JSON escape),
 * `provider: CLI`, `Cli` or `" cli"` — next to a visible command the user reviews and allows.
 * Consent is built from what the loader loaded, so each one is listed at its place and refused
 * until the user allows it, and a command added after `agentv trust` is refused too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval, UntrustedDatasetError } from "../../mod.ts";
import { project } from "../_helpers/run_project.ts";
import { exists, listedNeeds, user } from "./_attack.ts";

const SCORE = `echo '{\\"score\\": 1}'`;

/** An eval file whose one case has a visible command judge, then `extra` evaluators. */
function evalYaml(extra = ""): string {
  return `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - name: visible
        type: code_judge
        script: "${SCORE}"
${extra}`;
}

/** A judge spelt with a YAML escape: the loader reads `code_judge`. */
const YAML_ESCAPED = `      - name: hidden
        type: "code\\x5fjudge"
        script: "touch HIDDEN_RAN; ${SCORE}"
`;

/** A JSONL case whose judge is spelt with a JSON escape: the loader reads `code_judge`. */
const JSONL_ESCAPED = JSON.stringify({
  id: "j1",
  expected_outcome: "x",
  input: "hi",
  evaluators: [{ name: "hidden", type: "code_judge", script: `touch HIDDEN_RAN; echo '{}'` }],
}).replace('"type":"code_judge"', '"type":"code\\u005fjudge"') + "\n";

const MOCK_TARGETS = "targets:\n  - {name: default, provider: mock, response: hi}\n";

Deno.test("code\\x5fjudge (a YAML escape) is listed at its line and refused: nothing runs", async () => {
  await using p = await project({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/a.yaml": evalYaml(YAML_ESCAPED),
  });
  await using me = await user();
  const r = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 2, r.out + r.err);
  assert.deepEqual(listedNeeds(r.err), [
    `evals/a.yaml:11:17: code_judge 'hidden' runs the command: "touch HIDDEN_RAN; echo '{\\"score\\": 1}'"`,
    `evals/a.yaml:8:17: code_judge 'visible' runs the command: "echo '{\\"score\\": 1}'"`,
  ]);
  assert.equal(await exists(join(p.dir, "evals/HIDDEN_RAN")), false);
});

Deno.test("code\\u005fjudge (a JSON escape in a JSONL line) is listed at its column and refused", async () => {
  await using p = await project({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/a.yaml": evalYaml(),
    "evals/b.jsonl": JSONL_ESCAPED,
  });
  await using me = await user();
  const r = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 2, r.out + r.err);
  const column = JSONL_ESCAPED.indexOf('"touch') + 1;
  assert.ok(
    listedNeeds(r.err).includes(
      `evals/b.jsonl:1:${column}: code_judge 'hidden' runs the command: "touch HIDDEN_RAN; echo '{}'"`,
    ),
    r.err,
  );
  assert.equal(await exists(join(p.dir, "evals/HIDDEN_RAN")), false);
});

for (const spelling of ["CLI", "Cli", '" cli"']) {
  Deno.test(`provider: ${spelling} is a cli target: listed and refused, its command never starts`, async () => {
    await using p = await project({
      ".agentv/targets.yaml":
        `targets:\n  - name: default\n    provider: ${spelling}\n    command_template: touch TARGET_RAN; echo hi\n`,
      "evals/a.yaml": evalYaml(),
    });
    await using me = await user();
    const r = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
    assert.equal(r.code, 2, r.out + r.err);
    assert.ok(
      listedNeeds(r.err).includes(
        `.agentv/targets.yaml:4:23: cli target 'default' runs the command: "touch TARGET_RAN; echo hi"`,
      ),
      r.err,
    );
    assert.equal(await exists(join(p.dir, "evals/TARGET_RAN")), false);
  });
}

Deno.test("a hidden command added after agentv trust was given for the visible one is refused", async () => {
  await using p = await project({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/a.yaml": evalYaml(),
  });
  await using me = await user();
  const trusted = await me.agentv(["trust", "."], p.dir);
  assert.equal(trusted.code, 0, trusted.out + trusted.err);
  assert.equal((await me.agentv(["run", "evals", "--out", "o1.jsonl"], p.dir)).code, 0);

  // The attacker's next commit: the same file gains a hidden judge, and a new file another.
  await Deno.writeTextFile(join(p.dir, "evals/a.yaml"), evalYaml(YAML_ESCAPED));
  await Deno.writeTextFile(join(p.dir, "evals/b.jsonl"), JSONL_ESCAPED);
  const r = await me.agentv(["run", "evals", "--out", "o2.jsonl"], p.dir);
  assert.equal(r.code, 2, r.out + r.err);
  assert.match(r.err, /note: evals\/a\.yaml changed since it was trusted/);
  assert.match(r.err, /note: evals\/b\.jsonl is new since the root was trusted/);
  assert.match(r.err, /code_judge 'hidden' in evals\/a\.yaml was not listed when the root was/);
  assert.equal(await exists(join(p.dir, "evals/HIDDEN_RAN")), false);

  // Back to what was trusted, it runs again; a target spelt `Cli` added next is refused too.
  await Deno.writeTextFile(join(p.dir, "evals/a.yaml"), evalYaml());
  await Deno.remove(join(p.dir, "evals/b.jsonl"));
  assert.equal((await me.agentv(["run", "evals", "--out", "o3.jsonl"], p.dir)).code, 0);
  await Deno.writeTextFile(
    join(p.dir, ".agentv/targets.yaml"),
    MOCK_TARGETS + "  - {name: other, provider: Cli, command_template: touch TARGET_RAN}\n",
  );
  const added = await me.agentv(["run", "evals", "--target", "other", "--out", "o4.jsonl"], p.dir);
  assert.equal(added.code, 2, added.out + added.err);
  assert.match(added.err, /cli target 'other' runs the command: "touch TARGET_RAN"/);
  assert.equal(await exists(join(p.dir, "evals/TARGET_RAN")), false);
});

Deno.test("a consent given after reviewing only the visible command covers nothing hidden", async () => {
  await using p = await project({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/a.yaml": evalYaml(YAML_ESCAPED),
    "evals/b.jsonl": JSONL_ESCAPED,
  });
  // The user allows a root when every need it lists is one they reviewed: the visible judge.
  const reviewed = new Set(["visible"]);
  const error = await runEval({
    files: ["evals"],
    env: {},
    cwd: p.dir,
    allowRun: (request) =>
      request.files.every((f) => f.commands.every((c) => reviewed.has(c.name))),
  }).then(() => undefined, (e) => e);
  assert.ok(error instanceof UntrustedDatasetError, String(error));
  assert.deepEqual(
    error.diagnostics.map((d) => `${d.file.slice(p.dir.length + 1)}:${d.line}`).sort(),
    ["evals/a.yaml:11", "evals/a.yaml:8", "evals/b.jsonl:1"],
  );
  assert.equal(await exists(join(p.dir, "evals/HIDDEN_RAN")), false);
});

Deno.test("what agentv trust lists is what runs: the hidden judge, once listed and trusted, runs", async () => {
  await using p = await project({
    ".agentv/targets.yaml": MOCK_TARGETS,
    "evals/a.yaml": evalYaml(YAML_ESCAPED),
  });
  await using me = await user();
  const refused = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  const trusted = await me.agentv(["trust", "."], p.dir);
  assert.equal(trusted.code, 0, trusted.err);
  assert.deepEqual(listedNeeds(trusted.out), listedNeeds(refused.err));
  const ran = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(ran.code, 0, ran.out + ran.err);
  assert.equal(await exists(join(p.dir, "evals/HIDDEN_RAN")), true);
});
