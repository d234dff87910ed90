/**
 * **The run options**, each declared once: the `agentv run` flags and `runEval`'s argument. Each
 * entry says its value's schema, its flag, help line, default, config files, whether another
 * value changes the run's results, and how the run record keeps it. Everything else is derived
 * from this table: the `run` command's parser and `--help` (`lib/cli/run_args.ts`), `runEval`'s
 * argument ({@link RunSpec}), the run record's `options` and its JSON Schema
 * (`run_spec_record.ts`), the checks of a resume, a rerun and a merge, the options table of
 * `docs/commands/run.md` and the generated types (`run_spec_types.ts`, written by
 * `tools/generate.ts`). The combinations of options that are refused are in `run_spec_rules.ts`.
 *
 * One precedence rule for every option (`settleRunSpec` in `lib/run/settle_spec.ts`): the value
 * given (a flag, or `runEval`'s argument; a resumed or rerun run's record counts as given), else
 * the user's config, narrowed by each dataset's `.agentv/config.yaml` (which can only restrict),
 * else the default.
 *
 * Adding an option: one entry here, its behaviour where it acts, then `deno run --allow-read
 * --allow-write --allow-run tools/generate.ts` (the types, `schema/run.schema.json` and the docs
 * table; a test fails while they are stale).
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import { type CacheMode, narrowCacheMode } from "./config.ts";
import {
  choiceText,
  globText,
  numberText,
  recordedTargetNames,
  REPORT_FORMATS,
  reportText,
  type RunOptionDef,
  shardText,
  targetNamesText,
  trialsGateText,
  trialsText,
} from "./run_option.ts";
import type { RunCommandValues, RunSpec } from "./run_spec_types.ts";
import { type TrialsGate, TrialsGateSchema } from "./trials.ts";
import { MAX_TRIALS, TargetListSchema } from "./eval_file.ts";
import { SANDBOX_MODES, sandboxModeText } from "./sandbox.ts";

export type { RunCommandValues, RunSpec };

const CACHE_MODES = ["off", "read", "write", "readwrite"] as const;
// deno-lint-ignore no-explicit-any
type AnyOption = RunOptionDef<any>;

const nullable = <S extends z.ZodType>(schema: S): z.ZodNullable<S> => schema.nullable();
/** A key added after the first run records: older ones lack it. */
const since = <S extends z.ZodType>(schema: S): z.ZodOptional<S> => schema.optional();

