/**
 * `agentv calibrate RESULTS… [--labels FILE]`: measures the judge behind results files against
 * human labels (per evaluator and for the case verdict: confusion matrix, accuracy, sensitivity,
 * specificity, Cohen's κ, Krippendorff's α with several reviewers, score agreement, every figure
 * with a seeded bootstrap interval and its n; the disagreements), re-asks the judge on the stored
 * answers to measure its self-consistency (`--repeat K`) and its sensitivity to the order of
 * rubric items (`--orders K`), saves the calibration for `run` and `compare` (`--save`), and gates
 * CI (`--fail-below KAPPA`, `--min-labels N`: exit 1).
 *
 * @module
 */
import { calibrateJudge, type CalibrationReport } from "../calibration/calibrate.ts";
import { calibrationFileOf, writeCalibration } from "../calibration/calibration_file.ts";
import { summarizeConsistency } from "../calibration/consistency.ts";
import { gateFailures } from "../calibration/gate.ts";
import {
  calibrationJson,
  type CalibrationOutput,
  type GateOutcome,
} from "../calibration/output.ts";
import { displayPath } from "../fs/display_path.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { renderCalibrationText } from "../render/calibration_text.ts";
import { AGENTV_VERSION } from "../results/run_record.ts";
import { judgePromptHashes } from "../scoring/judge_prompt_hashes.ts";
import { UsageError } from "../errors/agentv_error.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { commandInfo } from "./commands.ts";
import { CALIBRATE_OPTIONS, type CalibrateArgs, parseCalibrateArgs } from "./calibrate_args.ts";
import {
  type CalibrateInputs,
  type LabelsRead,
  loadRunSets,
  readCalibrateInputs,
  readLabelsArg,
} from "./calibrate_inputs.ts";

/** Re-asks the judges (`--repeat`, `--orders`) and summarises their consistency. */
async function measureConsistency(
  opts: CalibrateArgs,
  inputs: CalibrateInputs,
  io: CommandIO,
): Promise<Pick<CalibrationOutput, "repeat" | "orders" | "skipped">> {
  const sets = await loadRunSets(inputs.results, io, "Cannot re-ask the judge");
  const { rejudge } = await import("../run/rejudge.ts");
  const { trustStorePermission } = await import("./trust.ts");
  const judged = await rejudge({
    rows: inputs.rows,
    sets,
    repeat: opts.repeat,
    orders: opts.orders,
    ...(opts.evaluators ? { evaluators: opts.evaluators } : {}),
    ...(opts.judgeTarget !== undefined ? { judgeTarget: opts.judgeTarget } : {}),
    ...(opts.targets !== undefined ? { targetsFile: opts.targets } : {}),
    ...opts.cache,
    env: io.envAll(),
    cwd: io.cwd,
    signal: io.signal,
    timeoutMs: opts.timeoutMs,
    workers: opts.workers,
    seed: opts.seed,
    allowRun: opts.allowRun || await trustStorePermission(io),
  });
  const bootstrap = { seed: opts.seed, resamples: opts.resamples, confidence: 0.95 };
  return {
    repeat: opts.repeat > 0
      ? summarizeConsistency(judged.repeat, { kind: "repeat", k: opts.repeat, bootstrap })
      : null,
    orders: opts.orders > 0
      ? summarizeConsistency(judged.orders, { kind: "order", k: opts.orders, bootstrap })
      : null,
    skipped: judged.skipped,
  };
}

