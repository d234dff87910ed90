/** Judged evaluators: `llm_judge` prompt templates and prompt files. */
import assert from "node:assert/strict";
import { runCli } from "../../../lib/cli/app.ts";
import { createBufferIO } from "../../cli/_buffer_io.ts";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { evalFile, FREEFORM, project, promptOf, run, targets } from "./_helpers.ts";

/** A prompt that uses all seven template variables. */
const ALL_SEVEN = [
  "CA={{ candidate_answer }}",
  "Q={{question}}",
  "EO={{ expected_outcome }}",
  "RA={{ reference_answer }}",
  "EM={{ expected_messages }}",
  "IM={{ input_messages }}",
  "OM={{ output_messages }}",
].join("\n");

Deno.test("llm_judge: default template has the [[ ## ]] sections with the case values", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  await run(p.dir);
  const { system, user } = promptOf(judge.requests[0]);
  assert.match(system, /"score"/);
  assert.match(user, /\[\[ ## expected_outcome ## \]\]\nNames Paris/);
  assert.match(user, /\[\[ ## question ## \]\]\nWhat is the capital of France\?/);
  assert.match(user, /\[\[ ## reference_answer ## \]\]\nParis/);
  assert.match(user, /\[\[ ## candidate_answer ## \]\]\nThe capital of France is Paris\./);
});

Deno.test("llm_judge: a prompt file and inline prompt fill all seven variables", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "prompts/grade.md": ALL_SEVEN + "\n",
    "evals/ds.yaml": evalFile([
      "      - name: from_file",
      "        type: llm_judge",
      "        prompt: ../prompts/grade.md",
      "      - name: inline",
      "        type: llm_judge",
      "        prompt: |",
      ...ALL_SEVEN.split("\n").map((l) => `          ${l}`),
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results));
  assert.equal(judge.requests.length, 2);
  for (const request of judge.requests) {
    const { user } = promptOf(request);
    assert.ok(!user.includes("{{"), user);
    assert.match(user, /^CA=The capital of France is Paris\.$/m);
    assert.match(user, /^Q=What is the capital of France\?$/m);
    assert.match(user, /^EO=Names Paris$/m);
    assert.match(user, /^RA=Paris$/m);
    const em = /EM=([\s\S]*?)\nIM=/.exec(user)![1];
    assert.equal(JSON.parse(em)[0].content, "Paris");
    const im = /IM=([\s\S]*?)\nOM=/.exec(user)![1];
    assert.equal(JSON.parse(im)[0].content, "What is the capital of France?");
    const om = /OM=([\s\S]*)$/.exec(user)![1];
    assert.equal(JSON.parse(om.trim()).at(-1).content, "The capital of France is Paris.");
  }
});

Deno.test("llm_judge: an unknown template variable is a validation error with a suggestion", async () => {
  await using p = await project({
    ".agentv/targets.yaml": targets("http://127.0.0.1:9/v1"),
    "prompts/bad.md": "Grade {{ candidate_anwser }} against {{ expected_outcome }}\n",
    "evals/ds.yaml": evalFile([
      "      - name: from_file",
      "        type: llm_judge",
      "        prompt: ../prompts/bad.md",
    ].join("\n")),
    "evals/inline.yaml": evalFile([
      "      - name: inline",
      "        type: llm_judge",
      "        prompt: 'Grade {{ qestion }} now'",
    ].join("\n")),
  });
  for (
    const [file, wrong, right] of [
      ["evals/ds.yaml", "candidate_anwser", "candidate_answer"],
      ["evals/inline.yaml", "qestion", "question"],
    ]
  ) {
    const io = createBufferIO({ cwd: p.dir });
    const code = await runCli(["validate", file], io);
    assert.equal(code, 1, io.out() + io.err());
    const out = io.out() + io.err();
    assert.match(out, new RegExp(`error:.*${wrong}`));
    assert.match(out, new RegExp(right));
  }
});

Deno.test("llm_judge: a prompt file is found like other references (parents up to the root)", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "prompts/grade.md": "FROM-ROOT {{ candidate_answer }}\n",
    "evals/sub/ds.yaml": evalFile([
      "      - type: llm_judge",
      "        prompt: prompts/grade.md",
    ].join("\n")),
  });
  const [row] = await run(p.dir, { file: "evals/sub/ds.yaml" });
  assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results));
  assert.equal(
    promptOf(judge.requests[0]).user.trim(),
    "FROM-ROOT The capital of France is Paris.",
  );
});
