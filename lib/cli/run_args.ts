/**
 * The command line of `agentv run`, derived from the run options (`lib/schema/run_spec.ts`): the
 * parser's options and `--help` lines ({@link runCommandOptions}), and reading a parsed command
 * line into the options given ({@link parseRunArgs}, with the messages of each option's reader and
 * of the combinations that are refused). No flag of `run` is declared anywhere else.
 *
 * @module
 */
import { UsageError } from "../errors/agentv_error.ts";
import { parseFlagText } from "../schema/run_option.ts";
import { RUN_OPTION_ENTRIES, RUN_OPTIONS, type RunCommandValues } from "../schema/run_spec.ts";
import { PRIOR_RUN_OPTIONS, RUN_OPTION_RULES } from "../schema/run_spec_rules.ts";
import type { PriorRunMode } from "../run/resume.ts";
import type { OptionSpec, ParsedArgs } from "./command.ts";

/** The earlier run named on the command line. */
export interface PriorRunArg {
  /** Which flag named it. */
  mode: PriorRunMode;
  /** The results file, as given. */
  path: string;
}

/** A parsed `agentv run` command line. */
export interface RunArgs {
  /** The paths given (none: the earlier run's eval files, else the current folder). */
  paths: string[];
  /** The options given (an option not given is absent: the precedence rule decides it). */
  given: RunCommandValues;
  /** `--resume`, `--rerun-failed` or `--retry-errors` and its results file. */
  prior?: PriorRunArg;
}

/**
 * The options of the `run` command, as the parser and `--help` take them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runCommandOptions } from "./run_args.ts";
 * assert.equal(runCommandOptions()["judge-target"].valueName, "NAME");
 * ```
 */
export function runCommandOptions(): Record<string, OptionSpec> {
  const options: Record<string, OptionSpec> = {};
  for (const [, d] of RUN_OPTION_ENTRIES) {
    options[d.flag] = {
      type: d.value === undefined ? "boolean" : "string",
      description: d.help,
      short: d.short,
      valueName: d.value,
      multiple: d.multiple,
    };
  }
  return options;
}

/**
 * Reads the options of a parsed `agentv run` command line; throws a {@link UsageError} with the
 * option's message for a bad value or a combination that is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRunArgs } from "./run_args.ts";
 * const args = await parseRunArgs({ values: { workers: "8", resume: "o.jsonl" }, positionals: [] });
 * assert.equal(args.given.workers, 8);
 * assert.deepEqual(args.prior, { mode: "resume", path: "o.jsonl" });
 * ```
 */
export async function parseRunArgs(args: ParsedArgs): Promise<RunArgs> {
  const given: Record<string, unknown> = {};
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    const raw = args.values[d.flag];
    if (raw === undefined || raw === false) continue;
    const read = await parseFlagText(d, raw);
    if (!read.ok) throw new UsageError(read.message, read.hint);
    given[name] = read.value;
  }
  const values = given as RunCommandValues;
  for (const rule of RUN_OPTION_RULES) {
    const problem = rule(values);
    if (problem) throw new UsageError(problem.message, problem.hint);
  }
  const priorName = PRIOR_RUN_OPTIONS.find((name) => values[name] !== undefined);
  return {
    paths: args.positionals,
    given: values,
    ...(priorName !== undefined
      ? {
        prior: {
          mode: RUN_OPTIONS[priorName].flag as PriorRunMode,
          path: values[priorName]!,
        },
      }
      : {}),
  };
}
