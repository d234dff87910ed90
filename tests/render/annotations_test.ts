/**
 * GitHub Actions annotations for failed cases: the `::error file=…,line=…::` format, escaping by
 * GitHub's workflow-command rules (checked by decoding as the runner does), which rows are
 * annotated, and finding a case's line in YAML and JSONL eval files.
 */
import assert from "node:assert/strict";
import {
  escapeCommandData,
  escapeCommandProperty,
  renderAnnotations,
} from "../../lib/render/annotations.ts";
import { locateCaseLines } from "../../lib/render/case_lines.ts";
import { row } from "../results/_rows.ts";

/** One parsed workflow command line, decoded as the Actions runner decodes it. */
interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  message: string;
}

function decode(text: string): string {
  return text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(
    /%2C/g,
    ",",
  ).replace(/%25/g, "%");
}

/** Parses `::cmd k=v,k=v::message` lines; fails on any other line. */
function parseCommands(text: string): WorkflowCommand[] {
  return text.split("\n").filter((l) => l !== "").map((line) => {
    const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
    assert.ok(m, `not a workflow command: ${JSON.stringify(line)}`);
    const properties: Record<string, string> = {};
    for (const pair of (m[2] ?? "").split(",").filter((p) => p !== "")) {
      const eq = pair.indexOf("=");
      properties[pair.slice(0, eq)] = decode(pair.slice(eq + 1));
    }
    return { command: m[1] ?? "", properties, message: decode(m[3] ?? "") };
  });
}

Deno.test("renderAnnotations() prints one ::error per failed case at its eval file and line", () => {
  const rows = [
    row("ok", 1),
    row("meh", 0.7),
    row("bad", 0.25, { misses: ["No refund offered", "Too long"] }),
    row("broken", 0, { status: "error", verdict: "fail", error: "HTTP 500" }),
    row("skip", 0, { status: "skipped", verdict: "fail" }),
  ];
  const lines: Record<string, number> = { bad: 12, broken: 30 };
  const text = renderAnnotations(rows, {
    locate: (r) => ({ file: "evals/support.yaml", line: lines[r.eval_id] ?? 1 }),
  });
  assert.equal(
    text.split("\n")[0],
    "::error file=evals/support.yaml,line=12,title=ds/bad (default)::" +
      "Case 'bad' failed with score 0.25: No refund offered%0A(1 more misses)",
  );
  const commands = parseCommands(text);
  assert.deepEqual(commands.map((c) => [c.command, c.properties.line]), [
    ["error", "12"],
    ["error", "30"],
  ]);
  assert.equal(commands[1]?.message, "Case 'broken' could not be scored: HTTP 500");
});

Deno.test("renderAnnotations() escapes text so a case cannot end the command or forge another", () => {
  const hostile = "50% done\r\n::warning file=x::forged, a: b";
  const [command, ...rest] = parseCommands(
    renderAnnotations(
      [row("id", 0.1, { dataset: `ds, ${hostile}`, misses: [hostile] })],
      { locate: () => ({ file: "evals/a,b:c%.yaml", line: 3 }) },
    ),
  );
  assert.equal(rest.length, 0);
  assert.deepEqual(command?.properties, {
    file: "evals/a,b:c%.yaml",
    line: "3",
    title: `ds, ${hostile}/id (default)`,
  });
  assert.equal(command?.message, `Case 'id' failed with score 0.10: ${hostile}`);
});

Deno.test("escapeCommandData() and escapeCommandProperty() follow GitHub's workflow-command rules", () => {
  assert.equal(escapeCommandData("a%b\rc\nd:e,f"), "a%25b%0Dc%0Ad:e,f");
  assert.equal(escapeCommandProperty("a%b\rc\nd:e,f"), "a%25b%0Dc%0Ad%3Ae%2Cf");
});

Deno.test("renderAnnotations() prints nothing when no case failed, and no file= when none is known", () => {
  assert.equal(renderAnnotations([row("a", 1), row("b", 0.6)]), "");
  const [command] = parseCommands(renderAnnotations([row("c", 0)]));
  assert.deepEqual(Object.keys(command?.properties ?? {}), ["title"]);
});

Deno.test("renderAnnotations() stops at max and says how many more failed", () => {
  const rows = [1, 2, 3, 4, 5].map((i) => row(`f${i}`, 0));
  const commands = parseCommands(renderAnnotations(rows, { max: 3 }));
  assert.deepEqual(commands.map((c) => c.command), ["error", "error", "error", "warning"]);
  assert.match(commands[3]?.message ?? "", /^2 more failed cases/);
});

Deno.test("locateCaseLines() finds each case's id line in YAML and its record line in JSONL", async () => {
  const yaml = [
    "# comment",
    "dataset: d",
    "evalcases:",
    "  - id: first",
    "    input: Hi",
    "",
    "  - input: Bye",
    "    expected_outcome: Waves",
    "    id: second",
    "  - id: first",
    "    input: duplicate",
  ].join("\n");
  assert.deepEqual(Object.fromEntries(await locateCaseLines(yaml, "yaml")), {
    first: 4,
    second: 9,
  });
  const jsonl = '{"id": "a"}\r\n\n{"id": "b", "input": "x"}\nnot json\n{"id": 7}\n';
  assert.deepEqual(Object.fromEntries(await locateCaseLines(jsonl, "jsonl")), {
    a: 1,
    b: 3,
    "7": 5,
  });
  assert.equal((await locateCaseLines("evalcases: [", "yaml")).size, 0);
});
