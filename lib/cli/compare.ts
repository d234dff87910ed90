/**
 * `agentv compare RESULTS...`: compares the targets of one or more results files.
 *
 * Two files of one target each (a baseline and a candidate) are compared as they always were:
 * cases paired by dataset + id, wins / losses / ties, verdict flips and per-evaluator Δ, whether
 * the mean Δ is real (paired bootstrap interval + Wilcoxon signed-rank and sign tests), gates
 * `--fail-on regression|flips|significant`. Anything else (one run of several targets, or more
 * runs) is an N-way comparison (`compare_matrix.ts`): a leaderboard, every pair with Holm's
 * correction, the Pareto fronts, gates `--fail-on` (against `--baseline`) and `--require-best`.
 * `--out FILE` writes the output to a file, never over an input results file or a file its run
 * read.
 *
 * @module
 */
import { resolve } from "node:path";
import { renderCompareHtml } from "../render/compare_html.ts";
import { compareToJson } from "../compare/compare_json.ts";
import { type Arm, armsOf, type CompareInput } from "../compare/arms.ts";
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
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { readResultsArg } from "./results_arg.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import {
  type CompareFormat,
  type CompareOptions,
  type FailOnMode,
  parseCompareArgs,
  pickArm,
} from "./compare_args.ts";
import { compareMatrix } from "./compare_matrix.ts";
import { refuseOutputOverRecordedRun } from "./recorded_inputs.ts";
import { writeReportFile } from "./report.ts";

export {
  COMPARE_FORMATS,
  type CompareFormat,
  FAIL_ON_MODES,
  type FailOnMode,
} from "./compare_args.ts";

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

/** One results file as read: its rows, or the located problems that make it unusable. */
interface Side {
  rows: CompareInput["rows"];
  problems: Diagnostic[];
}

/** Reads one results file; a missing file is a usage error, bad lines are located problems. */
async function readSide(arg: string, what: string, io: CommandIO): Promise<Side> {
  const path = resolve(io.cwd, arg);
  const read = await readResultsArg(path, io, {
    what: `${what} results file`.trimStart(),
    hint: "name results files written by agentv run: agentv compare run.jsonl, or agentv " +
      "compare old.jsonl new.jsonl",
  });
  // Every line that is not a valid row (file:line:col, what is wrong): comparing what is left
  // would hide cases, so the command stops instead.
  const problems: Diagnostic[] = [...read.problems];
  if (read.rows.length === 0 && problems.length === 0) {
    problems.push({
      severity: "error",
      file: path,
      message: `The ${`${what} results file`.trimStart()} has no result rows: expected one ` +
        "JSON row per case (a JSONL file written by agentv run)",
    });
  }
  return { rows: read.rows, problems };
}

/** The comparison of two runs in `format`, each side's corrected pass rate after it (not in HTML). */
function renderComparison(
  format: CompareFormat,
  c: {
    pairing: RunPairing;
    summary: ComparisonSummary;
    labels: CompareLabels;
    calibrated: CalibratedSide[];
  },
  io: CommandIO,
): string {
  const { pairing, summary, labels, calibrated } = c;
  const anyCalibrated = calibrated.some((s) => s.section !== undefined);
  if (format === "json") {
    const json = compareToJson(pairing, summary, labels);
    const calibration = Object.fromEntries(calibrated.map((s) => [s.side, s.section ?? null]));
    return JSON.stringify(anyCalibrated ? { ...json, calibration } : json, null, 2) + "\n";
  }
  if (format === "markdown") {
    return renderCompareMarkdown(pairing, summary, labels) +
      (anyCalibrated ? "\n" + compareCalibrationMarkdown(calibrated, markdownCell) : "");
  }
  if (format === "html") return renderCompareHtml(pairing, summary, { labels });
  return renderCompareText(pairing, summary, labels, { style: createPaint(io.color) }) +
    (anyCalibrated ? "\n" + compareCalibrationText(calibrated) : "");
}

/** Two files of one target each: the comparison of two runs, its gates. */
async function comparePair(
  sides: { arg: string; rows: Side["rows"] }[],
  options: CompareOptions & { requireBestIndex?: number },
  io: CommandIO,
): Promise<{ text: string; failures: string[] }> {
  const [baseline, candidate] = sides;
  const pairing = pairRuns([...baseline.rows], [...candidate.rows], { delta: options.delta });
  const summary = summarizeComparison(pairing, { seed: options.seed });
  const labels = { baseline: baseline.arg, candidate: candidate.arg };
  // Each side's pass rate corrected for its judge's error, when a calibration of it is saved.
  const calibrated = await calibratedSides([
    { side: "baseline", label: baseline.arg, rows: baseline.rows },
    { side: "candidate", label: candidate.arg, rows: candidate.rows },
  ], io);
  const text = renderComparison(options.format, { pairing, summary, labels, calibrated }, io);
  const failures: string[] = [];
  const failOn = options.failOn;
  if (failOn !== undefined && failsGate(summary, failOn)) {
    const why: string[] = [];
    if (failOn !== "flips" && summary.verdict === "regressed") {
      why.push("the mean score is significantly lower");
    }
    if (failOn !== "significant" && summary.pass_to_fail > 0) {
      why.push(`${summary.pass_to_fail} case(s) went from pass to fail`);
    }
    failures.push(`--fail-on ${failOn}: ${why.join(" and ")}`);
  }
  const best = options.requireBestIndex;
  if (best !== undefined) {
    const beaten = best === 0 ? summary.verdict === "improved" : summary.verdict === "regressed";
    if (beaten) {
      failures.push(
        `--require-best ${sides[best].arg}: ${sides[best].arg} is significantly beaten by ` +
          `${sides[1 - best].arg} (${summary.verdict_line})`,
      );
    }
  }
  return { text, failures };
}

