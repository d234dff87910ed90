/**
 * `agentv merge <results>... -o <all.jsonl>`: joins the results of a sharded run (one
 * `agentv run --shard i/n` per machine) into one results file and its run record, which every
 * report and `agentv compare` read like any run's. Refuses (exit 2, saying what differs) shards
 * of other datasets or options; reports duplicate rows, missing shards and, when the eval files
 * can be read here, the cases no shard ran. Exit codes as `agentv run`'s: 0 complete and passed,
 * 1 incomplete (or a shard's lines unreadable) or failed, 2 nothing merged.
 *
 * @module
 */
import { resolve } from "node:path";
import { renderSummary } from "../render/console.ts";
import {
  formatResultsFile,
  type MergedRun,
  mergeShards,
  shardDisagreements,
  type ShardResults,
  type TrialPair,
} from "../results/merge.ts";
import {
  readRunRecord,
  RunRecordError,
  runRecordPath,
  writeRunRecord,
} from "../results/run_record.ts";
import { planCases } from "../run/plan.ts";
import { runPassed } from "../results/summary.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { RunRecord } from "../schema/run_record.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { loadRecordedSets, recordedRunInputs, type RecordedSets } from "./recorded_inputs.ts";
import { readResultsArg } from "./results_arg.ts";
import { refuseOutputOverInput, resultsInputs } from "./run_inputs.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import { writeFileAtomic } from "../fs/atomic_write.ts";

const USAGE_HINT =
  "agentv merge shard-0.jsonl shard-1.jsonl ... -o all.jsonl (each with its .run.json beside it)";

/** Reads one shard's results file and run record; a missing one is a usage error. */
async function readShard(
  path: string,
  io: CommandIO,
): Promise<{ shard: ShardResults; problems: Diagnostic[] }> {
  const shown = displayPath(path, io.cwd);
  const read = await readResultsArg(path, io, { what: "results file", hint: USAGE_HINT });
  let record: RunRecord;
  try {
    record = await readRunRecord(runRecordPath(path));
  } catch (e) {
    if (!(e instanceof RunRecordError)) throw e;
    throw new UsageError(
      `${displayPath(e.path, io.cwd)}: ${e.message.slice(e.path.length + 2)}`,
      "agentv merge needs the run record agentv run writes beside each results file: " +
        "keep <results>.run.json with its results file (e.g. upload both as the shard's artifact)",
    );
  }
  return {
    shard: { path, shown, record, rows: read.rows },
    problems: read.problems,
  };
}

/**
 * Every (dataset, case, trial) the shards together should have run, from the eval files when
 * they are here unchanged (loaded in the sandbox, like `agentv run`), else why not.
 */
function expectedPairs(
  record: RunRecord,
  recorded: RecordedSets,
): { pairs: TrialPair[] } | { note: string } {
  if (!recorded.loaded) {
    return { note: `${recorded.note}: missing cases were checked by shard only` };
  }
  const trials = (record.options as { trials?: unknown }).trials;
  const plan = planCases(recorded.sets, {
    ...(record.options.filter !== null ? { filter: record.options.filter } : {}),
    ...(typeof trials === "number" ? { trials } : {}),
    ...(record.options.target !== null ? { target: record.options.target } : {}),
  });
  return {
    pairs: plan.cases.map((c) => ({
      dataset: c.evalCase.dataset,
      eval_id: c.evalCase.id,
      target: c.target,
      trial: c.trial,
    })),
  };
}

/** How a (case, target, trial) run is named in messages: `dataset/id [target] trial N`. */
function runName(run: TrialPair): string {
  return `${run.dataset}/${run.eval_id} [${run.target}] trial ${run.trial}`;
}

/**
 * Refuses `-o` (or the run record written beside it) over a file the shards' run read, or over
 * a shard's results or run record.
 */
async function refuseOutputOverInputs(
  out: { path: string; shown: string },
  shards: readonly ShardResults[],
  recorded: RecordedSets,
): Promise<void> {
  const inputs = [
    ...shards.flatMap((s) => resultsInputs(s.path, "shard's ")),
    ...await recordedRunInputs(
      { path: shards[0].path, recordPath: runRecordPath(shards[0].path) },
      shards[0].record,
      recorded.sets,
    ),
  ];
  for (const path of [out.path, runRecordPath(out.path)]) {
    await refuseOutputOverInput(path, inputs, {
      flag: "-o",
      shown: path === out.path ? out.shown : `${out.shown}.run.json`,
      writes: "the merged results and their run record replace the files they are written to",
      example: "all.jsonl",
    });
  }
}

/** Writes the merged results file whole (a temporary file renamed over it), then its record. */
async function writeMerged(path: string, merged: MergedRun): Promise<void> {
  await writeFileAtomic(path, formatResultsFile(merged.rows), { mkdir: true });
  writeRunRecord(runRecordPath(path), merged.record);
}

