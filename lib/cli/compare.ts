/**
 * `agentv compare <baseline> <candidate>`: pairs the cases of two results files by dataset + id,
 * reports wins / losses / ties, verdict flips and per-evaluator Δ, tests whether the mean Δ is
 * real (paired bootstrap interval + Wilcoxon signed-rank and sign tests), and can gate CI with
 * `--fail-on regression|flips|significant`.
 *
 * @module
 */
import { resolve } from "node:path";
import { renderCompareHtml } from "../render/compare_html.ts";
import { compareToJson } from "../compare/compare_json.ts";
import { DEFAULT_TIE_DELTA, pairRuns, type RunPairing } from "../compare/pair.ts";
import { markdownCell, renderCompareMarkdown } from "../render/compare_markdown.ts";
import {
  type CalibratedSide,
  compareCalibrationMarkdown,
  compareCalibrationText,
} from "../render/calibration_summary.ts";
import { calibratedSides } from "./compare_calibration.ts";
import { renderCompareText } from "../render/compare_text.ts";
import { DEFAULT_SEED } from "../compare/statistics.ts";
import {
  type CompareLabels,
  type ComparisonSummary,
  summarizeComparison,
} from "../compare/summary.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { readResultsArg } from "./results_arg.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";

/** The output formats of `agentv compare`. */
export const COMPARE_FORMATS = ["text", "markdown", "json", "html"] as const;

/** An output format of `agentv compare`. */
export type CompareFormat = typeof COMPARE_FORMATS[number];

/** The gates of `--fail-on`. */
export const FAIL_ON_MODES = ["regression", "flips", "significant"] as const;

/** A gate of `--fail-on`. */
export type FailOnMode = typeof FAIL_ON_MODES[number];

/**
 * Whether a comparison fails the `--fail-on` gate: `significant` when the mean Δ is significantly
 * negative (verdict `regressed`), `flips` when any case went pass→fail, `regression` when either.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ComparisonSummary } from "../compare/summary.ts";
 * import { failsGate } from "./compare.ts";
 *
 * const summary = { verdict: "no significant change", pass_to_fail: 1 } as ComparisonSummary;
 * assert.deepEqual(
 *   [failsGate(summary, "regression"), failsGate(summary, "flips"), failsGate(summary, "significant")],
 *   [true, true, false],
 * );
 * ```
 */
export function failsGate(summary: ComparisonSummary, mode: FailOnMode): boolean {
  const regressed = summary.verdict === "regressed";
  const flips = summary.pass_to_fail > 0;
  if (mode === "significant") return regressed;
  if (mode === "flips") return flips;
  return regressed || flips;
}

/** One side as read: its rows, or the located problems that make it unusable. */
interface Side {
  rows: ResultRow[];
  problems: Diagnostic[];
}

/** Reads one side; a missing file is a usage error, bad lines are located problems. */
async function readSide(arg: string, side: string, io: CommandIO): Promise<Side> {
  const path = resolve(io.cwd, arg);
  const read = await readResultsArg(path, io, {
    what: `${side} results file`,
    hint: "name two results files written by agentv run: agentv compare old.jsonl new.jsonl",
  });
  // Every line that is not a valid row (file:line:col, what is wrong): comparing what is left
  // would hide cases, so the command stops instead.
  const problems: Diagnostic[] = [...read.problems];
  if (read.rows.length === 0 && problems.length === 0) {
    problems.push({
      severity: "error",
      file: path,
      message: `The ${side} results file has no result rows: expected one JSON row per case ` +
        "(a JSONL file written by agentv run)",
    });
  }
  return { rows: read.rows, problems };
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
      "e.g. --fail-on regression (a significantly worse mean score or any pass→fail flip)",
    );
  }
  return text as FailOnMode;
}

/** Prints the comparison in `format`, each side's corrected pass rate after it (not in HTML). */
function writeComparison(
  format: CompareFormat,
  c: {
    pairing: RunPairing;
    summary: ComparisonSummary;
    labels: CompareLabels;
    calibrated: CalibratedSide[];
  },
  io: CommandIO,
): void {
  const { pairing, summary, labels, calibrated } = c;
  const anyCalibrated = calibrated.some((s) => s.section !== undefined);
  if (format === "json") {
    const json = compareToJson(pairing, summary, labels);
    const calibration = Object.fromEntries(calibrated.map((s) => [s.side, s.section ?? null]));
    io.stdout(JSON.stringify(anyCalibrated ? { ...json, calibration } : json, null, 2) + "\n");
  } else if (format === "markdown") {
    io.stdout(renderCompareMarkdown(pairing, summary, labels));
    if (anyCalibrated) io.stdout("\n" + compareCalibrationMarkdown(calibrated, markdownCell));
  } else if (format === "html") {
    io.stdout(renderCompareHtml(pairing, summary, { labels }));
  } else {
    io.stdout(renderCompareText(pairing, summary, labels, { style: createPaint(io.color) }));
    if (anyCalibrated) io.stdout("\n" + compareCalibrationText(calibrated));
  }
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length !== 2) {
    throw new UsageError(
      `agentv compare takes two results files (baseline, candidate), got ${args.positionals.length}`,
      "e.g. agentv compare .agentv/results/before.jsonl .agentv/results/after.jsonl",
    );
  }
  const delta = parseDelta(args.values.delta);
  const seed = parseSeed(args.values.seed);
  const format = parseFormat(args.values);
  const failOn = parseFailOn(args.values["fail-on"]);
  const [baselineArg, candidateArg] = args.positionals;
  const baseline = await readSide(baselineArg, "baseline", io);
  const candidate = await readSide(candidateArg, "candidate", io);
  const problems = [...baseline.problems, ...candidate.problems];
  if (problems.length > 0) {
    io.stderr(
      renderDiagnosticsFor(problems, io) + "\n",
    );
    return 2;
  }
  const pairing = pairRuns(baseline.rows, candidate.rows, { delta });
  const summary = summarizeComparison(pairing, { seed });
  const labels = { baseline: baselineArg, candidate: candidateArg };
  // Each side's pass rate corrected for its judge's error, when a calibration of it is saved.
  const calibrated = await calibratedSides([
    { side: "baseline", label: baselineArg, rows: baseline.rows },
    { side: "candidate", label: candidateArg, rows: candidate.rows },
  ], io);
  writeComparison(format, { pairing, summary, labels, calibrated }, io);
  if (failOn !== undefined && failsGate(summary, failOn)) {
    const why: string[] = [];
    if (failOn !== "flips" && summary.verdict === "regressed") {
      why.push("the mean score is significantly lower");
    }
    if (failOn !== "significant" && summary.pass_to_fail > 0) {
      why.push(`${summary.pass_to_fail} case(s) went from pass to fail`);
    }
    io.stderr(`agentv compare: --fail-on ${failOn}: ${why.join(" and ")}\n`);
    return 1;
  }
  return 0;
}

/** The `compare` command. */
export const compareCommand: Command = {
  ...commandInfo("compare"),
  usage: "agentv compare <baseline> <candidate> [--delta X] [--fail-on MODE] [--json] " +
    "[--format text|markdown|json|html]",
  options: {
    delta: {
      type: "string",
      valueName: "X",
      description: `|Δ score| that still counts as a tie (default ${DEFAULT_TIE_DELTA})`,
    },
    "fail-on": {
      type: "string",
      valueName: "MODE",
      description: "Exit 1 on: regression (significantly lower mean or any pass→fail), " +
        "flips (any pass→fail), significant (significantly lower mean)",
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
      description: `Seed of the bootstrap resampling (default ${DEFAULT_SEED})`,
    },
  },
  run,
};
