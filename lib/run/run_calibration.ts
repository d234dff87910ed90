/**
 * The step after a run's summary: when the run's cases were judged by one judge target and a
 * calibration of it is saved under the dataset root (`.agentv/calibration/<judge>.json`, written
 * by `agentv calibrate --save`), the summary gets a `calibration` section: the pass rate
 * corrected for the judge's measured error beside the raw one, with the warnings of a judge that
 * changed since (another model, other prompts or rubric texts) or a calibration too weak to
 * correct. The judges and models a run used are read off its rows as they finish.
 *
 * @module
 */
import { calibratedPassRate } from "../calibration/apply.ts";
import { CalibrationFileError, readCalibration } from "../calibration/calibration_file.ts";
import { judgePromptHashes } from "../scoring/judge_prompt_hashes.ts";
import type { CalibratedPassRate } from "../schema/calibration.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorResult, ResultRow } from "../schema/result.ts";
import type { RunSummary } from "../schema/run_record.ts";

/** The judge targets and models a run's rows recorded. */
export interface JudgeTally {
  /** Notes the judges of one finished row. */
  add(row: ResultRow): void;
  /** Judge target → the models it was asked with (empty when not recorded). */
  readonly judges: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * A tally of the judges behind rows: every evaluator result (composite members too) that
 * recorded a judge request names its target and model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { createJudgeTally } from "./run_calibration.ts";
 * const tally = createJudgeTally();
 * tally.add({ evaluator_results: [{ evaluator_provider_request: { target: "judge", model: "m" } }] } as unknown as ResultRow);
 * assert.deepEqual([...tally.judges.get("judge")!], ["m"]);
 * ```
 */
export function createJudgeTally(): JudgeTally {
  const judges = new Map<string, Set<string>>();
  const visit = (results: readonly EvaluatorResult[] | undefined) => {
    for (const r of results ?? []) {
      const request = r.evaluator_provider_request as { target?: unknown; model?: unknown } | null;
      if (request !== null && typeof request === "object" && typeof request.target === "string") {
        let models = judges.get(request.target);
        if (!models) judges.set(request.target, models = new Set());
        if (typeof request.model === "string") models.add(request.model);
      }
      visit(r.evaluator_results);
    }
  };
  return { add: (row) => visit(row.evaluator_results), judges };
}

/** A case of the run with its eval file's folders. */
export interface RunCase {
  /** The case. */
  evalCase: EvalCase;
  /** Its eval file's folder and dataset root. */
  set: { evalDir: string; root: string };
}

/** What {@link runCalibration} needs of the run. */
export interface RunCalibrationInput {
  /** The judges the rows recorded. */
  tally: JudgeTally;
  /**
   * The cases the run selected (their judge prompts are compared with the calibration's), or
   * why they are not at hand (a warning then says a changed prompt cannot be noticed). Asked
   * only when a calibration is found.
   */
  cases: readonly RunCase[] | (() => Promise<readonly RunCase[] | string>);
  /** The dataset roots, where calibrations are looked for (in order). */
  roots: readonly string[];
}

/**
 * The `calibration` section of a run summary, or `undefined` when the run used no judge or no
 * calibration of its judge is saved (see the module doc). A dry run is never corrected. A saved
 * calibration that cannot be read gives a section whose warning says why, and no correction.
 *
 * @example
 * ```ts ignore
 * const section = await runCalibration(summary, { tally, cases: selected, roots });
 * if (section) summary.calibration = section;
 * ```
 */
export async function runCalibration(
  summary: RunSummary,
  input: RunCalibrationInput,
): Promise<CalibratedPassRate | undefined> {
  if (summary.dry_run || input.tally.judges.size === 0) return undefined;
  const judges = [...input.tally.judges.keys()];
  for (const judge of judges) {
    for (const root of new Set(input.roots)) {
      let saved;
      try {
        saved = await readCalibration(root, judge);
      } catch (e) {
        if (!(e instanceof CalibrationFileError)) throw e;
        return unusable(judge, e, summary);
      }
      if (saved === undefined) continue;
      const cases = typeof input.cases === "function" ? await input.cases() : input.cases;
      const prompt = typeof cases === "string" ? null : await judgePromptHashes(
        cases.map(({ evalCase, set }) => ({ evalCase, evalDir: set.evalDir, root: set.root })),
      );
      const section = calibratedPassRate(
        { passed: summary.verdicts.pass, scored: summary.scored },
        { target: judge, models: [...input.tally.judges.get(judge)!], prompt },
        saved,
      );
      if (typeof cases === "string") {
        section.warnings.push(`${cases}: a changed judge prompt or rubric cannot be noticed`);
      }
      if (judges.length > 1) {
        section.corrected_pass_rate = null;
        section.ci = null;
        section.warnings.push(
          `the cases were judged by ${judges.length} judge targets (${
            judges.map((j) => `'${j}'`).join(", ")
          }): one judge's calibration cannot correct the pass rate`,
        );
      }
      return section;
    }
  }
  return undefined;
}

/** The section of a calibration file that cannot be used: its warning, no correction. */
function unusable(
  judge: string,
  error: CalibrationFileError,
  summary: RunSummary,
): CalibratedPassRate {
  return {
    judge_target: judge,
    file: error.file,
    calibrated_at: "",
    n: 0,
    kappa: null,
    sensitivity: null,
    specificity: null,
    pass_rate: summary.scored === 0 ? null : summary.verdicts.pass / summary.scored,
    corrected_pass_rate: null,
    ci: null,
    warnings: [
      `the calibration file cannot be used (${error.problem}): the pass rate is not corrected`,
    ],
  };
}
