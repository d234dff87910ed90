/**
 * Subprocesses a dataset defines (code judges, cli targets, healthchecks) get a scrubbed
 * environment: PATH, HOME, LANG, TMPDIR and the names listed under `env:`; never API keys or
 * `.env` values unless listed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../mod.ts";
import { project } from "../_helpers/run_project.ts";

const ENV = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: "/home/tester",
  OPENAI_API_KEY: "sk-process-secret-123456",
  LISTED_FLAG: "yes",
  UNLISTED_FLAG: "no",
};

/** A judge (a shell script) that reports the names of the variables it sees. */
const ENV_JUDGE = `cat > /dev/null
printf '{"score": 1, "details": "%s"}' "$(env | cut -d= -f1 | sort | tr '\\n' ' ')"
`;

Deno.test("a subprocess code judge sees only PATH, HOME, LANG, TMPDIR and its listed env names", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
    ".env": "DOTENV_SECRET=from-dotenv-file\nLISTED_DOTENV=visible\n",
    "judge.sh": ENV_JUDGE,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - name: plain
        type: code_judge
        script: [sh, ../judge.sh]
      - name: listed
        type: code_judge
        script: [sh, ../judge.sh]
        env: [LISTED_FLAG, LISTED_DOTENV]
`,
  });
  const { rows } = await runEval({
    files: ["evals/a.yaml"],
    env: ENV,
    cwd: p.dir,
    allowRun: true,
  });
  const seen = (name: string) =>
    (rows[0].evaluator_results.find((e) => e.name === name)!.details as string).split(" ")
      .filter((n) => n !== "" && !["PWD", "SHLVL", "_", "OLDPWD"].includes(n));
  assert.deepEqual(seen("plain"), ["HOME", "PATH"]);
  assert.deepEqual(seen("listed"), ["HOME", "LISTED_DOTENV", "LISTED_FLAG", "PATH"]);
  assert.doesNotMatch(JSON.stringify(rows[0]), /OPENAI_API_KEY|DOTENV_SECRET|UNLISTED_FLAG/);
});

Deno.test("a cli target sees no API key or .env value unless its env lists the name", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: env | cut -d= -f1 | sort | tr '\\n' ' '
  - name: listed
    provider: cli
    command_template: env | cut -d= -f1 | sort | tr '\\n' ' '
    env: [UNLISTED_FLAG, DOTENV_SECRET]
`,
    ".env": "DOTENV_SECRET=from-dotenv-file\n",
    "evals/a.yaml": `evalcases:
  - {id: c1, expected_outcome: x, input: hi, evaluators: [{type: contains, value: PATH}]}
`,
  });
  const run = (target: string) =>
    runEval({
      files: [join(p.dir, "evals/a.yaml")],
      env: ENV,
      cwd: p.dir,
      allowRun: true,
      target,
    });
  const names = async (target: string) =>
    (await run(target)).rows[0].candidate_answer.split(/\s+/).filter((n) =>
      n !== "" && !["PWD", "SHLVL", "_", "OLDPWD"].includes(n)
    );
  assert.deepEqual(await names("default"), ["HOME", "PATH"]);
  assert.deepEqual(await names("listed"), ["DOTENV_SECRET", "HOME", "PATH", "UNLISTED_FLAG"]);
});
