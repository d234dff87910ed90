/**
 * The published JSON Schemas (`schema/eval.schema.json`, `schema/sidecar.schema.json`) are the
 * generated ones, and a real draft 2020-12 validator (ajv) gives every eval and sidecar fixture
 * the verdict `validate` gives it, except for the rules a JSON Schema cannot express (listed
 * below, file by file).
 */
import assert from "node:assert/strict";
import { basename, dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";
import { discoverEvalFiles } from "../../lib/dataset/discover.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { evalFileJsonSchema, sidecarJsonSchema } from "../../lib/schema/json_schema.ts";
import { parseYamlSource } from "../../lib/dataset/yaml_source.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURES = join(REPO, "fixtures");

/**
 * Fixtures `validate` rejects for reasons a JSON Schema cannot express (a missing referenced file,
 * an unknown judge prompt variable, a regex outside the linear-time subset, a duplicate id, an
 * unknown target, `weight: .inf`), so the schema accepts them. Keep both lists exact: the test
 * fails when a fixture is missing from them or listed needlessly. None today: every fixture
 * `validate` rejects breaks a rule the schema expresses too.
 */
const SCHEMA_CANNOT_EXPRESS: Record<string, string> = {};

/**
 * Fixtures the schema rejects although `validate` accepts them: an unknown key is a warning in
 * `validate` (the key is ignored) but JSON Schema has no warnings, and the published schemas keep
 * `additionalProperties: false` so editors flag typos.
 */
const STRICTER_SCHEMA: Record<string, string> = {
  // Its `dataset.yaml` is a YAML eval file, but beside `dataset.jsonl` it is also that file's
  // sidecar, where `evalcases` is an unknown key: a warning for validate, an error for the schema.
  "fixtures/judged/generate/dataset.jsonl": "sidecar holds `evalcases` (unknown key)",
};

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

function compile(schema: object): Validate {
  // ajv's CommonJS default export, as Deno sees it.
  const Ajv2020 = (Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module;
  const ajv = new (Ajv2020 as new (options: object) => { compile(s: object): Validate })({
    allErrors: true,
    strict: false,
  });
  return ajv.compile(schema);
}

const evalSchema = compile(evalFileJsonSchema());
const sidecarSchema = compile(sidecarJsonSchema());

/** The schema's verdict on an eval file (YAML, or JSONL with its sidecar), with reasons. */
async function schemaVerdict(file: string): Promise<{ valid: boolean; why: string }> {
  const bytes = await Deno.readFile(file);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { valid: false, why: "not UTF-8" };
  }
  if (extname(file) === ".jsonl") {
    const sidecar = join(dirname(file), basename(file, ".jsonl") + ".yaml");
    const problems: string[] = [];
    try {
      const parsed = await parseYamlSource(await Deno.readTextFile(sidecar));
      if (!parsed.ok) problems.push("sidecar: YAML syntax");
      else if (!sidecarSchema(parsed.source.value)) {
        problems.push(`sidecar: ${JSON.stringify(sidecarSchema.errors)}`);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    for (const [index, line] of text.replace(/^\uFEFF/, "").split(/\r?\n/).entries()) {
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        problems.push(`line ${index + 1}: not JSON`);
        continue;
      }
      // One line is one case: checked as the only case of an eval file.
      if (!evalSchema({ evalcases: [value] })) {
        problems.push(`line ${index + 1}: ${JSON.stringify(evalSchema.errors)}`);
      }
    }
    return { valid: problems.length === 0, why: problems.join("; ") };
  }
  const parsed = await parseYamlSource(text);
  if (!parsed.ok) return { valid: false, why: "YAML syntax" };
  const valid = evalSchema(parsed.source.value);
  return { valid, why: valid ? "" : JSON.stringify(evalSchema.errors) };
}

Deno.test("schema/eval.schema.json and schema/sidecar.schema.json are the generated schemas", async () => {
  for (
    const [file, generated] of [
      ["schema/eval.schema.json", evalFileJsonSchema()],
      ["schema/sidecar.schema.json", sidecarJsonSchema()],
    ] as const
  ) {
    const committed = JSON.parse(await Deno.readTextFile(join(REPO, file)));
    assert.deepStrictEqual(
      committed,
      JSON.parse(JSON.stringify(generated)),
      `regenerate ${file} (evalFileJsonSchema / sidecarJsonSchema)`,
    );
  }
});

Deno.test("the JSON Schemas give every eval and sidecar fixture the verdict validate gives", async () => {
  const { files } = await discoverEvalFiles([FIXTURES], { cwd: REPO });
  assert.ok(files.length >= 50, `only ${files.length} fixtures found`);
  const disagreements: Record<string, string> = {};
  for (const file of files) {
    const name = relative(REPO, file);
    const [validated, schema] = await Promise.all([validateEvalFile(file), schemaVerdict(file)]);
    if (validated.valid === schema.valid) continue;
    disagreements[name] = validated.valid
      ? `schema rejects, validate accepts: ${schema.why}`
      : `validate rejects, schema accepts: ${
        validated.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)
          .join(" | ")
      }`;
  }
  assert.deepEqual(
    Object.keys(disagreements).sort(),
    [...Object.keys(SCHEMA_CANNOT_EXPRESS), ...Object.keys(STRICTER_SCHEMA)].sort(),
    JSON.stringify(disagreements, null, 2),
  );
});

/**
 * Small datasets, one per rule `validate` enforces that a JSON Schema can express, plus (with
 * `schemaCannotExpress`) rules it cannot, where the schema accepts what `validate` rejects.
 */
const RULES: Record<string, { yaml: string; valid: boolean; schemaCannotExpress?: true }> = {
  "contains with neither value nor values": {
    yaml: caseWith("    evaluators: [{ type: contains }]\n"),
    valid: false,
  },
  "contains with values": {
    yaml: caseWith("    evaluators: [{ type: contains, values: [a, b], mode: any }]\n"),
    valid: true,
  },
  "a case without input": {
    yaml: "evalcases:\n  - id: a\n    expected_outcome: G\n",
    valid: false,
  },
  "a case with input_messages only": {
    yaml:
      "evalcases:\n  - id: a\n    expected_outcome: G\n    input_messages: [{ role: user, content: hi }]\n",
    valid: true,
  },
  "an empty input list": {
    yaml: "evalcases:\n  - id: a\n    expected_outcome: G\n    input: []\n",
    valid: false,
  },
  "an empty input_messages list": {
    yaml: "evalcases:\n  - id: a\n    expected_outcome: G\n    input_messages: []\n",
    valid: false,
  },
  "a message with neither content nor tool_calls": {
    yaml: "evalcases:\n  - id: a\n    expected_outcome: G\n    input: [{ role: user }]\n",
    valid: false,
  },
  "code_judge with neither module nor script": {
    yaml: caseWith("    evaluators: [{ type: code_judge }]\n"),
    valid: false,
  },
  "tool_trajectory in_order without expected": {
    yaml: caseWith("    evaluators: [{ type: tool_trajectory, mode: in_order }]\n"),
    valid: false,
  },
  "tool_trajectory any_order without minimums": {
    yaml: caseWith("    evaluators: [{ type: tool_trajectory, mode: any_order }]\n"),
    valid: false,
  },
  "token_usage without a limit": {
    yaml: caseWith("    evaluators: [{ type: token_usage }]\n"),
    valid: false,
  },
  "equals without value": {
    yaml: caseWith("    evaluators: [{ type: equals }]\n"),
    valid: false,
  },
  "equals with value null": {
    yaml: caseWith("    evaluators: [{ type: equals, value: null }]\n"),
    valid: true,
  },
  "every evaluator weight 0": {
    yaml: caseWith("    evaluators: [{ type: contains, value: x, weight: 0 }]\n"),
    valid: false,
  },
  "weight 0 beside inline rubrics": {
    yaml: caseWith("    rubrics: [Mentions x]\n    evaluators: [{ type: is_json, weight: 0 }]\n"),
    valid: true,
  },
  "file-level execution evaluators all weight 0": {
    yaml: "execution:\n  evaluators: [{ type: is_json, weight: 0 }]\n" + caseWith(""),
    valid: false,
  },
  "expected_output: null": {
    yaml: caseWith("    expected_output:\n"),
    valid: true,
  },
  "expected_output as a list of records": {
    yaml: caseWith("    expected_output: [{ invoice: 1 }, { invoice: 2 }]\n"),
    valid: true,
  },
  "expected_output mixing records and messages": {
    yaml: caseWith(
      "    expected_output: [{ invoice: 1 }, { role: assistant, content: x }]\n",
    ),
    valid: false,
  },
  "a reference to a missing file (the schema cannot read files)": {
    yaml: "evalcases:\n  - id: a\n    expected_outcome: G\n" +
      "    input: [{ role: user, content: [{ type: file, value: ./missing.md }] }]\n",
    valid: false,
    schemaCannotExpress: true,
  },
  "a regex with a backreference (JSON Schema cannot inspect a pattern)": {
    yaml: caseWith("    evaluators: [{ type: regex, pattern: '(a)\\1' }]\n"),
    valid: false,
    schemaCannotExpress: true,
  },
  "weight .inf (JSON has no infinities)": {
    yaml: caseWith("    evaluators: [{ type: is_json, weight: .inf }]\n"),
    valid: false,
    schemaCannotExpress: true,
  },
};

function caseWith(extra: string): string {
  return `evalcases:\n  - id: a\n    expected_outcome: G\n    input: hi\n${extra}`;
}

Deno.test("each rule validate enforces that a JSON Schema can express gets the same verdict from the schema", async () => {
  await using tree = await tempTree(
    Object.fromEntries(
      Object.values(RULES).map((rule, i) => [`evals/rule${i}.yaml`, rule.yaml]),
    ),
    { git: true },
  );
  const mismatches: string[] = [];
  for (const [i, [name, rule]] of Object.entries(RULES).entries()) {
    const file = tree.path(`evals/rule${i}.yaml`);
    const validated = await validateEvalFile(file);
    const schema = await schemaVerdict(file);
    if (validated.valid !== rule.valid) {
      mismatches.push(`${name}: validate says ${validated.valid}, expected ${rule.valid}`);
    }
    const schemaExpected = rule.schemaCannotExpress ? true : rule.valid;
    if (schema.valid !== schemaExpected) {
      mismatches.push(
        `${name}: schema says ${schema.valid} (${schema.why}), expected ${schemaExpected}`,
      );
    }
  }
  assert.deepEqual(mismatches, []);
});
