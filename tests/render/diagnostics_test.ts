import assert from "node:assert/strict";
import {
  createSourceReader,
  renderDiagnostic,
  renderDiagnostics,
} from "../../lib/render/diagnostics.ts";
import { displayPath } from "../../lib/fs/display_path.ts";
import type { Diagnostic } from "../../lib/schema/eval_case.ts";

const lines = (text: string) => () => text.split("\n");

Deno.test("renderDiagnostic() prints file:line:col: severity: message relative to the cwd", () => {
  const d: Diagnostic = {
    severity: "error",
    file: "/repo/evals/a.yaml",
    line: 3,
    column: 5,
    message: "Weight must be >= 0",
  };
  assert.equal(
    renderDiagnostic(d, { cwd: "/repo" }),
    "evals/a.yaml:3:5: error: Weight must be >= 0",
  );
  assert.equal(
    renderDiagnostic({ ...d, severity: "warning" }, { cwd: "/repo/evals" }),
    "a.yaml:3:5: warning: Weight must be >= 0",
  );
  assert.equal(
    renderDiagnostic({ ...d, line: undefined, column: undefined, path: "evalcases[0]" }, {
      cwd: "/repo",
    }),
    "evals/a.yaml: error: Weight must be >= 0 (at evalcases[0])",
  );
});

Deno.test("renderDiagnostic() shows the source line with a caret under the column", () => {
  const d: Diagnostic = {
    severity: "error",
    file: "/r/a.yaml",
    line: 2,
    column: 13,
    message: "Bad",
  };
  const out = renderDiagnostic(d, {
    cwd: "/r",
    sourceLines: lines("evalcases:\n  - weight: -1\n"),
  });
  assert.equal(out, "a.yaml:2:13: error: Bad\n  2 |   - weight: -1\n    |             ^");
});

Deno.test("renderDiagnostic() cuts a very long line around the column and keeps the caret on it", () => {
  const long = "x".repeat(5000) + "BAD" + "y".repeat(5000);
  const d: Diagnostic = {
    severity: "error",
    file: "/r/a.jsonl",
    line: 1,
    column: 5001,
    message: "m",
  };
  const [, source, caret] = renderDiagnostic(d, { cwd: "/r", sourceLines: lines(long) }).split(
    "\n",
  );
  assert.ok(source.length < 140, `excerpt is short (${source.length})`);
  assert.equal(source[caret.indexOf("^")], "B");
});

Deno.test("renderDiagnostic() colours only when asked", () => {
  const d: Diagnostic = { severity: "warning", file: "/r/a.yaml", message: "m" };
  assert.ok(!renderDiagnostic(d, { cwd: "/r" }).includes("\x1b"));
  assert.ok(renderDiagnostic(d, { cwd: "/r", color: true }).includes("\x1b[33m"));
});

Deno.test("renderDiagnostics() sorts by file, line and column", () => {
  const make = (file: string, line: number): Diagnostic => ({
    severity: "error",
    file,
    line,
    message: `${file}@${line}`,
  });
  const out = renderDiagnostics([make("/r/b", 1), make("/r/a", 9), make("/r/a", 2)], { cwd: "/r" });
  assert.deepEqual(out.split("\n").map((l) => l.split(": ").at(-1)), [
    "/r/a@2",
    "/r/a@9",
    "/r/b@1",
  ]);
});

Deno.test("displayPath() keeps far-away paths absolute", () => {
  assert.equal(displayPath("/repo/a/b.yaml", "/repo"), "a/b.yaml");
  assert.equal(displayPath("/repo/b.yaml", "/repo/a"), "../b.yaml");
  assert.equal(displayPath("/x/y.yaml", "/a/b/c/d"), "/x/y.yaml");
});

Deno.test("createSourceReader() decodes invalid UTF-8 and CRLF without throwing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/bad.yaml`;
    await Deno.writeFile(file, new Uint8Array([0x61, 0xff, 0x62, 0x0d, 0x0a, 0x63]));
    const read = createSourceReader();
    assert.deepEqual(read(file), ["a\ufffdb", "c"]);
    assert.equal(read(`${dir}/missing.yaml`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
