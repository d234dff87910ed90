/**
 * JSONC text (JSON with comments and trailing commas) → plain values that remember where every
 * node came from, with the same `locate` contract as `yaml_source.ts`.
 *
 * @module
 */
import { extname } from "node:path";
import type { Node, ParseError } from "jsonc-parser";
import type { Position } from "../fs/decode.ts";
import {
  parseYamlSource,
  type PathKey,
  type SourceProblem,
  type YamlParseResult,
} from "./yaml_source.ts";

/** The result of {@link parseJsoncSource} (same shape as a YAML parse). */
export type JsoncParseResult = YamlParseResult;

/**
 * Parses a targets file's text as its extension says: `.json` and `.jsonc` as JSONC, any other
 * as YAML.
 *
 * @example
 * ```ts
 * const r = await parseJsoncOrYamlSource("targets.jsonc", '{"targets": []}');
 * if (r.ok) r.source.value; // { targets: [] }
 * ```
 */
export function parseJsoncOrYamlSource(path: string, text: string): Promise<JsoncParseResult> {
  const ext = extname(path).toLowerCase();
  return ext === ".jsonc" || ext === ".json" ? parseJsoncSource(text) : parseYamlSource(text);
}

/**
 * Parses JSONC text into values with positions. Syntax errors carry line and column.
 * `npm:jsonc-parser` is imported on the first call: it is a CommonJS package (~30 ms to import),
 * and most targets files are YAML.
 *
 * @example
 * ```ts
 * const r = await parseJsoncSource('{\n  // targets\n  "targets": [],\n}');
 * if (r.ok) r.source.locate(["targets"]); // { line: 3, column: 14 }
 * ```
 */
export async function parseJsoncSource(text: string): Promise<JsoncParseResult> {
  const { findNodeAtLocation, parseTree, printParseErrorCode } = await import("jsonc-parser");
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const position = (offset: number): Position => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || root === undefined) {
    const problems: SourceProblem[] = errors.slice(0, 20).map((e) => ({
      message: `JSONC syntax error: ${printParseErrorCode(e.error)}`,
      position: position(e.offset),
    }));
    return {
      ok: false,
      errors: problems.length > 0 ? problems : [{ message: "JSONC document is empty" }],
    };
  }
  return {
    ok: true,
    source: {
      value: toValue(root),
      warnings: [],
      locate(path: readonly PathKey[], options: { key?: boolean } = {}) {
        for (let n = path.length; n >= 0; n--) {
          const node = findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
          if (node === undefined) continue;
          const keyNode = options.key && n === path.length && node.parent?.type === "property"
            ? node.parent.children?.[0]
            : undefined;
          return position((keyNode ?? node).offset);
        }
        return undefined;
      },
    },
  };
}

function toValue(node: Node): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries(
        (node.children ?? []).map((
          p,
        ) => [p.children![0].value, p.children![1] ? toValue(p.children![1]) : null]),
      );
    case "array":
      return (node.children ?? []).map(toValue);
    default:
      return node.value;
  }
}
