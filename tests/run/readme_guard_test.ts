/**
 * The sections on repo-backed tasks and the integrity guard (docs/coding-agents.md) stay true: their YAML loads,
 * the default test commands listed are the code's, the findings table names every kind, and every
 * word it says makes a sentence no claim does so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadEvalCases } from "../../mod.ts";
import { INTEGRITY_FINDING_KINDS } from "../../lib/schema/integrity.ts";
import { successClaim } from "../../lib/scoring/success_claims.ts";
import { DEFAULT_TEST_COMMANDS } from "../../lib/scoring/test_commands.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const page = await Deno.readTextFile(new URL("../../docs/coding-agents.md", import.meta.url));
const section = page.slice(page.indexOf("## Tasks backed by a repository"));

Deno.test("the docs' workspace_repo and integrity examples load without a problem", async () => {
  const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 2);
  const fragment = "evalcases:\n  - id: a\n    expected_outcome: x\n    input: x\n";
  await using tree = await tempTree({
    "evals/repo.yaml": blocks[0],
    "evals/guard.yaml": blocks[1] + fragment,
  }, { git: true });
  for (const file of ["evals/repo.yaml", "evals/guard.yaml"]) {
    const problems: string[] = [];
    const cases = await loadEvalCases(join(tree.dir, file), {
      onDiagnostic: (d) => problems.push(d.message),
    });
    assert.deepEqual(problems, [], file);
    assert.equal(cases.length, 1, file);
  }
});

Deno.test("the docs list the default test commands and every finding kind", () => {
  const listed = /<!-- test-commands:start -->([\s\S]*?)<!-- test-commands:end -->/.exec(section);
  assert.ok(listed, "the defaults are listed between markers");
  assert.deepEqual([...listed[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]), DEFAULT_TEST_COMMANDS);
  const kinds = [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1]);
  assert.deepEqual(kinds, [...INTEGRITY_FINDING_KINDS]);
});

Deno.test("every word the docs say makes a sentence no claim does so", () => {
  const bullet = section.slice(section.indexOf("- **Claims.**"), section.indexOf("Not detected"));
  const words = bullet.slice(bullet.indexOf("`not`"), bullet.indexOf("is never a claim"));
  const examples: Record<string, string> = {
    "n't": "don't",
    "fail…": "failing",
    "expect…": "expected",
    "assum…": "assuming",
  };
  const listed = [...words.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  assert.ok(listed.length >= 20, listed.join(" "));
  for (const word of listed) {
    const sentence = `All tests pass, ${examples[word] ?? word} here.`;
    assert.equal(successClaim(sentence), undefined, sentence);
  }
  assert.equal(successClaim("All tests pass, here."), "All tests pass, here.");
});