/**
 * Refuses `--out` over a results file compared or a file its run read (its run record, eval and
 * targets files, ...), as `report --out` does.
 */
async function checkOut(out: string, args: readonly string[], io: CommandIO): Promise<void> {
  const target = resolve(io.cwd, out);
  for (const arg of args) {
    await refuseOutputOverRecordedRun(target, resolve(io.cwd, arg), io, {
      shown: out,
      writes: "the comparison replaces the file it is written to",
      example: "compare.md",
    });
  }
}

/** Whether the arms are those of two files of one target each: the comparison of two runs. */
function isTwoRuns(inputs: readonly CompareInput[], arms: readonly Arm[]): boolean {
  return inputs.length === 2 && arms.length === 2 && arms[0].source !== arms[1].source;
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const paths = args.positionals;
  if (paths.length === 0) {
    throw new UsageError(
      "agentv compare takes results files: one run of several targets, or several runs",
      "e.g. agentv compare .agentv/results/sweep.jsonl, or agentv compare before.jsonl after.jsonl",
    );
  }
  const options = parseCompareArgs(args);
  if (options.out !== undefined) await checkOut(options.out, paths, io);
  const what = (i: number) => paths.length !== 2 ? "" : i === 0 ? "baseline" : "candidate";
  const sides: Side[] = [];
  for (const [i, arg] of paths.entries()) sides.push(await readSide(arg, what(i), io));
  const problems = sides.flatMap((s) => s.problems);
  if (problems.length > 0) {
    io.stderr(renderDiagnosticsFor(problems, io) + "\n");
    return 2;
  }
  const inputs = paths.map((source, i) => ({ source, rows: sides[i].rows }));
  const arms = armsOf(inputs);
  if (arms.length < 2) {
    throw new UsageError(
      `Nothing to compare: ${paths[0]} holds the rows of one target ('${arms[0]?.target}')`,
      "give a run of several targets (agentv run --target a,b,c) or two results files",
    );
  }
  const baselineIndex = options.baseline === undefined
    ? 0
    : pickArm(arms, options.baseline, "--baseline");
  const requireBest = options.requireBest === undefined
    ? undefined
    : pickArm(arms, options.requireBest, "--require-best");
  let result: { text: string; failures: string[] };
  if (isTwoRuns(inputs, arms)) {
    // The baseline first; --require-best follows it when the two change places.
    const order = baselineIndex === 0 ? [0, 1] : [1, 0];
    result = await comparePair(
      order.map((i) => ({ arg: paths[i], rows: sides[i].rows })),
      {
        ...options,
        ...(requireBest !== undefined ? { requireBestIndex: order.indexOf(requireBest) } : {}),
      },
      io,
    );
  } else {
    result = compareMatrix(arms, {
      ...options,
      baselineIndex,
      ...(requireBest !== undefined ? { requireBestIndex: requireBest } : {}),
    }, io);
  }
  if (options.out === undefined) io.stdout(result.text);
  else {
    const out = resolve(io.cwd, options.out);
    await writeReportFile(out, result.text);
    io.stderr(`Wrote the ${options.format} comparison to ${displayPath(out, io.cwd)}\n`);
  }
  for (const failure of result.failures) io.stderr(`agentv compare: ${failure}\n`);
  return result.failures.length > 0 ? 1 : 0;
}

/** The `compare` command. */
export const compareCommand: Command = {
  ...commandInfo("compare"),
  usage: "agentv compare <results>... [--baseline NAME] [--require-best NAME] [--fail-on MODE] " +
    "[--json] [--format text|markdown|json|html] [--out FILE] [--delta X] [--seed N]",
  options: {
    baseline: {
      type: "string",
      valueName: "NAME",
      description: "The target (or results file) others are compared against (default: the first)",
    },
    "require-best": {
      type: "string",
      valueName: "NAME",
      description: "Exit 1 unless NAME is not significantly beaten by another target",
    },
    "fail-on": {
      type: "string",
      valueName: "MODE",
      description: "Exit 1 on: regression (a candidate significantly worse than the baseline; " +
        "with two runs also any pass→fail), flips (any pass→fail), significant (significantly " +
        "worse)",
    },
    json: { type: "boolean", description: "Print JSON (same as --format json)" },
    format: {
      type: "string",
      valueName: "FORMAT",
      description: "Output: text (default), markdown, json or html (one self-contained page)",
    },
    out: {
      type: "string",
      valueName: "FILE",
      description: "Write the output here (default stdout); never over a results file compared",
    },
    delta: {
      type: "string",
      valueName: "X",
      description: `|Δ score| that still counts as a tie (default ${DEFAULT_TIE_DELTA})`,
    },
    seed: {
      type: "string",
      valueName: "N",
      description: `Seed of the bootstrap resampling (default ${DEFAULT_SEED})`,
    },
  },
  run,
};
