/**
 * `extends:` in a targets file: a target takes another's settings and overrides some, so a sweep
 * is a few lines; an unknown parent ("did you mean"), a cycle, a value that is not a name and a
 * bad inherited setting are errors at `file:line:col` (the child's `extends:`); a child that
 * overrides its parent's bad setting is usable; what consent covers is listed for the resolved
 * child, at the line where its parent writes the command.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../mod.ts";
import { loadUsableTargets, validateTargetsFile } from "../../lib/dataset/targets_file.ts";
import { readTargetDefinitions } from "../../lib/dataset/targets_discovery.ts";
import { containsSuite, project } from "../_helpers/run_project.ts";
import { listedNeeds, user } from "../trust/_attack.ts";

const SWEEP = `targets:
  - name: base
    provider: mock
    response: ok base
    delay_ms: 1
    pricing: {input_per_mtok: 1, output_per_mtok: 2}
  - name: loud
    extends: base
    response: OK LOUD
  - name: louder
    extends: loud
    delay_ms: 2
`;

Deno.test("extends: a child takes its parent's settings (through a chain), its own win; a run uses the resolved child", async () => {
  await using p = await project({
    ".agentv/targets.yaml": SWEEP,
    "evals/a.yaml": containsSuite("d", [["c1", "OK"]]),
  });
  const file = await loadUsableTargets(join(p.dir, ".agentv/targets.yaml"));
  assert.deepEqual(file.diagnostics, []);
  assert.deepEqual(file.targets[2], {
    name: "louder",
    provider: "mock",
    response: "OK LOUD",
    delay_ms: 2,
    pricing: { input_per_mtok: 1, output_per_mtok: 2 },
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    target: ["base", "louder"],
    out: join(p.dir, "o.jsonl"),
  });
  const answers = Object.fromEntries(rows.map((r) => [r.target, r.candidate_answer]));
  assert.deepEqual(answers, { base: "ok base", louder: "OK LOUD" });
  const record = JSON.parse(await Deno.readTextFile(join(p.dir, "o.jsonl.run.json")));
  const louder = record.targets.find((t: { name: string }) => t.name === "louder");
  assert.equal(louder.settings.delay_ms, 2);
  assert.equal(louder.settings.response, "OK LOUD");
  assert.equal(louder.settings.extends, undefined);
});

Deno.test("extends: unknown parent, cycle and a non-name are errors at the child's extends, with did-you-mean", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: gpt-4o
    provider: mock
    response: hi
  - name: typo
    extends: gpt4o
  - name: a
    extends: b
  - name: b
    extends: a
  - name: self
    extends: self
  - name: odd
    extends: [gpt-4o]
  - name: fine
    extends: gpt-4o
    response: hello
`,
  });
  const path = join(p.dir, ".agentv/targets.yaml");
  const { valid, diagnostics } = await validateTargetsFile(path);
  assert.equal(valid, false);
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) =>
    `${d.line}:${d.column} ${d.path} ${d.message}`
  );
  assert.equal(errors.length, 5, errors.join("\n"));
  assert.match(
    errors[0],
    /^6:14 targets\[1\]\.extends Extends 'gpt4o' is not a target of this file; did you mean 'gpt-4o'\?; defined targets: gpt-4o, a, b, self, odd, fine$/,
  );
  assert.match(errors[1], /^8:14 targets\[2\]\.extends Extends makes a cycle \(a → b → a\)/);
  assert.match(errors[2], /^10:14 targets\[3\]\.extends Extends makes a cycle \(a → b → a\)/);
  assert.match(errors[3], /^12:14 targets\[4\]\.extends Extends makes a cycle \(self → self\)/);
  assert.match(errors[4], /^14:14 targets\[5\]\.extends Extends must name another target/);
  // Only the broken targets are set aside: the others stay usable.
  const usable = await loadUsableTargets(path);
  assert.deepEqual(usable.targets.map((t) => t.name), ["gpt-4o", "fine"]);
  assert.deepEqual([...usable.broken.keys()], ["typo", "a", "b", "self", "odd"]);
});

Deno.test("extends: a bad inherited setting is an error at the child's extends; overriding it makes the child usable", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: base
    provider: openai
    model: m
    api_key: sk-x
    temperature: 7
  - name: inherits
    extends: base
  - name: fixes
    extends: base
    temperature: 0.5
`,
  });
  const path = join(p.dir, ".agentv/targets.yaml");
  const { diagnostics } = await validateTargetsFile(path);
  const errors = diagnostics.filter((d) => d.severity === "error").map((d) =>
    `${d.line}:${d.column} ${d.message}`
  );
  assert.equal(errors.length, 2, errors.join("\n"));
  assert.match(errors[0], /^6:18 Temperature must be a number between 0 and 2$/);
  assert.match(
    errors[1],
    /^8:14 Inherited from 'base': temperature must be a number between 0 and 2$/,
  );
  const usable = await loadUsableTargets(path);
  assert.deepEqual(usable.targets.map((t) => t.name), ["fixes"]);
});

Deno.test("extends: an inherited command is listed for consent, at the line its parent writes it", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: agent
    provider: cli
    command_template: ./agent.sh {PROMPT}
  - name: agent-verbose
    extends: agent
    description: the same agent, listed again
`,
    "evals/a.yaml": containsSuite("d", [["c1", "ok"]], "execution:\n  target: agent-verbose\n"),
  });
  const defs = await readTargetDefinitions(join(p.dir, ".agentv/targets.yaml"));
  assert.equal(defs?.targets[1].command_template, "./agent.sh {PROMPT}");
  assert.deepEqual(defs?.locateTarget?.("agent-verbose", ["command_template"]), {
    line: 4,
    column: 23,
  });
  await using me = await user();
  const refused = await me.agentv(["run", "evals", "--target", "agent-verbose"], p.dir);
  assert.equal(refused.code, 2, refused.out + refused.err);
  const listed = listedNeeds(refused.err);
  assert.ok(
    listed.some((l) =>
      /^\.agentv\/targets\.yaml:4:23: .*'agent-verbose' runs the command:/.test(l)
    ),
    listed.join("\n") + refused.err,
  );
  const validated = await me.agentv(["validate", "."], p.dir);
  assert.ok(
    listedNeeds(validated.out).some((l) => /:4:23: .*'agent-verbose' runs the command/.test(l)),
    validated.out,
  );
});
