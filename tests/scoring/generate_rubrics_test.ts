import assert from "node:assert/strict";
import { generateRubrics } from "../../lib/scoring/generate_rubrics.ts";
import { readYaml } from "../../lib/dataset/yaml_edit.ts";
import { type RecordedRequest, startProviderServer } from "../_helpers/provider_servers.ts";
import { FIXTURES, judgeOver, userPrompt } from "./judged/_judge.ts";

/** Two rubrics named after the first word of the expected outcome. */
function rubricsFor(request: RecordedRequest): string {
  const outcome =
    userPrompt(request.body).split("[[ ## expected_outcome ## ]]\n")[1].split("\n")[0];
  const word = outcome.split(" ")[0].toLowerCase();
  return "Here you go:\n```json\n" + JSON.stringify({
    rubrics: [
      { id: `${word}-1`, description: `${outcome}: first` },
      { id: `${word}-2`, description: "Is concise", weight: 0.5, required: false },
    ],
  }) + "\n```";
}

function assertIncludes(text: string, part: string) {
  assert.ok(text.includes(part), `missing:\n${part}\n---in---\n${text}`);
}

async function copyFixture(name: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/${name}`;
  await Deno.copyFile(`${FIXTURES}/generate/${name}`, path);
  return path;
}

Deno.test("generateRubrics writes rubrics into a YAML copy, keeping comments and layout", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: rubricsFor },
  });
  const file = await copyFixture("dataset.yaml");
  try {
    const before = await Deno.readTextFile(file);
    const result = await generateRubrics(file, { judge: judgeOver(server), concurrency: 2 });
    assert.deepEqual(result.updated, ["needs-rubrics", "flow-case", "last-case"]);
    assert.deepEqual(result.skipped, [
      { id: "has-rubrics", reason: "already has rubrics" },
      { id: "no-outcome-yet", reason: "no expected_outcome" },
    ]);
    assert.deepEqual(result.failed, []);
    assert.equal(result.diff, undefined);
    const after = await Deno.readTextFile(file);
    // Every original line is still there, in order (only lines were added or the flow line grew).
    const kept = after.split("\n");
    for (const line of before.split("\n").filter((l) => !l.includes("flow-case"))) {
      assert.ok(kept.includes(line), `lost line: ${line}`);
    }
    assert.match(
      after,
      /^# Rubric generation fixture: comments, quoting and blank lines must survive\./,
    );
    assert.ok(after.includes('description: "Generate me"   # trailing comment'));
    assertIncludes(
      after,
      "    expected_output: 'A function that calls itself until a base case.'\n    rubrics:\n" +
        "      - id: explains-1\n" +
        '        description: "Explains recursion with a base case: first"\n' +
        "        weight: 1\n        required: true\n      - id: explains-2\n" +
        "        description: Is concise\n        weight: 0.5\n        required: false\n\n" +
        "  # second case: already has rubrics\n",
    );
    assert.match(
      after,
      /- \{id: flow-case, expected_outcome: "Counts to three", input: "Count", rubrics: \[\{"id":"counts-1"/,
    );
    assert.match(
      after,
      /\n {8}content: Name three colours\n {4}rubrics:\n {6}- id: lists-1\n[\s\S]*\n {4}# trailing comment inside the last case\n$/,
    );
    const cases =
      (readYaml(after) as { evalcases: { id: string; rubrics?: unknown[] }[] }).evalcases;
    assert.deepEqual(cases.map((c) => c.rubrics?.length ?? 0), [2, 1, 0, 2, 2]);
    assert.equal(server.requests.length, 3);
    const prompt = userPrompt(
      server.requests.find((r) => userPrompt(r.body).includes("recursion"))!.body,
    );
    assert.match(prompt, /\[\[ ## question ## \]\]\nExplain recursion/);
    assert.match(
      prompt,
      /\[\[ ## reference_answer ## \]\]\nA function that calls itself until a base case\./,
    );
  } finally {
    await Deno.remove(file.replace(/\/[^/]+$/, ""), { recursive: true });
  }
});

Deno.test("generateRubrics rewrites JSONL lines; --dry-run returns the diff and writes nothing", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: rubricsFor },
  });
  const file = await copyFixture("dataset.jsonl");
  try {
    const before = await Deno.readTextFile(file);
    const dry = await generateRubrics(file, { judge: judgeOver(server), dryRun: true });
    assert.equal(await Deno.readTextFile(file), before);
    assert.deepEqual(dry.updated, ["j1"]);
    assert.deepEqual(dry.skipped.map((s) => s.id), ["j2", "j3"]);
    assert.equal(
      dry.diff,
      "--- a/dataset.jsonl\n+++ b/dataset.jsonl\n@@ -1,4 +1,4 @@\n" +
        '-{"id":"j1","expected_outcome":"Adds numbers","input":"2+2?"}\n' +
        '+{"id":"j1","expected_outcome":"Adds numbers","input":"2+2?","rubrics":[{"id":"adds-1","description":"Adds numbers: first","weight":1,"required":true},{"id":"adds-2","description":"Is concise","weight":0.5,"required":false}]}\n' +
        ' \n {"id":"j2","expected_outcome":"Greets","input":"Hi","rubrics":["Is polite"]}\n {"id":"j3","input":"x"}\n',
    );
    const real = await generateRubrics(file, { judge: judgeOver(server) });
    assert.deepEqual(real.updated, ["j1"]);
    const lines = (await Deno.readTextFile(file)).split("\n");
    assert.equal(lines.length, 5);
    assert.equal(JSON.parse(lines[0]).rubrics.length, 2);
    assert.equal(lines[1], "");
    assert.equal(lines[2], before.split("\n")[2]);
  } finally {
    await Deno.remove(file.replace(/\/[^/]+$/, ""), { recursive: true });
  }
});

Deno.test("generateRubrics leaves a case unchanged when the judge never gives usable rubrics", async () => {
  await using server = startProviderServer("openai", { fallback: '{"rubrics": []}' });
  const file = await copyFixture("dataset.jsonl");
  try {
    const before = await Deno.readTextFile(file);
    const result = await generateRubrics(file, { judge: judgeOver(server) });
    assert.deepEqual(result.updated, []);
    assert.equal(result.failed.length, 1);
    assert.equal(result.failed[0].id, "j1");
    assert.match(
      result.failed[0].error,
      /after 3 attempts: .*rubrics must list at least one rubric/,
    );
    assert.equal(server.requests.length, 3);
    assert.equal(await Deno.readTextFile(file), before);
  } finally {
    await Deno.remove(file.replace(/\/[^/]+$/, ""), { recursive: true });
  }
});
