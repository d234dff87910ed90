/**
 * The command line of `agentv calibrate`: its options (with their help text) and the checked
 * values, each bad value a usage error naming the option and an example.
 *
 * @module
 */
import { DEFAULT_SEED } from "../compare/statistics.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { CACHE_OPTIONS, type CacheArgs, parseCacheArgs } from "./cache_args.ts";
import type { OptionSpec, ParsedArgs } from "./command.ts";

/** The output formats of `agentv calibrate`. */
const FORMATS = ["text", "markdown", "json", "html"] as const;

/** The command line of `agentv calibrate`, checked. */
export interface CalibrateArgs {
  /** The results files, as named. */
  results: string[];
  /** `--labels`. */
  labels?: string;
  /** `--evaluator` (repeatable). */
  evaluators?: string[];
  /** `--fail-below`. */
  failBelow?: number;
  /** `--min-labels`. */
  minLabels?: number;
  /** `--repeat` (0: none). */
  repeat: number;
  /** `--orders` (0: none). */
  orders: number;
  /** `--save`. */
  save: boolean;
  /** `--format` (or `--json`). */
  format: typeof FORMATS[number];
  /** `--seed`. */
  seed: number;
  /** `--resamples`. */
  resamples: number;
  /** `--judge-target`. */
  judgeTarget?: string;
  /** `--targets`. */
  targets?: string;
  /** `--workers`. */
  workers: number;
  /** `--timeout`, in ms. */
  timeoutMs: number;
  /** `--allow-run`. */
  allowRun: boolean;
  /** `--cache`, `--replay`, `--cache-dir`. */
  cache: CacheArgs;
}

/** A number option checked by `check`; `undefined` when absent. */
function numberArg(
  values: ParsedArgs["values"],
  name: string,
  check: (n: number) => boolean,
  expected: string,
  example: string,
): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const n = Number(text);
  if (text === "" || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(
      `--${name} must be ${expected}, got '${raw}'`,
      `e.g. --${name} ${example}`,
    );
  }
  return n;
}

function parseFormat(values: ParsedArgs["values"]): CalibrateArgs["format"] {
  const format = values.format === undefined ? undefined : String(values.format);
  if (values.json === true) {
    if (format !== undefined && format !== "json") {
      throw new UsageError(`--json and --format ${format} ask for two outputs`, "give one of them");
    }
    return "json";
  }
  if (format === undefined) return "text";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got '${format}'`);
  }
  return format as CalibrateArgs["format"];
}

/**
 * Reads and checks the command line of `agentv calibrate`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCalibrateArgs } from "./calibrate_args.ts";
 * const args = parseCalibrateArgs({ positionals: ["r.jsonl"], values: { repeat: "5" } });
 * assert.deepEqual([args.repeat, args.format, args.workers], [5, "text", 4]);
 * ```
 */
export function parseCalibrateArgs(args: ParsedArgs): CalibrateArgs {
  const v = args.values;
  if (args.positionals.length === 0) {
    throw new UsageError(
      "agentv calibrate takes one or more results files",
      "e.g. agentv calibrate .agentv/results/run.jsonl --labels .agentv/labels.jsonl",
    );
  }
  const int = (name: string, min: number, max: number, example: string) =>
    numberArg(
      v,
      name,
      (n) => Number.isInteger(n) && n >= min && n <= max,
      `a whole number from ${min} to ${max}`,
      example,
    );
  const parsed: CalibrateArgs = {
    results: args.positionals,
    repeat: int("repeat", 2, 100, "5") ?? 0,
    orders: int("orders", 2, 100, "3") ?? 0,
    save: v.save === true,
    format: parseFormat(v),
    seed: int("seed", 0, 0xffffffff, "7") ?? DEFAULT_SEED,
    resamples: int("resamples", 100, 100_000, "2000") ?? 2000,
    workers: int("workers", 1, 1000, "8") ?? 4,
    timeoutMs: Math.round(
      (numberArg(v, "timeout", (n) => n >= 0.001, "a number of seconds >= 0.001", "60") ?? 120) *
        1000,
    ),
    allowRun: v["allow-run"] === true,
    cache: parseCacheArgs(v),
  };
  const failBelow = numberArg(v, "fail-below", (n) => n >= -1 && n <= 1, "a κ from -1 to 1", "0.6");
  if (failBelow !== undefined) parsed.failBelow = failBelow;
  const minLabels = int("min-labels", 1, 1_000_000, "30");
  if (minLabels !== undefined) parsed.minLabels = minLabels;
  for (
    const [key, flag] of [["labels", "labels"], ["judgeTarget", "judge-target"], [
      "targets",
      "targets",
    ]] as const
  ) {
    const value = v[flag];
    if (typeof value !== "string") continue;
    if (value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
    parsed[key] = value;
  }
  const evaluators = v.evaluator;
  if (Array.isArray(evaluators) && evaluators.length > 0) {
    parsed.evaluators = evaluators.map(String);
  }
  return parsed;
}

/** The options of `agentv calibrate`. */
export const CALIBRATE_OPTIONS: Record<string, OptionSpec> = {
  labels: {
    type: "string",
    valueName: "FILE",
    description: "Labels file, one JSON label per line (default <root>/.agentv/labels.jsonl)",
  },
  evaluator: {
    type: "string",
    multiple: true,
    valueName: "NAME",
    description: "Only this evaluator (the case verdict is then left out)",
  },
  "fail-below": {
    type: "string",
    valueName: "KAPPA",
    description: "Exit 1 when Cohen's κ of an evaluator (or the case verdict) is below KAPPA",
  },
  "min-labels": {
    type: "string",
    valueName: "N",
    description: "Exit 1 when an evaluator's figures rest on fewer than N labelled answers",
  },
  repeat: {
    type: "string",
    valueName: "K",
    description:
      "Ask the judge K times again on the stored answers: flip rate, score sd, unstable answers (no target call)",
  },
  orders: {
    type: "string",
    valueName: "K",
    description: "Ask rubric judges again with the rubric items in K orders: verdicts that change",
  },
  save: {
    type: "boolean",
    description:
      "Save the calibration to <root>/.agentv/calibration/<judge>.json for run and compare",
  },
  json: { type: "boolean", description: "Print JSON (same as --format json)" },
  format: {
    type: "string",
    valueName: "FORMAT",
    description: "Output: text (default), markdown, json or html (one self-contained page)",
  },
  seed: {
    type: "string",
    valueName: "N",
    description: `Seed of the bootstrap and of the rubric orders (default ${DEFAULT_SEED})`,
  },
  resamples: {
    type: "string",
    valueName: "N",
    description: "Bootstrap resamples of every interval (default 2000)",
  },
  "judge-target": {
    type: "string",
    valueName: "NAME",
    description:
      "With --repeat/--orders: ask this judge target (default: the one each result recorded)",
  },
  targets: {
    type: "string",
    valueName: "FILE",
    description: "With --repeat/--orders: targets file (default: discovered as agentv run does)",
  },
  workers: { type: "string", valueName: "N", description: "Judge calls at once (default 4)" },
  timeout: {
    type: "string",
    valueName: "SECONDS",
    description: "Timeout of each judge call attempt (default 120)",
  },
  "allow-run": {
    type: "boolean",
    description: "Allow what a judge target starts or sends (as agentv run --allow-run)",
  },
  ...CACHE_OPTIONS,
};
