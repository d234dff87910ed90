import { parseDocument, isMap, isSeq, isScalar, stringify, YAMLMap } from "yaml";
const text = await Deno.readTextFile("fixtures/corpus/agentv-examples/features/rubric/evals/dataset.yaml");
const doc = parseDocument(text, { keepSourceTokens: true });
const cases = doc.get("evalcases", true);
if (!isSeq(cases)) throw 1;
for (const item of cases.items) {
  if (!isMap(item)) continue;
  const last = item.items.at(-1)!;
  console.log(JSON.stringify(item.get("id")), item.range, (last.value as any)?.range, JSON.stringify(text.slice(item.range![1]-10, item.range![2]+5)));
}