/** Every run option, in `--help` order. See the module doc. */
export const RUN_OPTIONS = {
  target: {
    schema: z.union([z.string().min(1), TargetListSchema]),
    flag: "target",
    value: "NAME[,NAME...]",
    help: "Use this target for every case; a,b,c runs every case against each of them",
    effect: "results",
    record: {
      key: "target",
      schema: nullable(z.union([z.string(), z.array(z.string())])),
      encode: ({ target }) => recordedTargetNames(target),
    },
    parse: targetNamesText,
  },
  targetsFile: {
    schema: z.string().min(1),
    flag: "targets",
    value: "FILE",
    help: "Targets file (default: nearest .agentv/targets.yaml)",
    path: true,
    effect: "results",
    record: { key: "targets_file", schema: nullable(z.string()) },
  },
  judgeTarget: {
    schema: z.string().min(1),
    flag: "judge-target",
    value: "NAME",
    help: "Judge target for llm_judge/rubric evaluators (default: the target's judge_target)",
    effect: "results",
    record: { key: "judge_target", schema: nullable(z.string()) },
  },
  workers: {
    schema: z.number().int().min(1).max(1000),
    flag: "workers",
    value: "N",
    help: "Cases run at once (default 4)",
    default: 4,
    record: { key: "workers", schema: z.number() },
    parse: numberText({
      flag: "workers",
      expected: "an integer from 1 to 1000",
      example: "8",
      check: (n) => Number.isInteger(n) && n >= 1 && n <= 1000,
    }),
  },
  timeoutMs: {
    schema: z.number().min(0),
    flag: "timeout",
    value: "SECONDS",
    help: "Timeout of each target call attempt and evaluator (default 120)",
    default: 120_000,
    shownDefault: "120 (s)",
    record: { key: "timeout_ms", schema: z.number() },
    // Below 1 ms a timeout rounds to 0, which means "no limit" further down: refused here.
    parse: numberText({
      flag: "timeout",
      expected: "a number of seconds >= 0.001 (1 ms)",
      example: "60",
      check: (n) => n >= 0.001,
      scale: 1000,
    }),
  },
  filter: {
    schema: z.string().min(1),
    flag: "filter",
    value: "GLOB",
    help: "Run only cases whose id matches",
    effect: "results",
    rerunMayNarrow: true,
    record: { key: "filter", schema: nullable(z.string()) },
    parse: globText,
  },
  out: {
    schema: z.string().min(1),
    flag: "out",
    value: "FILE",
    help: "Results file (default: the project's .agentv/results/<run>-<timestamp>.jsonl)",
    path: true,
  },
  dryRun: {
    schema: z.boolean(),
    flag: "dry-run",
    help:
      "Check the wiring, not the answers: every target and judge is a mock, no command or code judge runs; exit 0 unless a case could not be wired",
    default: false,
    effect: "results",
    record: { key: "dry_run", schema: z.boolean() },
  },
  allowRun: {
    schema: z.boolean(),
    flag: "allow-run",
    help:
      "Allow what the dataset asks for this once: its commands, and env values sent to its hosts",
    default: false,
  },
  // `sandboxMode`: runEval's `sandbox` says where eval files are loaded.
  sandboxMode: {
    schema: z.enum(SANDBOX_MODES),
    flag: "sandbox",
    value: "KIND",
    help: "Sandbox of every agent, cli target and script code judge: none, bubblewrap or docker",
    effect: "results", // a sandbox can make a tool call fail that would pass without it
    record: { key: "sandbox", schema: since(nullable(z.enum(SANDBOX_MODES))) },
    parse: sandboxModeText,
  },
  keepWorkspaces: {
    schema: z.boolean(),
    flag: "keep-workspaces",
    help: "Keep each case's workspace in .agentv/workspaces/<run_id>/<case> (default: deleted)",
    default: false,
  },
  threshold: {
    schema: z.number().min(0).max(1),
    flag: "threshold",
    value: "X",
    help: "Pass when there is no error and the mean score >= X (instead of no fail)",
    effect: "gate",
    record: { key: "threshold", schema: nullable(z.number()) },
    parse: numberText({
      flag: "threshold",
      expected: "a score between 0 and 1",
      example: "0.8",
      check: (n) => n >= 0 && n <= 1,
    }),
  },
  root: {
    schema: z.string().min(1),
    flag: "root",
    value: "DIR",
    help: "Dataset root (default: discovered)",
    path: true,
    record: { key: "root", schema: nullable(z.string()) },
  },
  budgetUsd: {
    schema: z.number().min(0),
    flag: "budget-usd",
    value: "X",
    help: "Stop starting target and judge calls before their cost could pass X US dollars (exit 1)",
    config: {
      dataset: "budget_usd",
      fromDataset: (config) => config.budget_usd,
      narrow: (current, cap) => current === undefined ? cap : Math.min(current, cap),
      docs: "the smallest `budget_usd:` of the datasets' configs",
    },
    record: { key: "budget_usd", schema: since(nullable(z.number())) },
    parse: numberText({
      flag: "budget-usd",
      expected: "an amount of US dollars >= 0",
      example: "0.8",
      check: (n) => n >= 0,
    }),
  },
  shard: {
    schema: z.object({ index: z.number().int().min(0), count: z.number().int().min(1) }),
    flag: "shard",
    value: "I/N",
    help:
      "Run only shard I of N (I from 0, e.g. $JOB_COMPLETION_INDEX/4); join them with agentv merge",
    effect: "results",
    rerunMayNarrow: true,
    perShard: true,
    record: {
      key: "shard",
      schema: since(nullable(z.object({ index: z.number(), count: z.number() }))),
      encode: ({ shard }) => {
        const given = shard as { index: number; count: number } | undefined;
        return given ? { index: given.index, count: given.count } : null;
      },
    },
    parse: shardText,
  },
  maxCases: {
    schema: z.number().int().min(1),
    flag: "max-cases",
    value: "N",
    help: "Run at most N cases (after --filter and --shard, in plan order; with targets, trials)",
    effect: "results",
    rerunMayNarrow: true,
    record: { key: "max_cases", schema: since(nullable(z.number())) },
    parse: numberText({
      flag: "max-cases",
      expected: "a whole number >= 1",
      example: "10",
      check: (n) => Number.isSafeInteger(n) && n >= 1,
    }),
  },
  trials: {
    schema: z.number().int().min(1).max(MAX_TRIALS),
    flag: "trials",
    value: "K",
    help: "Run every case K times (default: its execution.trials, else 1)",
    effect: "results",
    record: { key: "trials", schema: since(nullable(z.number())) },
    parse: trialsText,
  },
  trialsGate: {
    schema: TrialsGateSchema as z.ZodType<TrialsGate, TrialsGate>,
    flag: "trials-gate",
    value: "GATE",
    help: "How trials make a case's verdict: mean (default), any, all or rate:X (pass rate >= X)",
    default: "mean",
    effect: "results",
    record: { key: "trials_gate", schema: since(TrialsGateSchema) },
    parse: trialsGateText,
    tsType: "TrialsGate",
  },
  verbose: {
    schema: z.boolean(),
    flag: "verbose",
    short: "v",
    help: "Show targets, retries and loading",
    default: false,
  },
  quiet: {
    schema: z.boolean(),
    scope: "command",
    flag: "quiet",
    short: "q",
    help: "Print only the summary's counts (no progress, no list of failed cases)",
  },
  json: {
    schema: z.boolean(),
    scope: "command",
    flag: "json",
    help: "Print the summary as JSON on stdout",
  },
  report: {
    schema: z.array(z.object({ format: z.enum(REPORT_FORMATS), file: z.string().optional() })),
    scope: "command",
    flag: "report",
    value: "FORMAT[:FILE]",
    multiple: true,
    help: "Also write a junit, markdown, html or json report (default FILE beside the " +
      "results: <results>.junit.xml, .md, .html, .report.json)",
    parse: reportText,
  },
  resume: {
    schema: z.string().min(1),
    scope: "command",
    flag: "resume",
    value: "RESULTS",
    help:
      "Continue an interrupted or crashed run in its results file: run only the cases not finished",
  },
  rerunFailed: {
    schema: z.string().min(1),
    scope: "command",
    flag: "rerun-failed",
    value: "RESULTS",
    help: "Run again the failed and error cases of that run, into a new results file",
  },
  retryErrors: {
    schema: z.string().min(1),
    scope: "command",
    flag: "retry-errors",
    value: "RESULTS",
    help: "Run again the error cases of that run, into a new results file",
  },
  cache: {
    schema: z.enum(CACHE_MODES),
    flag: "cache",
    value: "MODE",
    help:
      "Response cache: off (default; or cache: in your config, which a dataset's config can only restrict), read, write or readwrite (.agentv/cache/)",
    default: "off",
    config: {
      user: "cache",
      dataset: "cache",
      fromDataset: (config) => config.cache,
      narrow: (current, mode) => narrowCacheMode(current ?? "off", mode),
      docs: "your config's `cache:`, narrowed by each dataset config's `cache:` (`off` turns it " +
        "off, `read` drops the writes, `write` drops the reads)",
    },
    // A dry run caches nothing (its targets are mocks); a replay only reads.
    implied: (spec) => spec.dryRun === true ? "off" : spec.replay === true ? "read" : undefined,
    record: {
      key: "cache",
      schema: since(z.enum(["read", "write", "readwrite"])),
      // Absent when the cache was off (and in every record written before it existed).
      encode: (spec) => spec.cache === "off" ? undefined : spec.cache,
      decode: (options) => (options.cache as CacheMode | undefined) ?? "off",
    },
    parse: choiceText("cache", CACHE_MODES, "e.g. --cache readwrite (record and reuse responses)"),
  },
  replay: {
    schema: z.boolean(),
    flag: "replay",
    help:
      "Answer every target and judge call from the cache, offline; a miss is an error row saying why",
    default: false,
    record: {
      key: "replay",
      schema: since(z.boolean()),
      encode: (spec) => spec.cache === "off" ? undefined : spec.replay ?? false,
      decode: (options) => options.replay === true ? true : undefined,
    },
  },
  cacheDir: {
    schema: z.string().min(1),
    flag: "cache-dir",
    value: "DIR",
    help: "Cache folder (default: the config's cache_dir, else <root>/.agentv/cache)",
    path: true,
    config: {
      dataset: "cache_dir",
      fromDataset: (config) =>
        config.cache_dir === undefined
          ? undefined
          : resolve(dirname(dirname(config.file)), config.cache_dir),
      narrow: (current, dir) => current ?? dir,
      docs: "the first dataset config's `cache_dir:` (relative to the folder holding `.agentv/`; " +
        "it must stay inside the dataset root)",
    },
  },
} as const satisfies Record<string, AnyOption>;

