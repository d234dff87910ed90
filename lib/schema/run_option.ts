/**
 * What a run option is made of (the metadata of each entry of `run_spec.ts`) and the readers that
 * turn a flag's text into its value, with the messages `agentv run` prints for a bad one. Nothing
 * here names an option: `run_spec.ts` declares them.
 *
 * @module
 */
import type { z } from "zod";
import type { RunConfigSettings } from "./config.ts";
import { MAX_TARGETS, MAX_TRIALS } from "./eval_file.ts";
import { parseTrialsGate, type TrialsGate } from "./trials.ts";

/** A flag's text read into a value, or what is wrong with it (the CLI makes it a usage error). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; hint?: string };

/** Where an option's value may come from besides the flag (see `settleRunSpec`). */
export interface ConfigSource<T> {
  /** Its key in the user's own config (`config.yaml` in the user's agentv folder). */
  user?: "cache";
  /** Its key in a dataset's `.agentv/config.yaml`. */
  dataset: keyof Omit<RunConfigSettings, "file">;
  /** The value a dataset config gives (absent when it sets none). */
  fromDataset(config: RunConfigSettings): T | undefined;
  /** How a dataset's value narrows the value so far (a dataset config can only restrict). */
  narrow(current: T | undefined, fromDataset: T): T | undefined;
  /** The rule in words, for the docs. */
  docs: string;
}

/** How an option is kept in the run record's `options` (see `runOptionsRecord`). */
export interface RecordedAs<T> {
  /** The key in `options`. */
  key: string;
  /** Its schema there (a key added after the first records is optional: older ones lack it). */
  schema: z.ZodType;
  /** What is written (default: the settled value, `null` when there is none; `undefined`: no key). */
  encode?(spec: Readonly<Record<string, unknown>>): unknown;
  /** The value a resumed run takes from a record's `options` (default: the value, unless `null`). */
  decode?(options: Readonly<Record<string, unknown>>): T | undefined;
}

/** One option of `agentv run` and of `runEval`: see `run_spec.ts`. */
export interface RunOptionDef<T = unknown> {
  /** The value's schema (what `runEval` accepts; the flag's text is read by `parse`). */
  schema: z.ZodType<T, T>;
  /**
   * Who reads it: `run` options (the default) are `runEval`'s (its argument, the run record);
   * `command` options only steer `agentv run` itself (what it prints, which earlier run it
   * continues).
   */
  scope?: "run" | "command";
  /** The long flag, without `--`. */
  flag: string;
  /** The one-letter flag, without `-`. */
  short?: string;
  /** The value's placeholder in `--help` (`NAME`); absent for a switch. */
  value?: string;
  /** Whether the flag may be given several times. */
  multiple?: boolean;
  /** The line of `--help`. */
  help: string;
  /** The value when nothing gives one (absent: none, and the option is off). */
  default?: T;
  /** The default as the docs show it, when not `default` itself. */
  shownDefault?: string;
  /** A path: relative to the working directory, made absolute before the run. */
  path?: boolean;
  /** Its config files, and how they combine. */
  config?: ConfigSource<T>;
  /** A value other options force, over the flag (`--replay` reads the cache). */
  implied?(spec: Readonly<Record<string, unknown>>): T | undefined;
  /**
   * `results`: another value changes the run's results, so a resume, a rerun or the shards of a
   * merge must keep it; `gate`: it changes the verdict of the whole run (merge keeps it).
   */
  effect?: "results" | "gate";
  /** A rerun (`--rerun-failed`, `--retry-errors`) may change it: it only narrows the cases. */
  rerunMayNarrow?: boolean;
  /** Each shard of a merge has its own. */
  perShard?: boolean;
  /** How the run record keeps it (absent: not recorded). */
  record?: RecordedAs<T>;
  /** Reads the flag's text (default: by the value's kind; see {@link parseFlagText}). */
  parse?(text: string): Parsed<T> | Promise<Parsed<T>>;
  /** The TypeScript type of the value, when the schema's is not printed as it should. */
  tsType?: string;
}

/**
 * A string flag's text: any text but an empty one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nonEmpty } from "./run_option.ts";
 * assert.deepEqual(nonEmpty("target")(""), { ok: false, message: "--target must not be empty" });
 * ```
 */
export function nonEmpty(flag: string): (text: string) => Parsed<string> {
  return (text) =>
    text.trim() === ""
      ? { ok: false, message: `--${flag} must not be empty` }
      : { ok: true, value: text };
}

/** What {@link numberText} accepts. */
export interface NumberTextOptions {
  /** The flag, without `--`. */
  flag: string;
  /** What is expected, as the message says it (`an integer from 1 to 1000`). */
  expected: string;
  /** A good value, for the hint. */
  example: string;
  /** Whether a number is accepted. */
  check(n: number): boolean;
  /** Multiplies the number given (`--timeout` takes seconds, the value is in ms). */
  scale?: number;
}

/**
 * A number flag's text: `--workers must be an integer from 1 to 1000, got 'x'` otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberText } from "./run_option.ts";
 * const read = numberText({ flag: "workers", expected: "an integer", example: "8", check: Number.isInteger });
 * assert.deepEqual(read("8"), { ok: true, value: 8 });
 * ```
 */
