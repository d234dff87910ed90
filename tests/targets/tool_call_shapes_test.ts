/**
 * Tool calls in the shapes people write (`args`, `arguments`, OpenAI's `function` wrapper) are
 * understood by the mock target and in CLI output, or rejected with a diagnostic; never a trace
 * whose calls have lost their arguments.
 */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { readResults } from "../../lib/results/read_results.ts";
import { parseCliOutput } from "../../lib/targets/cli_output.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { loadTargetsFile, validateTargetsFile } from "../../lib/dataset/targets_file.ts";
import { TargetError } from "../../lib/targets/types.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { makeRequest } from "./_request.ts";

const SHAPES_TARGETS = `targets:
  - name: default
    provider: mock
    response: done
    tool_calls:
      - tool: search
        args: { q: paris }
      - tool: fetch
        arguments: '{"url": "https://example.test"}'
      - id: call_1
        type: function
        function:
          name: lookup
          arguments: '{"id": 7}'
      - name: summarise
        input: { words: 10 }
`;

const NORMALISED = [
  { tool: "search", input: { q: "paris" } },
  { tool: "fetch", input: { url: "https://example.test" } },
  { tool: "lookup", input: { id: 7 }, id: "call_1" },
  { tool: "summarise", input: { words: 10 } },
];

Deno.test("mock tool_calls written with args, arguments or OpenAI's function shape reach the trace as input", async () => {
  await using tree = await tempTree({ ".agentv/targets.yaml": SHAPES_TARGETS });
  const file = await loadTargetsFile(tree.path(".agentv/targets.yaml"));
  assert.deepEqual(file.diagnostics.filter((d) => d.severity === "error"), []);
  const target = createTarget(file.targets[0], { env: {} });
  const response = await target.invoke(makeRequest());
  assert.deepEqual(response.output_messages[0].tool_calls, NORMALISED);
});

Deno.test("a run grades mock tool calls given as args by their arguments", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": SHAPES_TARGETS,
    "evals/tools.yaml": `evalcases:
  - id: tools
    expected_outcome: Searches for paris and looks up 7
    input: Go
    evaluators:
      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
            args: { q: paris }
          - tool: lookup
            args: { id: 7 }
`,
  }, { git: true });
  const io = createBufferIO({ cwd: tree.dir, env: {} });
  const code = await runCli(["run", "evals/tools.yaml", "--out", "r.jsonl"], io, {
    commands: [runCommand],
  });
  const [row] = (await readResults(tree.path("r.jsonl"))).rows;
  assert.equal(row.status, "ok", io.err());
  assert.equal(row.score, 1, JSON.stringify(row.evaluator_results));
  assert.equal(code, 0, io.err());
});

Deno.test("validate rejects mock tool_calls it cannot understand at the offending key", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    tool_calls:
      - tool: search
        input: { q: a }
        args: { q: b }
      - args: { q: c }
      - function: { name: lookup, arguments: "{not json" }
`,
  });
  const report = await validateTargetsFile(tree.path(".agentv/targets.yaml"));
  assert.equal(report.valid, false);
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  const at = (path: string) => errors.find((d) => d.path === path);
  const twice = at("targets[0].tool_calls[0].args");
  assert.ok(twice, JSON.stringify(errors));
  assert.equal(twice.line, 7);
  assert.match(twice.message, /arguments twice/);
  const unnamed = at("targets[0].tool_calls[1]");
  assert.ok(unnamed, JSON.stringify(errors));
  assert.equal(unnamed.line, 8);
  assert.match(unnamed.message, /name the tool/);
  const notJson = at("targets[0].tool_calls[2].function.arguments");
  assert.ok(notJson, JSON.stringify(errors));
  assert.match(notJson.message, /not JSON/);
});

Deno.test("CLI output tool calls in OpenAI, args and arguments shapes are normalised to input", () => {
  const output = parseCliOutput(JSON.stringify({
    output_messages: [
      {
        role: "assistant",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "lookup", arguments: '{"id":7}' } },
          { tool: "search", args: { q: "paris" }, output: ["r1"] },
          { name: "fetch", arguments: { url: "u" } },
        ],
      },
      { role: "assistant", content: "done" },
    ],
  }));
  assert.deepEqual(output.output_messages[0].tool_calls, [
    { tool: "lookup", input: { id: 7 }, id: "c1" },
    { tool: "search", input: { q: "paris" }, output: ["r1"] },
    { tool: "fetch", input: { url: "u" } },
  ]);
});

Deno.test("a CLI agent whose tool calls cannot be understood fails the case with the expected shape", async () => {
  await using tree = await tempTree({
    "out.json": JSON.stringify({
      output_messages: [{
        role: "assistant",
        tool_calls: [{ tool: "search", input: { q: "a" }, arguments: '{"q":"b"}' }],
      }],
    }),
  });
  const target = createTarget({
    name: "agent",
    provider: "cli",
    command_template: `cat '${tree.path("out.json")}'`,
  }, { env: {} });
  await assert.rejects(
    () => target.invoke(makeRequest()),
    (error: unknown) => {
      assert.ok(error instanceof TargetError);
      assert.match(error.message, /output_messages\[0\]\.tool_calls\[0\]\.arguments/);
      assert.match(error.message, /\{tool, input\?, output\?, id\?\}/);
      return true;
    },
  );
  assert.throws(
    () => parseCliOutput('{"output_messages":[{"role":"assistant","tool_calls":{"tool":"x"}}]}'),
    /tool_calls must be a list of \{tool, input/,
  );
});