/** The name of a run option (its key in {@link RunSpec}). */
export type RunOptionName = keyof typeof RUN_OPTIONS;

/** The type of the table (for the types derived from it). */
export type RunOptionsTable = typeof RUN_OPTIONS;
type Options = RunOptionsTable;
/** An entry's scope: `run` unless it says `command`. */
type ScopeOf<O> = O extends { scope: "command" } ? "command" : "run";
type Shape<Scope> = {
  [K in keyof Options as ScopeOf<Options[K]> extends Scope ? K : never]: z.ZodOptional<
    Options[K]["schema"]
  >;
};

/** Every entry of {@link RUN_OPTIONS}, loosely typed, in order. */
export const RUN_OPTION_ENTRIES: readonly [RunOptionName, RunOptionDef][] = Object.entries(
  RUN_OPTIONS,
) as [RunOptionName, RunOptionDef][];

function shapeOf(scopes: readonly string[]): Record<string, z.ZodType> {
  return Object.fromEntries(
    RUN_OPTION_ENTRIES.filter(([, d]) => scopes.includes(d.scope ?? "run"))
      .map(([name, d]) => [name, d.schema.optional()]),
  );
}

/** The default of every option that has one. */
export const RUN_OPTION_DEFAULTS: Readonly<Record<string, unknown>> = Object.fromEntries(
  RUN_OPTION_ENTRIES.flatMap(([name, d]) => d.default === undefined ? [] : [[name, d.default]]),
);

/** `runEval`'s options (the `run` scope), every one optional. */
export const RunSpecSchema: z.ZodObject<Shape<"run">> = z.object(shapeOf(["run"])) as never;

/** Every option of `agentv run` (both scopes), every one optional. */
export const RunCommandSchema: z.ZodObject<Shape<"run" | "command">> = z.object(
  shapeOf(["run", "command"]),
) as never;

// The generated types (`run_spec_types.ts`) must say exactly what the schemas produce, with the
// same keys (an optional key missing from one side is not caught by `Same` alone).
type _Checks = [
  Assert<Same<RunSpec, z.input<typeof RunSpecSchema>>>,
  Assert<Same<keyof RunSpec, keyof z.input<typeof RunSpecSchema>>>,
  Assert<Same<RunCommandValues, z.input<typeof RunCommandSchema>>>,
  Assert<Same<keyof RunCommandValues, keyof z.input<typeof RunCommandSchema>>>,
];
