/**
 * Turns schema validation issues into located findings: picks the relevant branch of a union,
 * separates unknown keys (warnings, stripped so the value can be re-validated) from real
 * errors, and words messages as "what is wrong; what was expected; how to fix".
 *
 * @module
 */
import { EXECUTION_KEYS } from "../schema/eval_file.ts";
import { evalFormatKeys } from "../schema/json_schema.ts";
import type { PathKey } from "./yaml_source.ts";
import { suggest } from "../text/suggest.ts";
import { formatPath } from "./errors.ts";

/** The parts of a schema issue the loader reads (structurally compatible with zod's issues). */
export interface SchemaIssue {
  /** Issue code (`invalid_type`, `unrecognized_keys`, `invalid_union`, `custom`, ...). */
  readonly code: string;
  /** Path inside the validated value. */
  readonly path: readonly PropertyKey[];
  /** The schema's message. */
  readonly message: string;
  /** Unknown keys (`unrecognized_keys`). */
  readonly keys?: readonly string[];
  /** Per-branch issues (`invalid_union`). */
  readonly errors?: readonly (readonly SchemaIssue[])[];
}

/** A problem at a path inside one validated value. */
export interface Finding {
  /** `error` or `warning`. */
  severity: "error" | "warning";
  /** Path inside the validated value. */
  path: PathKey[];
  /** Whether the position should be that of the key (unknown keys). */
  atKey: boolean;
  /** The message, without any location prefix. */
  message: string;
}

/** Findings plus the unknown keys to strip before validating again. */
export interface IssueReport {
  /** Errors and warnings. */
  findings: Finding[];
  /** Paths of unknown keys (the last element is the key). */
  unknownKeys: PathKey[][];
}

const MISSING_OUTCOME = "missing expected_outcome";

/**
 * Converts schema issues into findings. Unknown keys become warnings with a "did you mean"
 * suggestion; a missing `expected_outcome` is a warning (the case is skipped, as the JSONL spec
 * asks); everything else is an error.
 */
export function reportIssues(issues: readonly SchemaIssue[]): IssueReport {
  const findings: Finding[] = [];
  const unknownKeys: PathKey[][] = [];
  const seen = new Set<string>();
  for (const issue of flatten(issues, [])) {
    const path = issue.path as PathKey[];
    if (issue.code === "unrecognized_keys" && issue.keys && lastKey(path) === "execution") {
      // `execution` holds run settings: a key agentv does not know would silently change nothing.
      for (const key of issue.keys) {
        const guess = suggest(key, EXECUTION_KEYS);
        findings.push({
          severity: "error",
          path: [...path, key],
          atKey: true,
          message: `Unknown key '${key}' in ${formatPath(path)}; ${
            guess ? `did you mean '${guess}'?` : `expected ${EXECUTION_KEYS.join(" or ")};`
          } execution takes only ${EXECUTION_KEYS.join(" and ")}; rename or remove the key`,
        });
      }
      continue;
    }
    if (issue.code === "unrecognized_keys" && issue.keys) {
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        unknownKeys.push(keyPath);
        const guess = suggest(key, evalFormatKeys());
        // A key the format knows elsewhere (e.g. `rubrics` on a `contains` evaluator) is misplaced.
        const misplaced = guess !== undefined && guess.toLowerCase() === key.toLowerCase();
        const hint = misplaced
          ? "it is not valid at this place;"
          : guess
          ? `did you mean '${guess}'?`
          : "expected one of the documented keys;";
        findings.push({
          severity: "warning",
          path: keyPath,
          atKey: true,
          message: `Unknown key '${key}'${
            path.length > 0 ? ` in ${formatPath(path)}` : ""
          }; ${hint} the key is ignored; ${
            misplaced ? "remove or move it" : "remove or rename it"
          }`,
        });
      }
      continue;
    }
    const message = wordIssue(issue, path);
    const dedupe = `${formatPath(path)}\0${message}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    findings.push({
      severity: issue.message.startsWith(MISSING_OUTCOME) ? "warning" : "error",
      path,
      atKey: false,
      message,
    });
  }
  return { findings, unknownKeys };
}

/**
 * A copy of `value` without the keys at `paths` (only the objects on those paths are copied).
 *
 * @example
 * ```ts
 * stripKeys({ a: { b: 1, c: 2 } }, [["a", "c"]]); // { a: { b: 1 } }
 * ```
 */
export function stripKeys(value: unknown, paths: readonly PathKey[][]): unknown {
  let out = value;
  for (const path of paths) out = stripOne(out, path, 0);
  return out;
}

function stripOne(value: unknown, path: readonly PathKey[], i: number): unknown {
  if (value === null || typeof value !== "object") return value;
  const key = path[i];
  if (Array.isArray(value)) {
    if (typeof key !== "number" || i === path.length - 1) return value;
    const copy = value.slice();
    copy[key] = stripOne(value[key], path, i + 1);
    return copy;
  }
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...record };
  if (i === path.length - 1) {
    delete copy[String(key)];
  } else {
    copy[String(key)] = stripOne(record[String(key)], path, i + 1);
  }
  return copy;
}

/** Replaces union issues by the issues of their most relevant branch, recursively. */
function flatten(issues: readonly SchemaIssue[], prefix: PropertyKey[]): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors && issue.errors.length > 0) {
      const relevant = issue.errors.filter((branch) =>
        !branch.every((b) => b.path.length === 0 && b.code === "invalid_type")
      );
      if (relevant.length > 0) {
        const best = relevant.reduce((a, b) => depth(b) > depth(a) ? b : a);
        out.push(...flatten(best, path));
        continue;
      }
    }
    out.push({ ...issue, path });
  }
  return out;
}

function depth(branch: readonly SchemaIssue[]): number {
  return Math.max(...branch.map((i) => i.path.length + (i.code === "unrecognized_keys" ? 0.5 : 0)));
}

/** A message naming the field, what was expected and (when the schema's text lacks it) a fix. */
function wordIssue(issue: SchemaIssue, path: readonly PathKey[]): string {
  const text = issue.message;
  const field = lastKey(path);
  const named = field === undefined || text.toLowerCase().includes(String(field).toLowerCase()) ||
    text.startsWith("missing ") || /^(a|an|the|evaluator|mode|message|input|tool) /i.test(text);
  return named ? text : `${formatPath(path)}: ${lowerFirst(text)}`;
}

function lastKey(path: readonly PathKey[]): PathKey | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    if (typeof path[i] === "string") return path[i];
  }
  return undefined;
}

function lowerFirst(s: string): string {
  return s.length > 0 && !/^[A-Z]{2}/.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}
