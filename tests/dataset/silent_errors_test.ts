/**
 * Mistakes that used to load silently are located errors: `validate` fails the file and `run`
 * skips the case (or, for file-level settings, reports the file).
 */
import assert from "node:assert/strict";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { validateTargetsFile } from "../../lib/dataset/targets_file.ts";
import { checkJsonSchema } from "../../lib/scoring/json_schema_check.ts";
import { dataset } from "./_helpers.ts";

const CASE = (id: string, extra = "") =>
  `  - id: ${id}\n    expected_outcome: Says ok\n    input: hi\n${extra}`;

async function report(files: Record<string, string>, file: string) {
  await using tree = await dataset(files);
  return await validateEvalFile(tree.path(file));
}

Deno.test("a duplicate case id in a YAML file is an error at the second id; the first case loads", async () => {
  const r = await report(
    { "a.yaml": `evalcases:\n${CASE("one")}${CASE("two")}${CASE("one")}` },
    "a.yaml",
  );
  assert.equal(r.valid, false);
  assert.equal(r.cases, 2);
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 1);
  assert.deepEqual([errors[0].line, errors[0].column, errors[0].path], [8, 9, "evalcases[2].id"]);
  assert.match(errors[0].message, /duplicate case id 'one' \(first used at line 2\)/);
  assert.match(errors[0].message, /rename/);
});

Deno.test("a duplicate case id in a JSONL file is an error at the later line", async () => {
  const line = (id: string) => `{"id":"${id}","expected_outcome":"x","input":"hi"}\n`;
  const r = await report({ "a.jsonl": line("a") + line("b") + line("a") }, "a.jsonl");
  assert.equal(r.valid, false);
  assert.equal(r.cases, 2);
  const [error] = r.diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual([error.line, error.column], [3, 7]);
  assert.match(error.message, /^Line 3: duplicate case id 'a' \(first used at line 1\)/);
});

Deno.test("a json_schema evaluator whose schema is invalid or has an unresolvable $ref is a located error", async () => {
  const r = await report({
    "a.yaml": `evalcases:\n${
      CASE(
        "bad-schema",
        `    evaluators:
      - type: json_schema
        schema:
          type: object
          properties:
            age: { type: integr }
            id: { $ref: "#/$defs/Id" }
            other: { $ref: "https://example.com/x.json" }
          required: age
`,
      )
    }${
      CASE(
        "good-ref",
        `    evaluators:
      - type: json_schema
        schema:
          $defs: { Id: { type: string } }
          properties: { id: { $ref: "#/$defs/Id" } }
`,
      )
    }`,
  }, "a.yaml");
  assert.equal(r.cases, 1, JSON.stringify(r.diagnostics));
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  const at = (path: string) => errors.find((d) => d.path === path);
  assert.match(
    at("evalcases[0].evaluators[0].schema.properties.age.type")!.message,
    /type 'integr' is not a JSON Schema type; did you mean 'integer'\?/,
  );
  assert.equal(at("evalcases[0].evaluators[0].schema.properties.age.type")!.line, 10);
  assert.match(
    at("evalcases[0].evaluators[0].schema.properties.id.$ref")!.message,
    /\$ref '#\/\$defs\/Id' points at nothing/,
  );
  assert.match(
    at("evalcases[0].evaluators[0].schema.properties.other.$ref")!.message,
    /only references inside this schema/,
  );
  assert.match(at("evalcases[0].evaluators[0].schema.required")!.message, /list of property names/);
});

Deno.test("json_schema follows $ref inside the schema when checking an answer", () => {
  const schema = { $defs: { Id: { type: "string" } }, properties: { id: { $ref: "#/$defs/Id" } } };
  assert.deepEqual(checkJsonSchema(schema, { id: "x" }).violations, []);
  assert.deepEqual(checkJsonSchema(schema, { id: 1 }).violations.map((v) => v.pointer), ["/id"]);
  assert.deepEqual(checkJsonSchema(schema, { id: 1 }).unsupported, []);
});