export function numberText(options: NumberTextOptions): (text: string) => Parsed<number> {
  return (text) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n) || !options.check(n)) {
      return {
        ok: false,
        message: `--${options.flag} must be ${options.expected}, got '${text}'`,
        hint: `e.g. --${options.flag} ${options.example}`,
      };
    }
    return { ok: true, value: options.scale === undefined ? n : Math.round(n * options.scale) };
  };
}

/**
 * `--target NAME` or `--target a,b,c`: one name (today's meaning: every case runs against it), or
 * up to {@link MAX_TARGETS} distinct names separated by commas (every case runs against each, in
 * that order). Spaces around a name are dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetNamesText } from "./run_option.ts";
 * assert.deepEqual(targetNamesText("gpt"), { ok: true, value: "gpt" });
 * assert.deepEqual(targetNamesText("gpt, claude"), { ok: true, value: ["gpt", "claude"] });
 * ```
 */
export function targetNamesText(text: string): Parsed<string | string[]> {
  const names = text.split(",").map((n) => n.trim());
  const hint = "--target NAME, or --target a,b,c to run every case against each of them";
  if (names.some((n) => n === "")) {
    return {
      ok: false,
      message: text.trim() === ""
        ? "--target must not be empty"
        : `--target '${text}': a name between commas is empty`,
      hint,
    };
  }
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) {
    return { ok: false, message: `--target '${text}' names '${twice}' twice`, hint };
  }
  if (names.length > MAX_TARGETS) {
    return {
      ok: false,
      message: `--target names ${names.length} targets; at most ${MAX_TARGETS} are allowed`,
      hint,
    };
  }
  return { ok: true, value: names.length === 1 ? names[0] : names };
}

/**
 * The target names of a `--target` value (`target` of a run spec): a list, or `undefined` when
 * none was given (each case then runs against its own).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetNames } from "./run_option.ts";
 * assert.deepEqual(targetNames("gpt"), ["gpt"]);
 * assert.deepEqual(targetNames(["gpt", "claude"]), ["gpt", "claude"]);
 * assert.deepEqual(targetNames(undefined), undefined);
 * ```
 */
export function targetNames(
  value: string | readonly string[] | null | undefined,
): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? [value] : value;
}

/**
 * How the run record keeps `target`: one name as a name (as records did before lists existed, so
 * a resume compares them equal), several as a list, none as `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordedTargetNames } from "./run_option.ts";
 * assert.deepEqual(recordedTargetNames(["gpt"]), "gpt");
 * assert.deepEqual(recordedTargetNames(["gpt", "claude"]), ["gpt", "claude"]);
 * ```
 */
export function recordedTargetNames(value: unknown): string | string[] | null {
  const names = targetNames(value as string | string[] | undefined);
  return names === undefined ? null : names.length === 1 ? names[0] : [...names];
}

const SHARD_HINT = "--shard INDEX/COUNT with a 0-based index, e.g. --shard 0/4 … --shard 3/4 " +
  "(Kubernetes: --shard $JOB_COMPLETION_INDEX/4; GitHub Actions: --shard ${{ strategy.job-index }}/4)";

/**
 * `--shard i/n`: two integers, `n >= 1` and `0 <= i < n`; otherwise what is wrong with which part.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardText } from "./run_option.ts";
 * assert.deepEqual(shardText("2/4"), { ok: true, value: { index: 2, count: 4 } });
 * ```
 */
export function shardText(text: string): Parsed<{ index: number; count: number }> {
  const fail = (message: string, hint = SHARD_HINT) => ({ ok: false as const, message, hint });
  const match = /^\s*(\S*?)\s*\/\s*(\S*?)\s*$/.exec(text);
  if (!match) return fail(`--shard must be INDEX/COUNT, got '${text}'`);
  const [, i, n] = match;
  const integer = /^\d+$/;
  if (!integer.test(n) || Number(n) < 1) {
    return fail(`--shard '${text}': the shard count must be an integer >= 1, got '${n}'`);
  }
  const count = Number(n);
  if (!integer.test(i)) {
    return fail(
      `--shard '${text}': the shard index must be an integer from 0 to ${count - 1}, got '${i}'`,
    );
  }
  const index = Number(i);
  if (index >= count) {
    return fail(
      `--shard '${text}': the shard index must be from 0 to ${count - 1} (shards are numbered ` +
        `from 0), got ${index}`,
      `the shards of --shard ?/${count} are ${count === 1 ? "0" : `0 to ${count - 1}`}`,
    );
  }
  if (!Number.isSafeInteger(count)) {
    return fail(`--shard '${text}': the shard count ${n} is too large`);
  }
  return { ok: true, value: { index, count } };
}

/**
 * `--trials K`: a whole number from 1 to {@link MAX_TRIALS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialsText } from "./run_option.ts";
 * assert.deepEqual(trialsText("5"), { ok: true, value: 5 });
 * ```
 */
