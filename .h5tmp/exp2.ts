import { insertYamlKeys, readYamlSequence } from "../lib/source/yaml_edit.ts";
const text = await Deno.readTextFile("fixtures/corpus/agentv-examples/features/rubric/evals/dataset.yaml");
const out = insertYamlKeys(text, [{ path: ["evalcases", 3], key: "rubrics", value: [{ id: "r1", description: "Under 50 words: yes", weight: 1, required: true }, {id:"r2", description:"multi\nline", weight: 2, required: false}] }]);
await Deno.writeTextFile(".h5tmp/out.yaml", out);
console.log(readYamlSequence(out, "evalcases")![3]);
console.log(insertYamlKeys("cases:\n  - id: a # first\n", [{ path: ["cases", 0], key: "rubrics", value: ["Is polite"] }]));
console.log(insertYamlKeys("cases:\n  - {id: a} # first\n", [{ path: ["cases", 0], key: "rubrics", value: ["Is polite"] }]));
