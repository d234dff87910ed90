/**
 * Bounded work on hostile input: alias bombs, a single line of many read chunks, deeply nested
 * JSON, a BOM, CRLF line endings, invalid UTF-8 and binary files end in a diagnostic or load
 * correctly.
 */
import assert from "node:assert/strict";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import { streamEvalCases } from "../../lib/dataset/stream_eval_cases.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const marker = { ".agentv/.keep": "" };
const encoder = new TextEncoder();

async function loadError(path: string): Promise<EvalLoadError> {
  const e = await loadEvalCases(path).then(() => undefined, (e) => e);
  assert.ok(e instanceof EvalLoadError, `expected EvalLoadError, got ${e}`);
  return e;
}

Deno.test("a YAML alias bomb is refused before it expands", async () => {
  const levels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
  let yaml = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels.length; i++) {
    const prev = `*${levels[i - 1]}`;
    yaml += `${levels[i]}: &${levels[i]} [${Array(9).fill(prev).join(",")}]\n`;
  }
  yaml += "evalcases: []\n";
  await using tree = await tempTree({ ...marker, "bomb.yaml": yaml });
  const e = await loadError(tree.path("bomb.yaml"));
  assert.match(e.message, /aliases expand too much/);
});

/**
 * A line of 8 MiB: eight of the reader's 1 MiB chunks, and over the 2 MiB from which a file is
 * parsed by the compiled case parser. Nothing bounds a line below that; 50 MB took ~7 s on a
 * loaded 2-core machine and proved nothing more.
 */
const LONG_LINE_BYTES = 8 * 1024 * 1024;

Deno.test("a single JSONL line of many read chunks loads", async () => {
  const big = "x".repeat(LONG_LINE_BYTES);
  const line = `{"id": "big", "expected_outcome": "ok", "input": "${big}"}\n`;
  await using tree = await tempTree({ ...marker, "big.jsonl": line });
  const cases = await loadEvalCases(tree.path("big.jsonl"));
  assert.equal(cases.length, 1);
  assert.equal((cases[0].input[0].content as string).length, big.length);
  let streamed = 0;
  for await (const c of streamEvalCases(tree.path("big.jsonl"))) {
    streamed += (c.input[0].content as string).length;
  }
  assert.equal(streamed, big.length);
});

Deno.test("a line of garbage of many read chunks is one Invalid JSON diagnostic", async () => {
  await using tree = await tempTree({
    ...marker,
    "junk.jsonl": "{" + "a".repeat(LONG_LINE_BYTES),
  });
  const e = await loadError(tree.path("junk.jsonl"));
  assert.match(e.message, /Line 1: Invalid JSON/);
  assert.ok(e.message.length < 2000, "the message quotes the line only briefly");
});

Deno.test("deeply nested JSON is a case diagnostic, the other lines load", async () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  await using tree = await tempTree({
    ...marker,
    "deep.jsonl":
      `{"id": "deep", "expected_outcome": "x", "input": "y", "metadata": {"n": ${deep}}}\n` +
      `{"id": "fine", "expected_outcome": "x", "input": "y"}\n`,
  });
  const report = await validateEvalFile(tree.path("deep.jsonl"));
  assert.equal(report.cases, 1);
  assert.equal(report.diagnostics[0].line, 1);
  assert.match(report.diagnostics[0].message, /nests deeper than/);
});

Deno.test("deeply nested YAML is a syntax diagnostic", async () => {
  await using tree = await tempTree({
    ...marker,
    "deep.yaml": "evalcases: " + "[".repeat(50_000) + "]".repeat(50_000) + "\n",
  });
  const report = await validateEvalFile(tree.path("deep.yaml"));
  assert.equal(report.valid, false);
  assert.ok(report.diagnostics.length > 0);
});

Deno.test("a BOM and CRLF line endings load like plain LF files", async () => {
  const jsonl = '{"id": "a", "expected_outcome": "x", "input": "y"}\r\n\r\n' +
    '{"id": "b", "expected_outcome": "x", "input": "y"}\r\n';
  const yaml =
    "evalcases:\r\n  - id: a\r\n    expected_outcome: x\r\n    input: |\r\n      two\r\n      lines\r\n";
  await using tree = await tempTree({
    ...marker,
    "crlf.jsonl": "\uFEFF" + jsonl,
    "crlf.yaml": "\uFEFF" + yaml,
    "lf.yaml": yaml.replaceAll("\r\n", "\n"),
  });
  const jsonlCases = await loadEvalCases(tree.path("crlf.jsonl"));
  assert.deepEqual(jsonlCases.map((c) => c.id), ["a", "b"]);
  const streamed = await Array.fromAsync(streamEvalCases(tree.path("crlf.jsonl")));
  assert.deepEqual(streamed, jsonlCases);
  const [crlf] = await loadEvalCases(tree.path("crlf.yaml"));
  assert.deepEqual(crlf.input, [{ role: "user", content: "two\nlines\n" }]);
  const [lf] = await loadEvalCases(tree.path("lf.yaml"));
  assert.deepEqual({ ...crlf, dataset: "" }, { ...lf, dataset: "" });
  // positions count physical lines after the BOM
  await Deno.writeTextFile(tree.path("bad.jsonl"), "\uFEFF" + jsonl + "{oops}\r\n");
  const e = await loadError(tree.path("bad.jsonl"));
  assert.equal(e.diagnostics[0].line, 4);
});

Deno.test("invalid UTF-8 is a positioned diagnostic", async () => {
  const bytes = new Uint8Array([
    ...encoder.encode('{"id": "a", "expected_outcome": "x", "input": "y"}\n{"id": "b'),
    0xc3,
    0x28,
    ...encoder.encode('"}\n'),
  ]);
  await using tree = await tempTree({ ...marker, "bad.jsonl": bytes, "bad.yaml": bytes });
  for (const file of ["bad.jsonl", "bad.yaml"]) {
    const e = await loadError(tree.path(file));
    assert.match(e.message, /not valid UTF-8/);
    assert.deepEqual([e.diagnostics[0].line, e.diagnostics[0].column], [2, 10]);
  }
  const streamError = await Array.fromAsync(streamEvalCases(tree.path("bad.jsonl"))).catch((e) =>
    e
  );
  assert.ok(streamError instanceof EvalLoadError);
});

Deno.test("binary files and UTF-16 are refused", async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const utf16 = new Uint8Array([0xff, 0xfe, 0x65, 0x00, 0x76, 0x00]);
  await using tree = await tempTree({ ...marker, "image.yaml": png, "wide.jsonl": utf16 });
  assert.match((await loadError(tree.path("image.yaml"))).message, /NUL bytes and looks binary/);
  assert.match((await loadError(tree.path("wide.jsonl"))).message, /UTF-16/);
});

Deno.test("a binary file reference is a case diagnostic", async () => {
  await using tree = await tempTree({
    ...marker,
    "blob.bin": new Uint8Array([1, 2, 0, 3]),
    "evals.jsonl":
      '{"id": "a", "expected_outcome": "x", "input": [{"role": "user", "content": [{"type": "file", "value": "blob.bin"}]}]}\n',
  });
  const report = await validateEvalFile(tree.path("evals.jsonl"));
  assert.equal(report.cases, 0);
  assert.match(report.diagnostics[0].message, /looks binary/);
});
