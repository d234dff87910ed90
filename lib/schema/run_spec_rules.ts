/**
 * The combinations of run options that `agentv run` refuses, checked once each flag's value is
 * read (`lib/cli/run_args.ts`), with their messages; and which options name an earlier run.
 *
 * @module
 */
import { RUN_OPTIONS } from "./run_spec.ts";
import type { RunCommandValues } from "./run_spec_types.ts";

/** The options that name an earlier run, each a mode of `readPriorRun`. */
export const PRIOR_RUN_OPTIONS = ["resume", "rerunFailed", "retryErrors"] as const;

/** A problem of a combination of options: its message and hint, or `undefined`. */
export type OptionsRule = (
  given: RunCommandValues,
) => { message: string; hint?: string } | undefined;

/** Combinations of options that are refused (checked after each value is read). */
export const RUN_OPTION_RULES: readonly OptionsRule[] = [
  (v) =>
    v.quiet && v.verbose ? { message: "--quiet and --verbose cannot be used together" } : undefined,
  (v) =>
    v.replay && (v.cache === "off" || v.cache === "write")
      ? {
        message: `--replay cannot be used with --cache ${v.cache}: a replay only reads the cache`,
        hint: "drop --cache, or use --cache read",
      }
      : undefined,
  (v) => {
    const given = PRIOR_RUN_OPTIONS.filter((name) => v[name] !== undefined);
    if (given.length < 2) return undefined;
    return {
      message: `${
        given.map((n) => `--${RUN_OPTIONS[n].flag}`).join(" and ")
      } cannot be used together`,
      hint:
        "--resume continues a run in its file; --rerun-failed and --retry-errors start a new one",
    };
  },
  (v) =>
    v.resume !== undefined && v.out !== undefined
      ? {
        message:
          "--resume and --out cannot be used together: a resumed run appends to the file it resumes",
        hint: "leave --out out (--rerun-failed and --retry-errors take --out)",
      }
      : undefined,
];
