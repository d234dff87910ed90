/**
 * The corrected pass rates of `agentv compare`: for each side whose rows were judged, the saved
 * calibration of its judge (under the project root of its results file) applied to its pass
 * rate, with the drift warnings, as `agentv run` shows them. Its judge prompts are compared with
 * the calibration's when the run's eval files are here unchanged.
 *
 * @module
 */
import { resolve } from "node:path";
import { readRunRecord, runRecordPath } from "../results/run_record.ts";
import { summarizeResults } from "../results/summary.ts";
import { createJudgeTally, runCalibration, type RunCase } from "../run/run_calibration.ts";
import type { CalibratedPassRate } from "../schema/calibration.ts";
import type { ResultRow } from "../schema/result.ts";
import type { CalibratedSide } from "../render/calibration_summary.ts";
import { projectRootOf } from "./calibrate_inputs.ts";
import type { CommandIO } from "./command.ts";
import { loadRecordedSets } from "./recorded_inputs.ts";

/**
 * The calibration section of one side: `undefined` when its rows recorded no judge or no
 * calibration of its judge is saved.
 *
 * @example
 * ```ts ignore
 * const section = await sideCalibration("/repo/.agentv/results/a.jsonl", rows, io);
 * ```
 */
export async function sideCalibration(
  path: string,
  rows: readonly ResultRow[],
  io: CommandIO,
): Promise<CalibratedPassRate | undefined> {
  const tally = createJudgeTally();
  for (const row of rows) tally.add(row);
  if (tally.judges.size === 0) return undefined;
  const record = await readRunRecord(runRecordPath(path)).catch(() => undefined);
  const cases = async (): Promise<RunCase[] | string> => {
    if (record === undefined) return "its run record is missing";
    const recorded = await loadRecordedSets(record, io);
    if (!recorded.loaded) return recorded.note;
    return recorded.sets.flatMap((set) => set.cases.map((evalCase) => ({ evalCase, set })));
  };
  return await runCalibration(summarizeResults(rows), {
    tally,
    cases,
    roots: [await projectRootOf(path, record)],
  });
}

/** The calibration section of each side (`label`: the results file as named, from the cwd). */
export async function calibratedSides(
  sides: readonly { side: string; label: string; rows: readonly ResultRow[] }[],
  io: CommandIO,
): Promise<CalibratedSide[]> {
  const out: CalibratedSide[] = [];
  for (const { side, label, rows } of sides) {
    out.push({ side, label, section: await sideCalibration(resolve(io.cwd, label), rows, io) });
  }
  return out;
}