/** Lists at most `limit` items, then how many more. */
function capped<T>(items: readonly T[], limit: number, line: (item: T) => string): string {
  const shown = items.slice(0, limit).map((i) => `  ${line(i)}\n`).join("");
  return shown + (items.length > limit ? `  … and ${items.length - limit} more\n` : "");
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const out = typeof args.values.out === "string" ? args.values.out : undefined;
  if (out === undefined || out.trim() === "") {
    throw new UsageError("agentv merge needs the merged results file: -o FILE", USAGE_HINT);
  }
  if (args.positionals.length === 0) {
    throw new UsageError("agentv merge needs the shards' results files", USAGE_HINT);
  }
  const outPath = resolve(io.cwd, out);
  const inputs = args.positionals.map((p) => resolve(io.cwd, p));
  for (const [i, input] of inputs.entries()) {
    if (inputs.indexOf(input) !== i) {
      throw new UsageError(`'${args.positionals[i]}' is given twice`, USAGE_HINT);
    }
    if (input === outPath || runRecordPath(input) === outPath) {
      throw new UsageError(
        `-o '${out}' would overwrite the input '${args.positionals[i]}'`,
        "write the merged results to a new file, e.g. -o all.jsonl",
      );
    }
  }
  const paint = createPaint(io.color);
  const read = [];
  for (const input of inputs) read.push(await readShard(input, io));
  const shards = read.map((r) => r.shard);
  const disagreements = shardDisagreements(shards);
  if (disagreements.length > 0) {
    throw new UsageError(
      `Cannot merge: these are not the shards of one run\n${
        disagreements.map((d) => `  - ${d}`).join("\n")
      }`,
      "merge the results of `agentv run --shard i/n` over the same eval files (unchanged) " +
        "with the same options, one file per shard",
    );
  }
  const problems = read.flatMap((r) => r.problems);
  if (problems.length > 0) {
    io.stderr(
      renderDiagnosticsFor(problems, io) + "\n",
    );
  }
  const recorded = await loadRecordedSets(shards[0].record, io);
  await refuseOutputOverInputs({ path: outPath, shown: out }, shards, recorded);
  const expected = expectedPairs(shards[0].record, recorded);
  const merged = mergeShards(shards, {
    resultsPath: outPath,
    ...("pairs" in expected ? { expected: expected.pairs } : {}),
    now: io.now,
  });
  await writeMerged(outPath, merged);

  const count = shards[0].record.options.shard?.count ?? 0;
  const warn = (text: string) => io.stderr(`${paint.red(paint.bold("error"))}: ${text}`);
  if (merged.missingShards.length > 0) {
    warn(
      `missing shard${merged.missingShards.length === 1 ? "" : "s"} ${
        merged.missingShards.map((i) => `${i}/${count}`).join(", ")
      }: their cases are not in the merged results\n`,
    );
  }
  if (merged.repeatedShards.length > 0) {
    warn(
      `shard${merged.repeatedShards.length === 1 ? "" : "s"} ${
        merged.repeatedShards.map((i) => `${i}/${count}`).join(", ")
      } given more than once\n`,
    );
  }
  if (merged.duplicates.length > 0) {
    warn(
      `${merged.duplicates.length} case run(s) appear more than once (the first row is kept):\n` +
        capped(
          merged.duplicates,
          20,
          (d) => `${runName(d)}: ${d.files.join(", ")}`,
        ),
    );
  }
  for (const u of merged.unfinished) {
    warn(
      `${u.path}: the shard run ${
        u.status === "running" ? "never finished (crashed or still running)" : `was ${u.status}`
      }; resume it (agentv run --resume) or run that shard again\n`,
    );
  }
  if (merged.missingPairs.length > 0) {
    warn(
      `${merged.missingPairs.length} case run(s) of the eval files are in no shard's results:\n` +
        capped(merged.missingPairs, 20, runName),
    );
  }
  if ("note" in expected) io.stderr(`${paint.dim("note")}: ${expected.note}\n`);

  const summary = merged.record.summary!;
  const threshold = merged.record.options.threshold;
  io.stdout(
    `Merged ${shards.length} shard${shards.length === 1 ? "" : "s"} (${merged.rows.length} row${
      merged.rows.length === 1 ? "" : "s"
    }) into ${
      displayPath(outPath, io.cwd)
    } (run ${merged.record.run_id}, ${merged.record.status})\n\n` +
      renderSummary(summary, {
        color: io.color,
        cwd: io.cwd,
        ...(threshold !== null ? { threshold } : {}),
      }),
  );
  const incomplete = merged.record.status !== "finished" || merged.duplicates.length > 0 ||
    merged.repeatedShards.length > 0 || problems.length > 0;
  if (incomplete) return 1;
  return runPassed(summary, threshold !== null ? { threshold } : {}) ? 0 : 1;
}

/** The `merge` command. */
export const mergeCommand: Command = {
  ...commandInfo("merge"),
  usage: "agentv merge <results>... -o <all.jsonl>",
  options: {
    out: {
      type: "string",
      short: "o",
      valueName: "FILE",
      description: "The merged results file (its run record is written beside it)",
    },
  },
  run,
};
