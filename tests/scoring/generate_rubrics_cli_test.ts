/** Generate: `agentv generate rubrics` on YAML and JSONL datasets. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { type RecordedRequest, startProviderServer } from "../_helpers/provider_servers.ts";
import { project, promptOf, targets } from "./judged/_helpers.ts";

/** A commented YAML dataset: one case without rubrics, one with. */
const GEN_YAML = `# Dataset header comment
description: Geography # trailing comment
evalcases:
  # first case: needs rubrics
  - id: needs
    expected_outcome: Names Paris as the capital
    input: What is the capital of France?

  - id: has
    expected_outcome: Names Berlin
    input: Capital of Germany?
    rubrics:
      - Mentions Berlin # keep me
`;

/** A rubric-writer reply that names the capital found in the prompt. */
function generated(request: RecordedRequest): string {
  const { user } = promptOf(request);
  const outcome = user.includes("Paris") ? "paris" : user.includes("Rome") ? "rome" : "other";
  return "Here:\n```json\n" +
    JSON.stringify({
      rubrics: [{ id: `${outcome}-named`, description: `Names ${outcome}`, weight: 2 }],
    }) + "\n```";
}

Deno.test("generate rubrics: YAML keeps comments, only cases without rubrics, --dry-run writes nothing", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: generated },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": GEN_YAML,
  });
  const file = join(p.dir, "evals/ds.yaml");
  const dry = createBufferIO({ cwd: p.dir });
  assert.equal(
    await runCli(["generate", "rubrics", "evals/ds.yaml", "--dry-run"], dry),
    0,
    dry.err(),
  );
  assert.equal(await Deno.readTextFile(file), GEN_YAML, "dry run wrote the file");
  assert.match(dry.out(), /^\+.*paris-named/m);
  assert.ok(!/^-/m.test(dry.out().replace(/^--- .*$/m, "")), "nothing removed: " + dry.out());
  assert.equal(judge.requests.length, 1, "only the case without rubrics is asked about");
  assert.match(promptOf(judge.requests[0]).user, /Names Paris as the capital/);

  const io = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["generate", "rubrics", "evals/ds.yaml"], io), 0, io.err());
  const text = await Deno.readTextFile(file);
  for (
    const keep of [
      "# Dataset header comment",
      "# trailing comment",
      "# first case: needs rubrics",
      "- Mentions Berlin # keep me",
    ]
  ) assert.ok(text.includes(keep), `lost ${keep}:\n${text}`);
  // the file still loads and the generated rubric is there
  const validate = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["validate", "evals/ds.yaml"], validate), 0, validate.out());
  const { loadEvalCases } = await import("../../mod.ts");
  const cases = await loadEvalCases(file);
  const needs = cases.find((c) => c.id === "needs")!;
  const rubric = needs.evaluators.find((e) => e.type === "rubric" || e.type === "llm_judge");
  assert.match(JSON.stringify(rubric), /paris-named/);
  assert.match(JSON.stringify(cases.find((c) => c.id === "has")), /Mentions Berlin/);
  assert.ok(!JSON.stringify(cases.find((c) => c.id === "has")).includes("-named"));
});

Deno.test("generate rubrics: JSONL lines rewritten only for cases without rubrics", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: generated },
  });
  const lines = [
    { id: "a", expected_outcome: "Names Paris", input: "Capital of France?" },
    { id: "b", expected_outcome: "Names Berlin", input: "Germany?", rubrics: ["Mentions Berlin"] },
    { id: "c", expected_outcome: "Names Rome", input: "Italy?" },
  ];
  const original = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.jsonl": original,
    "evals/ds.yaml": "description: sidecar\n",
  });
  const dry = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["generate", "rubrics", "evals/ds.jsonl", "--dry-run"], dry), 0);
  assert.equal(await Deno.readTextFile(join(p.dir, "evals/ds.jsonl")), original);
  assert.match(dry.out(), /rome-named/);

  const io = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["generate", "rubrics", "evals/ds.jsonl"], io), 0, io.err());
  const after = (await Deno.readTextFile(join(p.dir, "evals/ds.jsonl"))).trim().split("\n");
  assert.equal(after.length, 3);
  assert.equal(after[1], JSON.stringify(lines[1]), "case with rubrics untouched");
  const a = JSON.parse(after[0]);
  const c = JSON.parse(after[2]);
  assert.equal(a.id, "a");
  assert.match(JSON.stringify(a.rubrics), /paris-named/);
  assert.match(JSON.stringify(c.rubrics), /rome-named/);
  assert.equal(judge.requests.length, 4, "2 in the dry run + 2 for real");
});

Deno.test("generate rubrics: --judge-target picks the writer; an unusable reply fails that case only", async () => {
  await using unused = startProviderServer("openai", { fallback: "never asked" });
  await using writer = startProviderServer("anthropic", {
    fallback: {
      type: "reply",
      text: (r) => promptOf(r).user.includes("Rome") ? "I'd rather not." : generated(r),
    },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(unused.url, {
      judge: [
        "  - name: writer",
        "    provider: anthropic",
        `    base_url: ${writer.url}`,
        "    api_key: sk-ant",
        "    model: claude-w",
        "    max_retries: 0",
      ].join("\n"),
    }),
    "evals/ds.jsonl": [
      JSON.stringify({ id: "a", outcome: "Names Paris", input: "France?" }),
      JSON.stringify({ id: "c", expected_outcome: "Names Rome", input: "Italy?" }),
      "",
    ].join("\n"),
  });
  const io = createBufferIO({ cwd: p.dir });
  const code = await runCli(
    ["generate", "rubrics", "evals/ds.jsonl", "--judge-target", "writer"],
    io,
  );
  assert.equal(code, 1, io.out() + io.err());
  assert.equal(unused.requests.length, 0);
  assert.equal(writer.requests.length, 1 + 3, "paris once, rome asked three times");
  assert.match(io.err(), /\bc\b.*3 attempts/);
  const [a, c] = (await Deno.readTextFile(join(p.dir, "evals/ds.jsonl"))).trim().split("\n")
    .map((l) => JSON.parse(l));
  assert.match(JSON.stringify(a.rubrics), /paris-named/);
  assert.equal(c.rubrics, undefined);
  assert.deepEqual(a.rubrics[0], {
    id: "paris-named",
    description: "Names paris",
    weight: 2,
    required: true,
  });
});