export function trialsText(text: string): Parsed<number> {
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || n < 1 || n > MAX_TRIALS) {
    return {
      ok: false,
      message: `--trials must be a whole number from 1 to ${MAX_TRIALS}, got '${text}'`,
      hint:
        "e.g. --trials 5 runs every case 5 times (execution.trials sets it for one file or case)",
    };
  }
  return { ok: true, value: n };
}

/**
 * `--trials-gate`: `mean`, `any`, `all` or `rate:X` with X from 0 to 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialsGateText } from "./run_option.ts";
 * assert.deepEqual(trialsGateText("rate:0.8"), { ok: true, value: "rate:0.8" });
 * ```
 */
export function trialsGateText(text: string): Parsed<TrialsGate> {
  const parsed = parseTrialsGate(text.trim());
  if (parsed.ok) return { ok: true, value: parsed.gate };
  return {
    ok: false,
    message: `--trials-gate: ${parsed.error}`,
    hint: "--trials-gate mean (the mean score's verdict), any (a trial passed), all (every trial " +
      "passed) or rate:X (at least X of the trials passed, e.g. rate:0.8)",
  };
}

/**
 * One of `choices`: `--cache must be one of off, read, write, readwrite, got 'x'` otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceText } from "./run_option.ts";
 * assert.deepEqual(choiceText("cache", ["off", "read"], "e.g. --cache read")("read"), {
 *   ok: true,
 *   value: "read",
 * });
 * ```
 */
export function choiceText<T extends string>(
  flag: string,
  choices: readonly T[],
  hint: string,
): (text: string) => Parsed<T> {
  return (text) =>
    (choices as readonly string[]).includes(text) ? { ok: true, value: text as T } : {
      ok: false,
      message: `--${flag} must be one of ${choices.join(", ")}, got '${text}'`,
      hint,
    };
}

/** The report formats, as `--report` and `agentv report --format` name them. */
export const REPORT_FORMATS = ["junit", "markdown", "html", "json"] as const;

/** A report format. */
export type ReportFormat = typeof REPORT_FORMATS[number];

/** The file suffix of each format (`<results><suffix>`). */
export const REPORT_SUFFIX: Record<ReportFormat, string> = {
  junit: ".junit.xml",
  markdown: ".md",
  html: ".html",
  json: ".report.json",
};

/** One `--report FORMAT[:FILE]`. */
export interface ReportSpec {
  /** The format. */
  format: ReportFormat;
  /** The file as given (relative to the cwd); default beside the results file. */
  file?: string;
}

/**
 * One `--report FORMAT[:FILE]` value (`junit`, `markdown:out/report.md`, …).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportText } from "./run_option.ts";
 * assert.deepEqual(reportText("markdown:out.md"), {
 *   ok: true,
 *   value: { format: "markdown", file: "out.md" },
 * });
 * ```
 */
export function reportText(text: string): Parsed<ReportSpec> {
  const colon = text.indexOf(":");
  const format = colon === -1 ? text : text.slice(0, colon);
  const file = colon === -1 ? undefined : text.slice(colon + 1);
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    return {
      ok: false,
      message: `--report '${text}': unknown format '${format}'; expected one of ${
        REPORT_FORMATS.join(", ")
      }`,
      hint: "e.g. --report junit or --report junit:reports/agentv.xml",
    };
  }
  const known = format as ReportFormat;
  if (file !== undefined && file.trim() === "") {
    return {
      ok: false,
      message: `--report '${text}': the file after ':' is empty`,
      hint: `name a file, e.g. --report ${format}:report${REPORT_SUFFIX[known]}, or leave out ':'`,
    };
  }
  return { ok: true, value: file === undefined ? { format: known } : { format: known, file } };
}

/**
 * A `--filter` glob: not empty, and a glob the matcher accepts (its engine is loaded only now).
 *
 * @example
 * ```ts ignore
 * await globText("{a,b"); // { ok: false, message: "--filter: ..." }
 * ```
 */
export async function globText(text: string): Promise<Parsed<string>> {
  const empty = nonEmpty("filter")(text);
  if (!empty.ok) return empty;
  const { globProblem, loadGlobs } = await import("../text/glob.ts");
  await loadGlobs([text]);
  const problem = globProblem(text);
  return problem === undefined
    ? { ok: true, value: text }
    : { ok: false, message: `--filter: ${problem}` };
}

/**
 * Reads a flag's text (a list of texts for a repeatable flag) with the option's `parse`, else by
 * the kind of its value: a switch is `true`, other flags take any text but an empty one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlagText } from "./run_option.ts";
 * const def = { flag: "dry-run" } as never;
 * assert.deepEqual(await parseFlagText(def, true), { ok: true, value: true });
 * ```
 */
export async function parseFlagText(
  def: RunOptionDef,
  raw: string | boolean | readonly (string | boolean)[],
): Promise<Parsed<unknown>> {
  if (typeof raw === "boolean") return { ok: true, value: raw };
  const read = def.parse ?? nonEmpty(def.flag);
  if (!Array.isArray(raw)) return await read(raw as string);
  const values: unknown[] = [];
  for (const text of raw) {
    const one = await read(String(text));
    if (!one.ok) return one;
    values.push(one.value);
  }
  return { ok: true, value: values };
}
