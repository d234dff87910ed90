/**
 * The attack: the user trusts a dataset whose judge runs `sh ../judges/check.sh`, whose `cli`
 * target runs `sh scripts/agent.sh` and whose agent target's `executable` is a script in the
 * repository; a later commit edits the script, not the YAML. Consent covers every file a command
 * names, so the edited script is refused and the message names it. A file the script sources is
 * not named by any command: it is covered only when `agentv trust --include` names it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { project } from "../_helpers/run_project.ts";
import { exists, user } from "./_attack.ts";

const CLAUDE_STREAM = fileURLToPath(
  new URL("../../fixtures/agents/claude/bash_edit_and_failing_step.jsonl", import.meta.url),
);

const CHECK = `#!/bin/sh
. ../judges/lib/common.sh
echo '{"score": 1}'
`;

function files(dir: string) {
  return {
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    cwd: ..
    command_template: sh scripts/agent.sh
  - name: agent
    provider: claude-code
    executable: ${dir}/bin/claude
`,
    "scripts/agent.sh": "echo answer\n",
    "bin/claude": `#!/bin/sh\ncat > /dev/null\ncat '${CLAUDE_STREAM}'\n`,
    "judges/check.sh": CHECK,
    "judges/lib/common.sh": ": helpers\n",
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - name: check
        type: code_judge
        script: [sh, ../judges/check.sh]
`,
    "evals/agent.yaml": `execution:
  target: agent
evalcases:
  - {id: a1, expected_outcome: x, input: hi, evaluators: [{type: contains, value: ""}]}
`,
  };
}

async function hostile() {
  const p = await project({});
  for (const [rel, text] of Object.entries(files(p.dir))) {
    await Deno.mkdir(join(p.dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(p.dir, rel), text);
  }
  await Deno.chmod(join(p.dir, "bin/claude"), 0o755);
  return p;
}

Deno.test("a script a trusted judge names, edited after agentv trust, is refused and named", async () => {
  await using p = await hostile();
  await using me = await user({ PATH: Deno.env.get("PATH") ?? "" });
  const trusted = await me.agentv(["trust", "."], p.dir);
  assert.equal(trusted.code, 0, trusted.out + trusted.err);
  assert.match(
    trusted.out,
    /code_judge 'check' runs the command: "sh \.\.\/judges\/check\.sh"; it names judges\/check\.sh/,
  );
  const ran = await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(ran.code, 0, ran.out + ran.err);

  await Deno.writeTextFile(join(p.dir, "judges/check.sh"), "touch ../EDITED_RAN\n" + CHECK);
  const edited = await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(edited.code, 2, edited.out + edited.err);
  assert.match(edited.err, /note: judges\/check\.sh changed since it was trusted/);
  assert.equal(await exists(join(p.dir, "EDITED_RAN")), false);
});

Deno.test("the script of a cli target's command_template and an agent's executable are covered too", async () => {
  await using p = await hostile();
  await using me = await user({ PATH: Deno.env.get("PATH") ?? "" });
  assert.equal((await me.agentv(["trust", "."], p.dir)).code, 0);
  const first = await me.agentv(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.notEqual(first.code, 2, first.out + first.err);

  await Deno.writeTextFile(join(p.dir, "scripts/agent.sh"), "touch AGENT_EDITED; echo answer\n");
  const template = await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(template.code, 2, template.out + template.err);
  assert.match(template.err, /note: scripts\/agent\.sh changed since it was trusted/);
  assert.equal(await exists(join(p.dir, "AGENT_EDITED")), false);

  await Deno.writeTextFile(join(p.dir, "scripts/agent.sh"), "echo answer\n");
  await Deno.writeTextFile(
    join(p.dir, "bin/claude"),
    `#!/bin/sh\ntouch '${p.dir}/CLAUDE_EDITED'\n`,
  );
  const executable = await me.agentv(["run", "evals/agent.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(executable.code, 2, executable.out + executable.err);
  assert.match(executable.err, /note: bin\/claude changed since it was trusted/);
  assert.equal(await exists(join(p.dir, "CLAUDE_EDITED")), false);
});

Deno.test("a file a script sources is covered only with agentv trust --include", async () => {
  await using p = await hostile();
  await using me = await user({ PATH: Deno.env.get("PATH") ?? "" });
  assert.equal((await me.agentv(["trust", "."], p.dir)).code, 0);
  // Not covered: agentv cannot know what a script sources (the README says so).
  await Deno.writeTextFile(join(p.dir, "judges/lib/common.sh"), "touch ../SOURCED_RAN\n");
  const sourced = await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(sourced.code, 0, sourced.out + sourced.err);
  assert.equal(await exists(join(p.dir, "SOURCED_RAN")), true);
  await Deno.remove(join(p.dir, "SOURCED_RAN"));

  const included = await me.agentv(["trust", ".", "--include", "judges/lib/**"], p.dir);
  assert.equal(included.code, 0, included.out + included.err);
  assert.match(included.out, /--include matched: judges\/lib\/common\.sh/);
  assert.equal((await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir)).code, 0);
  await Deno.remove(join(p.dir, "SOURCED_RAN"));
  await Deno.writeTextFile(join(p.dir, "judges/lib/common.sh"), "touch ../SOURCED_AGAIN\n");
  const edited = await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(edited.code, 2, edited.out + edited.err);
  assert.match(
    edited.err,
    /note: judges\/lib\/common\.sh \(--include\) changed since it was trusted/,
  );
  assert.equal(await exists(join(p.dir, "SOURCED_AGAIN")), false);
  // A new file the glob matches asks again too.
  await Deno.writeTextFile(join(p.dir, "judges/lib/common.sh"), "touch ../SOURCED_RAN\n");
  await Deno.writeTextFile(join(p.dir, "judges/lib/more.sh"), ": more\n");
  const added = await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir);
  assert.equal(added.code, 2, added.out + added.err);
  assert.match(added.err, /judges\/lib\/more\.sh \(--include\) is new since the root was trusted/);
});

Deno.test("what a command writes through > or --out is not a file it names", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - type: code_judge
        script: "date > out.txt; date >> log.txt; echo '{\\"score\\": 1}'"
`,
  });
  await using me = await user({ PATH: Deno.env.get("PATH") ?? "" });
  assert.equal((await me.agentv(["trust", "."], p.dir)).code, 0);
  for (const out of ["o1.jsonl", "o2.jsonl"]) {
    const r = await me.agentv(["run", "evals", "--out", out], p.dir);
    assert.equal(r.code, 0, r.out + r.err);
  }
  assert.equal(await exists(join(p.dir, "evals/out.txt")), true);
});

Deno.test("agentv trust again after an edit names the files that changed, appeared or went away", async () => {
  await using p = await hostile();
  await using me = await user({ PATH: Deno.env.get("PATH") ?? "" });
  const first = await me.agentv(["trust", ".", "--include", "judges/lib/**"], p.dir);
  assert.equal(first.code, 0, first.out + first.err);
  assert.doesNotMatch(first.out, /since .* was trusted/);
  const again = await me.agentv(["trust", ".", "--include", "judges/lib/**"], p.dir);
  assert.match(again.out, /^Nothing changed since \. was trusted$/m);

  await Deno.writeTextFile(join(p.dir, "judges/check.sh"), "touch ../EDITED_RAN\n" + CHECK);
  await Deno.writeTextFile(join(p.dir, "judges/lib/common.sh"), ": edited\n");
  const edited = await me.agentv(["trust", ".", "--include", "judges/lib/**"], p.dir);
  assert.equal(edited.code, 0, edited.out + edited.err);
  const changes = edited.out.split(/^Since \. was trusted \([^)]+\):\n/m)[1]?.split("\nTrusted")[0];
  assert.deepEqual(changes?.trim().split("\n").map((l) => l.trim()).sort(), [
    "judges/check.sh changed since it was trusted",
    "judges/lib/common.sh (--include) changed since it was trusted",
  ]);
  // The edit is now trusted: the run goes ahead.
  assert.notEqual((await me.agentv(["run", "evals/a.yaml", "--out", "o.jsonl"], p.dir)).code, 2);
});
