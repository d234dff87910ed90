/**
 * A saved judge calibration, `.agentv/calibration/<judge target>.json` (written by
 * `agentv calibrate --save`), and the section of a run summary that uses it: the pass rate
 * corrected for the judge's measured error, beside the raw one, with the warnings when the judge
 * changed since it was calibrated or when the calibration is too weak to correct.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";

/** Version of the calibration file format (`schema_version`). */
export const CALIBRATION_VERSION = 1;

/** A judge's verdicts against people's, pass being the positive class. */
export interface ConfusionCounts {
  /** Judge pass, people pass. */
  tp: number;
  /** Judge pass, people fail. */
  fp: number;
  /** Judge fail, people pass. */
  fn: number;
  /** Judge fail, people fail. */
  tn: number;
}

const Count = z.number().int().min(0);

/** A judge's verdicts against people's. */
export const ConfusionCountsSchema = z.strictObject({ tp: Count, fp: Count, fn: Count, tn: Count });

/** What a calibration keeps of one evaluator (or of the overall verdict). */
export interface SavedCalibration {
  /** The evaluator's name; `null` for the case's overall verdict. */
  evaluator: string | null;
  /** The evaluator's type; `null` for the overall verdict. */
  type: string | null;
  /** Labelled items the figures rest on. */
  n: number;
  /** The counts (what the corrected rate's interval needs). */
  confusion: ConfusionCounts;
  /** Cohen's κ, when defined. */
  kappa: number | null;
  /** tp / (tp + fn), when defined. */
  sensitivity: number | null;
  /** tn / (tn + fp), when defined. */
  specificity: number | null;
}

const Share = z.number().min(0).max(1).nullable();

/** What a calibration keeps of one evaluator. */
export const SavedCalibrationSchema = z.strictObject({
  evaluator: z.string().min(1).nullable(),
  type: z.string().nullable(),
  n: Count,
  confusion: ConfusionCountsSchema,
  kappa: z.number().min(-1).max(1).nullable(),
  sensitivity: Share,
  specificity: Share,
});

/** The judge prompts a calibration holds for: each text's SHA-256, and one of them all. */
export interface JudgePromptHashes {
  /** SHA-256 of the sorted text hashes. */
  sha256: string;
  /** SHA-256 of each judge prompt (system prompt and template, or rubric lines), sorted. */
  texts: string[];
}

const Sha = z.string().regex(/^[0-9a-f]{64}$/);

/** The judge prompts a calibration holds for. */
export const JudgePromptHashesSchema = z.strictObject({
  sha256: Sha,
  texts: z.array(Sha).max(100_000),
});

/** `.agentv/calibration/<judge target>.json`. */
export interface CalibrationFile {
  /** Format version ({@link CALIBRATION_VERSION}). */
  schema_version: 1;
  /** The judge target calibrated. */
  judge_target: string;
  /** The model it was asked for, as recorded on the labelled results (`null`: not recorded). */
  model: string | null;
  /** The judge prompts and rubric texts it was calibrated with (`null`: the eval files were not at hand). */
  prompt: JudgePromptHashes | null;
  /** When, as an ISO-8601 date-time. */
  calibrated_at: string;
  /** The agentv version that calibrated. */
  agentv_version: string;
  /** The run ids of the labelled results. */
  runs: string[];
  /** The overall verdict's figures, when it was labelled. */
  overall: SavedCalibration | null;
  /** Each labelled evaluator's figures. */
  evaluators: SavedCalibration[];
}

/** `.agentv/calibration/<judge target>.json`. */
export const CalibrationFileSchema = z.strictObject({
  schema_version: z.literal(CALIBRATION_VERSION),
  judge_target: z.string().min(1),
  model: z.string().nullable(),
  prompt: JudgePromptHashesSchema.nullable(),
  calibrated_at: z.iso.datetime({ offset: true }),
  agentv_version: z.string(),
  runs: z.array(z.string()).max(10_000),
  overall: SavedCalibrationSchema.nullable(),
  evaluators: z.array(SavedCalibrationSchema).max(10_000),
});

/**
 * The pass rate of a run corrected for its judge's error (the `calibration` section of a run
 * summary, and of each side of `agentv compare`).
 */
export interface CalibratedPassRate {
  /** The judge target of the run. */
  judge_target: string;
  /** The calibration file used. */
  file: string;
  /** When the judge was calibrated. */
  calibrated_at: string;
  /** The labelled items the calibration rests on. */
  n: number;
  /** The calibration's κ. */
  kappa: number | null;
  /** The calibration's sensitivity. */
  sensitivity: number | null;
  /** The calibration's specificity. */
  specificity: number | null;
  /** The run's pass rate: passed / scored (`null` when nothing was scored). */
  pass_rate: number | null;
  /** The Rogan–Gladen estimate, clamped to [0, 1]; `null` when it cannot be corrected. */
  corrected_pass_rate: number | null;
  /** Its interval (the run's and the calibration's uncertainty); `null` without an estimate. */
  ci: { low: number; high: number; confidence: number } | null;
  /** Judge drift (model, prompt), a calibration too weak to correct, no overall labels. */
  warnings: string[];
}

/** The `calibration` section of a run summary. */
export const CalibratedPassRateSchema = z.object({
  judge_target: z.string(),
  file: z.string(),
  calibrated_at: z.string(),
  n: z.number(),
  kappa: z.number().nullable(),
  sensitivity: z.number().nullable(),
  specificity: z.number().nullable(),
  pass_rate: z.number().nullable(),
  corrected_pass_rate: z.number().nullable(),
  ci: z.object({ low: z.number(), high: z.number(), confidence: z.number() }).nullable(),
  warnings: z.array(z.string()),
});

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<ConfusionCounts, z.output<typeof ConfusionCountsSchema>>>,
  Assert<Same<SavedCalibration, z.output<typeof SavedCalibrationSchema>>>,
  Assert<Same<JudgePromptHashes, z.output<typeof JudgePromptHashesSchema>>>,
  Assert<Same<CalibrationFile, z.output<typeof CalibrationFileSchema>>>,
  Assert<Same<CalibratedPassRate, z.output<typeof CalibratedPassRateSchema>>>,
];
