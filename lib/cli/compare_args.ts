/**
 * The options of `agentv compare` read from its command line, each with the usage error of a bad
 * value: `--delta`, `--seed`, `--format` / `--json`, `--fail-on`, `--baseline`, `--require-best`
 * and `--out`.
 *
 * @module
 */
import { type Arm, findArm } from "../compare/arms.ts";
import { DEFAULT_TIE_DELTA } from "../compare/pair.ts";
import { DEFAULT_SEED } from "../compare/statistics.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { suggest } from "../text/suggest.ts";
import type { ParsedArgs } from "./command.ts";

/** The output formats of `agentv compare`. */
export const COMPARE_FORMATS = ["text", "markdown", "json", "html"] as const;

/** An output format of `agentv compare`. */
export type CompareFormat = typeof COMPARE_FORMATS[number];

/** The gates of `--fail-on`. */
export const FAIL_ON_MODES = ["regression", "flips", "significant"] as const;

/** A gate of `--fail-on`. */
export type FailOnMode = typeof FAIL_ON_MODES[number];

/** The options of one `agentv compare`. */
export interface CompareOptions {
  /** `--delta`: the |Δ| that still counts as a tie. */
  delta: number;
  /** `--seed` of the bootstrap. */
  seed: number;
  /** `--format` (`--json` is `json`). */
  format: CompareFormat;
  /** `--fail-on`, when given. */
  failOn?: FailOnMode;
  /** `--baseline NAME`, when given. */
  baseline?: string;
  /** `--require-best NAME`, when given. */
  requireBest?: string;
  /** `--out FILE` as given, when given. */
  out?: string;
}

/**
 * Reads the options of a parsed `agentv compare` command line; throws a {@link UsageError} for a
 * bad value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCompareArgs } from "./compare_args.ts";
 * const options = parseCompareArgs({ values: { json: true, baseline: "gpt" }, positionals: [] });
 * assert.equal(options.format, "json");
 * ```
 */
export function parseCompareArgs(args: ParsedArgs): CompareOptions {
  const { values } = args;
  const name = (flag: string): string | undefined => {
    const value = values[flag];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value.trim() === "") {
      throw new UsageError(
        `--${flag} must name a target (or a results file)`,
        `e.g. --${flag} gpt-4o`,
      );
    }
    return value;
  };
  const out = values.out;
  if (out !== undefined && (typeof out !== "string" || out.trim() === "")) {
    throw new UsageError("--out must name a file", "e.g. --out compare.md");
  }
  const failOn = parseFailOn(values["fail-on"]);
  const baseline = name("baseline");
  const requireBest = name("require-best");
  return {
    delta: parseDelta(values.delta),
    seed: parseSeed(values.seed),
    format: parseFormat(values),
    ...(failOn !== undefined ? { failOn } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(requireBest !== undefined ? { requireBest } : {}),
    ...(out !== undefined ? { out: out as string } : {}),
  };
}

function parseDelta(value: unknown): number {
  if (value === undefined) return DEFAULT_TIE_DELTA;
  const text = String(value).trim();
  const n = Number(text);
  if (text === "" || !Number.isFinite(n) || n < 0) {
    throw new UsageError(
      `--delta must be a number >= 0 (the |Δ score| that still counts as a tie), got '${value}'`,
      "e.g. --delta 0.05",
    );
  }
  return n;
}

function parseSeed(value: unknown): number {
  if (value === undefined) return DEFAULT_SEED;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
    throw new UsageError(
      `--seed must be a whole number from 0 to 4294967295, got '${value}'`,
      "e.g. --seed 7",
    );
  }
  return n;
}

function parseFormat(values: ParsedArgs["values"]): CompareFormat {
  const format = values.format === undefined ? undefined : String(values.format);
  if (values.json === true) {
    if (format !== undefined && format !== "json") {
      throw new UsageError(
        `--json and --format ${format} ask for two outputs`,
        "give one of them (--json is --format json)",
      );
    }
    return "json";
  }
  if (format === undefined) return "text";
  if (!(COMPARE_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format must be one of ${COMPARE_FORMATS.join(", ")}, got '${format}'`,
      "e.g. --format markdown",
    );
  }
  return format as CompareFormat;
}

function parseFailOn(value: unknown): FailOnMode | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!(FAIL_ON_MODES as readonly string[]).includes(text)) {
    throw new UsageError(
      `--fail-on must be one of ${FAIL_ON_MODES.join(", ")}, got '${text}'`,
      "e.g. --fail-on regression (a candidate significantly worse than the baseline)",
    );
  }
  return text as FailOnMode;
}

/**
 * The arm `--baseline` or `--require-best` names (a label, a target or a results file that names
 * one arm); a {@link UsageError} with "did you mean" and the arms when it names none.
 *
 * @example
 * ```ts ignore
 * pickArm(arms, "gpt", "--baseline"); // 0
 * ```
 */
export function pickArm(arms: readonly Arm[], name: string, flag: string): number {
  const index = findArm(arms, name);
  if (index !== undefined) return index;
  const labels = arms.map((a) => a.label);
  const guess = suggest(name, [...new Set(arms.flatMap((a) => [a.label, a.target, a.source]))]);
  throw new UsageError(
    `${flag} '${name}' names none of the compared targets${
      guess ? `; did you mean '${guess}'?` : ""
    }`,
    `the targets compared: ${labels.join(", ")}`,
  );
}
