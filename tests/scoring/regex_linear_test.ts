/**
 * Evaluators: dataset regular expressions are matched in linear time (no pattern and no answer
 * can hang a run), and features that need backtracking are validation errors.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evaluateRegex } from "../../lib/scoring/regex.ts";
import { RegexSchema } from "../../lib/schema/evaluator.ts";
import { compileLinearRegex } from "../../lib/text/linear_regex.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";
import { answerContext } from "./_context.ts";

const EVIL_ANSWER = "a".repeat(41) + "!";

const targets = (response: string) =>
  `targets:\n  - name: default\n    provider: mock\n    response: ${JSON.stringify(response)}\n`;

const regexCase = (id: string, evaluator: string) =>
  `  - id: ${id}\n    expected_outcome: x\n    input: q\n    evaluators:\n${evaluator}`;

Deno.test("validate reports a backreference or lookaround at the pattern; run skips that case", async () => {
  await using p = await project({
    ".agentv/targets.yaml": targets("aa"),
    "evals/a.yaml": "evalcases:\n" +
      regexCase("fine", `      - type: regex\n        pattern: "^a+$"\n`) +
      regexCase("backref", `      - type: regex\n        pattern: "(a)\\\\1"\n`) +
      regexCase(
        "lookahead",
        `      - type: json_schema\n        schema:\n          type: string\n          pattern: "(?=a)a"\n`,
      ),
  });
  const validated = await cli(["validate", "evals"], p.dir);
  assert.notEqual(validated.code, 0);
  assert.match(
    validated.out + validated.err,
    /evals\/a\.yaml:13:18: .*backreference '\\1' is not supported/,
  );
  assert.match(
    validated.out + validated.err,
    /evals\/a\.yaml:21:20: .*lookahead '\(\?=' is not supported/,
  );

  const ran = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.match(ran.out + ran.err, /evals\/a\.yaml:13:18: .*backreference/);
  assert.match(ran.out + ran.err, /evals\/a\.yaml:21:20: .*lookahead/);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(rows.map((row) => row.eval_id), ["fine"]);
  assert.equal(rows[0].score, 1);
});

Deno.test("regex flags i, m, s, y and escapes like \\s and \\u keep their JavaScript meaning", async () => {
  const score = async (pattern: string, flags: string, answer: string) =>
    (await evaluateRegex(
      RegexSchema.parse({ type: "regex", pattern, flags }),
      answerContext(answer),
    ))
      .score;
  assert.equal(await score("^paris$", "i", "PARIS"), 1);
  assert.equal(await score("^b$", "", "a\nb"), 0);
  assert.equal(await score("^b$", "m", "a\nb"), 1);
  assert.equal(await score("a.b", "", "a\nb"), 0);
  assert.equal(await score("a.b", "s", "a\nb"), 1);
  assert.equal(await score("b", "y", "ab"), 0);
  assert.equal(await score("a", "gdu", "ba"), 1);
  assert.equal(await score("\\u0041\\u{42}", "", "xAB"), 1);
  assert.equal(await score("a\\sb", "", "a\u00a0b"), 1);
  assert.equal(await score("a[^]b", "", "a\nb"), 1);
  assert.equal(await score("[]a", "", "a"), 0);
});

Deno.test("an unsupported regex flag is a schema error naming the supported ones", () => {
  const r = RegexSchema.safeParse({ type: "regex", pattern: "a", flags: "v" });
  assert.equal(r.success, false);
  assert.match(r.error!.issues[0].message, /flags may only contain i \(ignore case\)/);
});

Deno.test("compileLinearRegex records the match and its groups", () => {
  const m = compileLinearRegex("(\\d+)-(x)?(\\d+)").exec("on 12-34");
  assert.deepEqual(m, { text: "12-34", index: 3, groups: ["12", undefined, "34"] });
  assert.equal(compileLinearRegex("^(a+)+$").test(EVIL_ANSWER), false);
});
