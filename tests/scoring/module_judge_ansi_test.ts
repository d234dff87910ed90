/**
 * Error messages of module judges are stored without ANSI escape codes, whether the judge put
 * them in its error or its console output, or Deno formatted the error for a terminal.
 */
import assert from "node:assert/strict";
import { stripAnsi } from "../../lib/text/strip_ansi.ts";
import { moduleJudge, runJudgedCases } from "./_judge_run.ts";

Deno.test("a module judge's error stored in its row carries no ANSI codes", async () => {
  const run = await runJudgedCases([
    { id: "thrown", evaluators: moduleJudge("../judges/thrown.ts") },
    { id: "uncaught", evaluators: moduleJudge("../judges/uncaught.ts") },
    { id: "denied", evaluators: moduleJudge("../judges/denied.ts") },
  ], {
    "judges/thrown.ts": `export default () => {
  console.log("\\x1b[32mgreen log\\x1b[0m \\x1b]0;title\\x07");
  throw new Error("\\x1b[1m\\x1b[31mred\\x1b[0m failure \\x9b2J");
};
`,
    "judges/uncaught.ts": `export default () => {
  setTimeout(() => { throw new Error("\\x1b[33mlater\\x1b[0m"); }, 0);
  return new Promise(() => {});
};
`,
    "judges/denied.ts": "export default () => Deno.readTextFile('/etc/hostname');\n",
  });
  for (const id of ["thrown", "uncaught", "denied"]) {
    const result = run.rows[id].evaluator_results[0];
    assert.equal(result.status, "error", id);
    const stored = JSON.stringify([result, run.rows[id].error]);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(stored, /\\u001b|\u001b|\\u009b|\u009b/, `${id}: ${stored}`);
  }
  assert.match(
    run.rows.thrown.evaluator_results[0].error ?? "",
    /red failure ; console: green log/,
  );
  assert.match(run.rows.uncaught.evaluator_results[0].error ?? "", /later/);
  assert.match(run.rows.denied.evaluator_results[0].error ?? "", /NotCapable/);
});

Deno.test("stripAnsi removes colour, OSC and 8-bit CSI sequences and keeps the text", () => {
  assert.equal(stripAnsi("\x1b[1m\x1b[31merror\x1b[0m: boom"), "error: boom");
  assert.equal(stripAnsi("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b"), "alinkb");
  assert.equal(stripAnsi("\x9b31mred"), "red");
  assert.equal(stripAnsi("plain"), "plain");
});
