/** Loader: guideline patterns, by default and from the nearest `.agentv/config.yaml`. */
import assert from "node:assert/strict";
import { dataset, load, yamlCase } from "./_helpers.ts";

Deno.test("default guideline patterns apply without a config", async () => {
  await using ds = await dataset({
    "SKILL.md": "skill",
    "a.prompt.md": "prompt",
    "deep/x/b.instructions.md": "instructions",
    "plain.md": "plain",
    "evals/e.yaml": "evalcases:\n" + yamlCase(
      "c",
      "    input:\n      - role: user\n        content:\n" +
        ["SKILL.md", "a.prompt.md", "deep/x/b.instructions.md", "plain.md"]
          .map((f) => `          - { type: file, value: ${f} }\n`).join(""),
    ).replace("    input: Query\n", ""),
  });
  const { cases, diagnostics } = await load(ds.path("evals/e.yaml"));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases[0].guideline_paths, [
    ds.path("SKILL.md"),
    ds.path("a.prompt.md"),
    ds.path("deep/x/b.instructions.md"),
  ]);
  assert.deepEqual(cases[0].file_paths.at(-1), ds.path("plain.md"));
});

Deno.test("the nearest .agentv/config.yaml between the file and the root applies", async () => {
  await using ds = await dataset({
    ".agentv/config.yaml": 'guideline_patterns: ["*.md"]\n',
    "evals/.agentv/config.yaml": 'guideline_patterns: ["*.rules"]\n',
    "evals/a.md": "md",
    "evals/b.rules": "rules",
    "evals/e.yaml": "evalcases:\n" + yamlCase(
      "c",
      "    input:\n      - role: user\n        content:\n" +
        "          - { type: file, value: a.md }\n          - { type: file, value: b.rules }\n",
    ).replace("    input: Query\n", ""),
  });
  const { cases } = await load(ds.path("evals/e.yaml"), { root: ds.root });
  assert.deepEqual(cases[0].guideline_paths, [ds.path("evals/b.rules")]);
});