Deno.test("a case whose evaluators all have weight 0 is an error (inline rubrics still count)", async () => {
  const zero = `    evaluators:
      - { type: contains, value: ok, weight: 0 }
      - { type: equals, value: ok, weight: 0 }
`;
  const r = await report({
    "a.yaml": `evalcases:\n${CASE("zero", zero)}${
      CASE("rubric", zero + "    rubrics: [Polite]\n")
    }`,
  }, "a.yaml");
  assert.equal(r.cases, 1);
  const [error] = r.diagnostics.filter((d) => d.severity === "error");
  assert.equal(error.path, "evalcases[0].evaluators");
  assert.match(error.message, /every evaluator has weight 0/);
  const file = await report({
    "b.yaml":
      `execution:\n  evaluators:\n    - { type: contains, value: ok, weight: 0 }\nevalcases:\n${
        CASE("x")
      }`,
  }, "b.yaml");
  assert.equal(file.valid, false);
  assert.match(file.diagnostics[0].message, /every evaluator has weight 0/);
});

Deno.test("an unknown key under execution is an error with did-you-mean, in a case and at file level", async () => {
  const r = await report({
    "a.yaml": `evalcases:\n${CASE("typo", "    execution:\n      targt: default\n")}${CASE("ok")}`,
  }, "a.yaml");
  assert.equal(r.cases, 1);
  const [error] = r.diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual([error.line, error.column], [6, 7]);
  assert.match(
    error.message,
    /Unknown key 'targt' in execution; did you mean 'target'\?/,
  );
  const file = await report({
    "b.yaml": `execution:\n  target: default\n  timeout: 30\nevalcases:\n${CASE("x")}`,
  }, "b.yaml");
  assert.equal(file.valid, false);
  assert.deepEqual([file.diagnostics[0].line, file.diagnostics[0].column], [3, 3]);
  assert.match(file.diagnostics[0].message, /Unknown key 'timeout' in execution/);
});

Deno.test("a code judge cwd outside the dataset root is an error at its cwd", async () => {
  const judge = (cwd: string) =>
    `    evaluators:\n      - type: code_judge\n        script: [node, judge.js]\n        cwd: ${cwd}\n`;
  const r = await report({
    "evals/a.yaml": `evalcases:\n${CASE("outside", judge("../.."))}${CASE("inside", judge(".."))}`,
  }, "evals/a.yaml");
  assert.equal(r.cases, 1);
  const [error] = r.diagnostics.filter((d) => d.severity === "error");
  assert.equal(error.path, "evalcases[0].evaluators[0].cwd");
  assert.equal(error.line, 8);
  assert.match(
    error.message,
    /cwd '\.\.\/\.\.' of the code judge resolves to .*outside the dataset root/,
  );
});

Deno.test("a case-level `evaluator:` given as a list says to use `evaluators:`", async () => {
  const r = await report({
    "a.yaml": `evalcases:\n${
      CASE("x", "    evaluator:\n      - type: contains\n        value: ok\n")
    }`,
  }, "a.yaml");
  const [error] = r.diagnostics.filter((d) => d.severity === "error");
  assert.ok(!error.message.includes("[object Object]"), error.message);
  assert.match(error.message, /evaluator must name one evaluator type/);
  assert.match(error.message, /`evaluators:` \(plural\)/);
});

Deno.test("`${{ 1BAD }}` in a targets file is an error at the setting (it would be sent literally)", async () => {
  await using tree = await dataset({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: openai\n    model: gpt-${{ 1BAD }}\n    api_key: ${{ GOOD_NAME }}\n",
  });
  const r = await validateTargetsFile(tree.path(".agentv/targets.yaml"));
  assert.equal(r.valid, false);
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 1);
  assert.equal(errors[0].line, 4);
  assert.match(errors[0].message, /'\$\{\{ 1BAD \}\}' is not a valid variable reference/);
});
