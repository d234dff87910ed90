/**
 * Editing YAML documents without disturbing them: new keys are placed with the `yaml` document
 * API (node ranges) and spliced into the original text, so comments, blank lines, quoting and
 * every other byte of the file stay as written.
 *
 * @module
 */
import { type Document, isMap, type Node, parseDocument, stringify } from "yaml";
import { AgentvError } from "../errors/agentv_error.ts";

/** A key to add to a mapping of a YAML document. */
export interface YamlKeyInsert {
  /** Path of the mapping, e.g. `["evalcases", 3]`. */
  path: readonly (string | number)[];
  /** New key (must not exist in the mapping yet). */
  key: string;
  /** Value (plain data). */
  value: unknown;
}

/** A YAML text that cannot be edited (syntax error, path not a mapping, key already there). */
export class YamlEditError extends AgentvError {
  /** Creates the error. */
  constructor(message: string) {
    super("yaml_edit", message);
    this.name = "YamlEditError";
  }
}

function parse(text: string): Document.Parsed {
  const doc = parseDocument(text, { keepSourceTokens: true });
  if (doc.errors.length > 0) throw new YamlEditError(doc.errors[0].message);
  return doc;
}

/**
 * Parses YAML text to plain data (YAML 1.2 core schema, as the loader reads eval files).
 *
 * @example
 * ```ts
 * import { readYaml } from "./yaml_edit.ts";
 * readYaml("evalcases:\n  - id: a\n"); // { evalcases: [{ id: "a" }] }
 * ```
 */
export function readYaml(text: string): unknown {
  return parse(text).toJS({ maxAliasCount: 1000 });
}

/**
 * Adds keys to mappings of a YAML document and returns the new text. For block mappings the
 * new `key:` block is inserted after the mapping's last entry, indented like its other keys;
 * flow mappings (`{...}`) get `, key: <JSON>` before their closing brace. The rest of the text
 * is unchanged byte for byte.
 *
 * @example
 * ```ts
 * import { insertYamlKeys } from "./yaml_edit.ts";
 * insertYamlKeys("cases:\n  - id: a # first\n", [
 *   { path: ["cases", 0], key: "rubrics", value: ["Is polite"] },
 * ]);
 * // "cases:\n  - id: a # first\n    rubrics:\n      - Is polite\n"
 * ```
 */
export function insertYamlKeys(text: string, inserts: readonly YamlKeyInsert[]): string {
  const doc = parse(text);
  const splices: { at: number; text: string; block: boolean }[] = [];
  for (const insert of inserts) {
    const node = doc.getIn(insert.path, true) as Node | undefined;
    const where = insert.path.map(String).join(".");
    if (!isMap(node) || !node.range) throw new YamlEditError(`${where} is not a mapping`);
    if (node.has(insert.key)) throw new YamlEditError(`${where} already has '${insert.key}'`);
    if (node.flow) {
      const close = node.range[1] - 1;
      if (text[close] !== "}") {
        throw new YamlEditError(`${where}: cannot find the end of its {...}`);
      }
      const sep = node.items.length > 0 ? ", " : "";
      splices.push({
        at: close,
        text: `${sep}${insert.key}: ${JSON.stringify(insert.value)}`,
        block: false,
      });
    } else {
      splices.push({
        at: lineEndAfter(text, node.range[1]),
        text: block(text, node, insert),
        block: true,
      });
    }
  }
  let out = text;
  for (const s of splices.sort((a, b) => b.at - a.at)) {
    const before = out.slice(0, s.at);
    const sep = s.block && before !== "" && !before.endsWith("\n") ? "\n" : "";
    out = before + sep + s.text + out.slice(s.at);
  }
  return out;
}

/** The offset just after the line holding `offset - 1` (so trailing comments stay put). */
function lineEndAfter(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === "\n") return offset;
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl + 1;
}

/** `key:` + value, indented to the column of the mapping's first key. */
function block(
  text: string,
  node: { range?: [number, number, number] | null },
  insert: YamlKeyInsert,
): string {
  const start = node.range![0];
  const column = start - (text.lastIndexOf("\n", start - 1) + 1);
  const indent = " ".repeat(column);
  const body = stringify({ [insert.key]: insert.value }, { lineWidth: 0 });
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return body.replace(/\n$/, "").split("\n").map((line) => indent + line).join(eol) + eol;
}

/**
 * The items of a top-level sequence (e.g. `evalcases`) as plain data, in order; `undefined`
 * when the key is missing or not a sequence.
 *
 * @example
 * ```ts
 * import { readYamlSequence } from "./yaml_edit.ts";
 * readYamlSequence("evalcases:\n  - id: a\n", "evalcases"); // [{ id: "a" }]
 * ```
 */
export function readYamlSequence(text: string, key: string): unknown[] | undefined {
  const value = readYaml(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const items = (value as Record<string, unknown>)[key];
  return Array.isArray(items) ? items : undefined;
}
