/**
 * YAML text → plain values that remember where every node came from, so diagnostics can point
 * at the offending line and column. Bounded: alias expansion is capped and deep nesting ends in
 * a parse error, never a crash.
 *
 * @module
 */
import type { Node } from "yaml";
import type { Position } from "../fs/decode.ts";
import { yamlErrorCause } from "./yaml_error_cause.ts";

/** One step of a path inside a document: a mapping key or a list index. */
export type PathKey = string | number;

/** A problem in the source text, with its position when known. */
export interface SourceProblem {
  /** What is wrong (no position prefix). */
  message: string;
  /** Where, when known. */
  position?: Position;
}

/** A parsed YAML document: its value plus a locator for paths inside it. */
export interface YamlSource {
  /** The document as plain JavaScript values. */
  value: unknown;
  /** Non-fatal findings of the parser (e.g. unresolved tags). */
  warnings: SourceProblem[];
  /**
   * Position of the node at `path`. A missing key points at its parent mapping; with
   * `key: true` the position is that of the key itself (for unknown keys).
   */
  locate(path: readonly PathKey[], options?: { key?: boolean }): Position | undefined;
}

/** The result of {@link parseYamlSource}. */
export type YamlParseResult =
  | { ok: true; source: YamlSource }
  | { ok: false; errors: SourceProblem[] };

/** Options of {@link parseYamlSource}. */
export interface YamlSourceOptions {
  /** Largest number of alias uses before the document is refused (default 1000). */
  maxAliasCount?: number;
}

/** The `yaml` package, once {@link loadYamlParser} has imported it. */
let yamlPackage: typeof import("yaml") | undefined;

/**
 * Imports `npm:yaml` (once). {@link parseYamlSource} does it on its first call; a caller that
 * will parse YAML later may start it early, while it waits for something else.
 *
 * @example
 * ```ts
 * const loading = loadYamlParser(); // overlaps with other work
 * await loading;
 * ```
 */
export async function loadYamlParser(): Promise<typeof import("yaml")> {
  return yamlPackage ??= await import("yaml");
}

/**
 * Parses YAML text (YAML 1.2 core schema, duplicate keys refused) into values with positions.
 * `npm:yaml` is imported on the first call: it is a CommonJS package, and importing it starts
 * Deno's Node layer (~60 ms in a fresh worker), which a JSONL dataset never needs.
 *
 * @example
 * ```ts
 * const r = await parseYamlSource("evalcases:\n  - id: a\n");
 * if (r.ok) r.source.locate(["evalcases", 0, "id"]); // { line: 2, column: 9 }
 * ```
 */
export async function parseYamlSource(
  text: string,
  options: YamlSourceOptions = {},
): Promise<YamlParseResult> {
  const { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } =
    await loadYamlParser();
  const lineCounter = new LineCounter();
  const position = (offset: number | undefined): Position | undefined => {
    if (offset === undefined) return undefined;
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  let doc;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    return { ok: false, errors: [{ message: `YAML parser failed: ${errorText(e)}` }] };
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      // Positions point at the cause (an opening quote, an over-indented line), not at the
      // place the parser gave up (often the end of the file).
      // One error per position: the parser often reports one mistake several ways at one place.
      errors: oncePerPosition(
        doc.errors.map((e) => ({
          message: `YAML syntax error: ${firstLine(e.message)}`,
          position: position(yamlErrorCause(text, e, doc.errors)),
        })),
      ).slice(0, 20),
    };
  }
  const maxAliasCount = options.maxAliasCount ?? 1000;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount });
  } catch (e) {
    const message = e instanceof ReferenceError && /alias/i.test(e.message)
      ? `YAML aliases expand too much (more than ${maxAliasCount} alias uses); expected a document without alias bombs; remove the nested anchors and aliases`
      : `YAML document could not be converted: ${errorText(e)}`;
    return { ok: false, errors: [{ message }] };
  }
  const warnings = doc.warnings.map((w) => ({
    message: firstLine(w.message),
    position: position(w.pos[0]),
  }));
  const source: YamlSource = {
    value,
    warnings,
    locate(path, locateOptions = {}) {
      let node: unknown = doc.contents;
      let last: Node | undefined = doc.contents ?? undefined;
      for (let i = 0; i < path.length; i++) {
        const key = path[i];
        if (isAlias(node)) node = node.resolve(doc);
        if (isMap(node)) {
          const pair = node.items.find((p) =>
            isPair(p) && (isScalar(p.key) ? String(p.key.value) === String(key) : false)
          );
          if (!pair) break;
          if (locateOptions.key && i === path.length - 1 && isScalar(pair.key)) {
            return position(pair.key.range?.[0]);
          }
          node = pair.value;
          if (node === null || node === undefined) {
            return position((pair.key as Node | null)?.range?.[0]);
          }
        } else if (isSeq(node) && typeof key === "number") {
          node = node.items[key];
          if (node === undefined) break;
        } else {
          break;
        }
        last = node as Node;
      }
      return position(last?.range?.[0]);
    },
  };
  return { ok: true, source };
}

function firstLine(message: string): string {
  const i = message.indexOf("\n");
  return (i === -1 ? message : message.slice(0, i)).trim();
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The first error at each position (errors without one are all kept), in order. */
function oncePerPosition<T extends { position?: Position }>(errors: readonly T[]): T[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (e.position === undefined) return true;
    const key = `${e.position.line}:${e.position.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
