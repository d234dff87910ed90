/**
 * Where each case of an eval file starts: case id → 1-based line, found in the file's text
 * (the loaded cases hold no positions). Used to point CI annotations at the case.
 *
 * @module
 */
import { splitJsonlLines } from "../dataset/jsonl_source.ts";
import { parseYamlSource } from "../dataset/yaml_source.ts";

/**
 * The line of each case id in an eval file's text: for YAML the line of `id:` in an `evalcases`
 * item, for JSONL (`format: "jsonl"`) the line of the record. The first occurrence of an id
 * wins; a text that does not parse gives an empty map (never throws).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locateCaseLines } from "./case_lines.ts";
 * const yaml = "evalcases:\n  - id: a\n    input: Hi\n  - input: Bye\n    id: b\n";
 * assert.deepEqual([...await locateCaseLines(yaml, "yaml")], [["a", 2], ["b", 5]]);
 * const jsonl = '{"id": "a"}\n\n{"id": "b"}\n';
 * assert.deepEqual([...await locateCaseLines(jsonl, "jsonl")], [["a", 1], ["b", 3]]);
 * ```
 */
export async function locateCaseLines(
  text: string,
  format: "yaml" | "jsonl",
): Promise<Map<string, number>> {
  const lines = new Map<string, number>();
  if (format === "jsonl") {
    for (const { line, text: record } of splitJsonlLines(text)) {
      let value: unknown;
      try {
        value = JSON.parse(record);
      } catch {
        continue;
      }
      const id = idOf(value);
      if (id !== undefined && !lines.has(id)) lines.set(id, line);
    }
    return lines;
  }
  const parsed = await parseYamlSource(text);
  if (!parsed.ok) return lines;
  const value = parsed.source.value;
  const cases = value !== null && typeof value === "object"
    ? (value as { evalcases?: unknown }).evalcases
    : undefined;
  if (!Array.isArray(cases)) return lines;
  cases.forEach((c, i) => {
    const id = idOf(c);
    if (id === undefined || lines.has(id)) return;
    const at = parsed.source.locate(["evalcases", i, "id"]) ??
      parsed.source.locate(["evalcases", i]);
    if (at?.line !== undefined) lines.set(id, at.line);
  });
  return lines;
}

function idOf(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" ? id : typeof id === "number" ? String(id) : undefined;
}
