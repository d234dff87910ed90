/**
 * Saved calibrations: `.agentv/calibration/<judge target>.json` under a project root, written by
 * `agentv calibrate --save` and read by `run` and `compare`. A file is read under the dataset
 * root's rules (regular file inside the root, at most 8 MiB) and checked against its schema; a file
 * that breaks them is an error naming it, never a silent default.
 *
 * @module
 */
import { join } from "node:path";
import { AgentvError } from "../errors/agentv_error.ts";
import { writeFileAtomic } from "../fs/atomic_write.ts";
import { readConfinedText } from "../fs/read_confined.ts";
import {
  CALIBRATION_VERSION,
  type CalibrationFile,
  CalibrationFileSchema,
  type JudgePromptHashes,
  type SavedCalibration,
} from "../schema/calibration.ts";
import type { CalibrationReport, UnitCalibration } from "./calibrate.ts";

/** Where calibrations live, relative to the project root. */
export const CALIBRATION_DIR = ".agentv/calibration";

/** Largest calibration file read. */
const MAX_BYTES = 8 * 1024 * 1024;

/** A calibration file that cannot be used (exit code 2). */
export class CalibrationFileError extends AgentvError {
  /** The calibration file. */
  readonly file: string;
  /** What is wrong with it. */
  readonly problem: string;

  /** Creates the error. */
  constructor(file: string, problem: string) {
    super("calibration_file", `${file}: ${problem}`, {
      hint: "run agentv calibrate RESULTS --labels FILE --save again, or delete the file",
    });
    this.name = "CalibrationFileError";
    this.file = file;
    this.problem = problem;
  }
}

/**
 * The file of `judgeTarget`'s calibration under `root`: the name with every character other
 * than letters, digits, `.`, `_` and `-` replaced by `_` (and no leading dot).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibrationPath } from "./calibration_file.ts";
 * assert.equal(calibrationPath("/repo", "judge/gpt 4"), "/repo/.agentv/calibration/judge_gpt_4.json");
 * ```
 */
export function calibrationPath(root: string, judgeTarget: string): string {
  const safe = judgeTarget.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "judge";
  return join(root, CALIBRATION_DIR, `${safe}.json`);
}

/**
 * Reads the calibration of `judgeTarget` under `root`; `undefined` when there is none. Throws
 * {@link CalibrationFileError} when the file is refused (a link out of the root, not a regular
 * file, too large), is not JSON, fails the schema, or calibrates another judge target.
 */
export async function readCalibration(
  root: string,
  judgeTarget: string,
): Promise<{ file: string; calibration: CalibrationFile } | undefined> {
  const file = calibrationPath(root, judgeTarget);
  const read = await readConfinedText(file, {
    label: "calibration file",
    root,
    maxBytes: MAX_BYTES,
  });
  if (!read.ok) {
    if (read.reason === "missing") return undefined;
    throw new CalibrationFileError(file, read.diagnostic.message);
  }
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (e) {
    throw new CalibrationFileError(file, `not JSON (${(e as Error).message})`);
  }
  const parsed = CalibrationFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new CalibrationFileError(file, `not a calibration${where}: ${issue.message}`);
  }
  if (parsed.data.judge_target !== judgeTarget) {
    throw new CalibrationFileError(
      file,
      `calibrates judge target '${parsed.data.judge_target}', not '${judgeTarget}'`,
    );
  }
  return { file, calibration: parsed.data };
}

/** Writes a calibration under `root` (atomically, creating the folder); returns its path. */
export async function writeCalibration(
  root: string,
  calibration: CalibrationFile,
): Promise<string> {
  const file = calibrationPath(root, calibration.judge_target);
  const checked = CalibrationFileSchema.parse(calibration);
  await writeFileAtomic(file, JSON.stringify(checked, null, 2) + "\n", { mkdir: true });
  return file;
}

/** What a calibration keeps of one unit of a report. */
export function savedFigures(unit: UnitCalibration): SavedCalibration {
  return {
    evaluator: unit.evaluator,
    type: unit.type,
    n: unit.n,
    confusion: { ...unit.confusion },
    kappa: unit.kappa.value,
    sensitivity: unit.sensitivity.value,
    specificity: unit.specificity.value,
  };
}

/** What {@link calibrationFileOf} needs besides the report. */
export interface CalibrationFileOptions {
  /** The judge target calibrated. */
  judgeTarget: string;
  /** The model it was asked for, when recorded. */
  model: string | null;
  /** The judge prompts of the calibrated eval files, when they were at hand. */
  prompt: JudgePromptHashes | null;
  /** The labelled runs. */
  runs: readonly string[];
  /** When (ms since the epoch). */
  now: number;
  /** The agentv version. */
  version: string;
}

/**
 * The calibration file of a report: the overall verdict's figures and each evaluator's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibrationFileOf } from "./calibration_file.ts";
 * const file = calibrationFileOf({ units: [], labels: { read: 0, latest: 0, matched: 0, unmatched: [] },
 *   bootstrap: { seed: 1, resamples: 10, confidence: 0.95 } }, { judgeTarget: "judge", model: null,
 *   prompt: null, runs: [], now: 0, version: "0.1.0" });
 * assert.equal(file.calibrated_at, "1970-01-01T00:00:00.000Z");
 * ```
 */
export function calibrationFileOf(
  report: CalibrationReport,
  options: CalibrationFileOptions,
): CalibrationFile {
  const overall = report.units.find((u) => u.evaluator === null);
  return {
    schema_version: CALIBRATION_VERSION,
    judge_target: options.judgeTarget,
    model: options.model,
    prompt: options.prompt,
    calibrated_at: new Date(options.now).toISOString(),
    agentv_version: options.version,
    runs: [...options.runs],
    overall: overall === undefined ? null : savedFigures(overall),
    evaluators: report.units.filter((u) => u.evaluator !== null).map(savedFigures),
  };
}