/** Writes `.agentv/calibration/<judge>.json` of the report; returns the path written. */
async function saveCalibration(
  report: CalibrationReport,
  inputs: CalibrateInputs,
  io: CommandIO,
): Promise<string> {
  const judges = [...new Set(report.units.flatMap((u) => u.judge_targets))];
  if (judges.length !== 1) {
    throw new UsageError(
      judges.length === 0
        ? "Cannot save a calibration: the labelled verdicts record no judge target"
        : `Cannot save one calibration: the labelled verdicts come from ${judges.length} judge ` +
          `targets (${judges.map((j) => `'${j}'`).join(", ")})`,
      "calibrate the results of one judge at a time, or pick its evaluators with --evaluator",
    );
  }
  const models = [...new Set(report.units.flatMap((u) => u.models))];
  const paint = createPaint(io.color);
  const warn = (text: string) => io.stderr(`${paint.yellow(paint.bold("warning"))}: ${text}\n`);
  if (models.length > 1) {
    warn(
      `judge '${judges[0]}' was asked with ${models.length} models (${models.join(", ")}): ` +
        "the calibration records none, so a change of model will not be noticed",
    );
  }
  let prompt = null;
  try {
    const sets = await loadRunSets(inputs.results, io, "The judge prompts are not recorded");
    prompt = await judgePromptHashes(
      sets.flatMap((s) =>
        s.cases.map((evalCase) => ({ evalCase, evalDir: s.evalDir, root: s.root }))
      ),
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    warn(`${e.message}: a changed prompt or rubric will not be noticed`);
  }
  return await writeCalibration(
    inputs.root,
    calibrationFileOf(report, {
      judgeTarget: judges[0],
      model: models.length === 1 ? models[0] : null,
      prompt,
      runs: [...new Set(inputs.rows.flatMap((r) => (r.run_id === null ? [] : [r.run_id])))],
      now: io.now(),
      version: AGENTV_VERSION,
    }),
  );
}

async function render(output: CalibrationOutput, format: CalibrateArgs["format"], io: CommandIO) {
  if (format === "json") io.stdout(JSON.stringify(calibrationJson(output), null, 2) + "\n");
  else if (format === "markdown") {
    io.stdout(
      (await import("../render/calibration_markdown.ts")).renderCalibrationMarkdown(output),
    );
  } else if (format === "html") {
    io.stdout((await import("../render/calibration_html.ts")).renderCalibrationHtml(output));
  } else io.stdout(renderCalibrationText(output, { style: createPaint(io.color) }));
}

/** Agreement with people, or `null` without labels; throws when no label matches a verdict. */
function measureAgreement(
  opts: CalibrateArgs,
  inputs: CalibrateInputs,
  labels: LabelsRead,
  io: CommandIO,
): CalibrationReport | null {
  const rejudging = opts.repeat > 0 || opts.orders > 0;
  if (!labels.found) {
    if (rejudging && !opts.save) return null;
    throw new UsageError(
      `No labels file at '${displayPath(labels.file, io.cwd)}'`,
      "label answers in agentv view, import them with agentv label import, write one JSON label " +
        "per line, or pass --labels FILE (--repeat K alone measures self-consistency)",
    );
  }
  const report = calibrateJudge(inputs.rows, labels.labels, {
    bootstrap: { seed: opts.seed, resamples: opts.resamples },
    ...(opts.evaluators ? { evaluators: opts.evaluators } : {}),
  });
  if (report.units.length === 0 && (!rejudging || opts.save)) {
    const first = report.labels.unmatched[0];
    throw new UsageError(
      `None of the ${report.labels.latest} label(s) in '${displayPath(labels.file, io.cwd)}' ` +
        `matches a judged verdict of the results given${first ? ` (first: ${first.reason})` : ""}`,
      "give the results files of the labelled runs (labels name their run_id)",
    );
  }
  return report;
}

/** The gate as set, and what failed it; `null` when no gate is set. */
function gateOf(opts: CalibrateArgs, report: CalibrationReport | null): GateOutcome | null {
  if (opts.failBelow === undefined && opts.minLabels === undefined) return null;
  return {
    fail_below: opts.failBelow ?? null,
    min_labels: opts.minLabels ?? null,
    failures: report === null ? ["no labels were read"] : gateFailures(report, {
      ...(opts.failBelow !== undefined ? { failBelow: opts.failBelow } : {}),
      ...(opts.minLabels !== undefined ? { minLabels: opts.minLabels } : {}),
    }),
  };
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const opts = parseCalibrateArgs(args);
  const inputs = await readCalibrateInputs(opts.results, io);
  const labels = await readLabelsArg(opts.labels, inputs.root, io);
  const problems = [...inputs.problems, ...(labels.found ? labels.problems : [])];
  if (problems.length > 0) {
    io.stderr(renderDiagnosticsFor(problems, io) + "\n");
    return 2;
  }
  const report = measureAgreement(opts, inputs, labels, io);
  let consistency: Pick<CalibrationOutput, "repeat" | "orders" | "skipped"> = {
    repeat: null,
    orders: null,
    skipped: [],
  };
  if (opts.repeat > 0 || opts.orders > 0) {
    try {
      consistency = await measureConsistency(opts, inputs, io);
    } catch (e) {
      // What a judge would start or send, why the trust store does not cover it, both fixes.
      const { UntrustedDatasetError } = await import("../run/run_permission.ts");
      if (!(e instanceof UntrustedDatasetError)) throw e;
      return await (await import("./trust.ts")).reportUntrusted(e, io);
    }
  }
  const saved = opts.save && report !== null ? await saveCalibration(report, inputs, io) : null;
  const output: CalibrationOutput = {
    results: opts.results,
    labels_file: labels.found ? displayPath(labels.file, io.cwd) : null,
    report,
    ...consistency,
    saved: saved === null ? null : displayPath(saved, io.cwd),
    gate: gateOf(opts, report),
  };
  await render(output, opts.format, io);
  if (output.gate !== null && output.gate.failures.length > 0) {
    for (const f of output.gate.failures) io.stderr(`agentv calibrate: ${f}\n`);
    return 1;
  }
  return 0;
}

/** The `calibrate` command. */
export const calibrateCommand: Command = {
  ...commandInfo("calibrate"),
  usage: "agentv calibrate <results>... [--labels FILE] [--fail-below KAPPA] [--min-labels N] " +
    "[--repeat K] [--orders K] [--save] [--format text|markdown|json|html]",
  options: CALIBRATE_OPTIONS,
  run,
};
