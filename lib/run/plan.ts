/**
 * The run's plan: which (case, target, trial) runs of the loaded files run, in which order. Cases
 * are selected by `--filter`, then by `--shard i/n` (a stable hash of dataset + case id, so a case
 * keeps its shard when others are added and every target and trial of a case lands in the same
 * shard), then the first `--max-cases N` of them are kept, then they are expanded into trials
 * (`--trials K`, else the case's `execution.trials`, else 1) and targets (`--target a,b,c`, else
 * the case's `execution.targets` or `target`), and runs already done (a resumed run) are left out
 * (after `--max-cases`, so a resumed run keeps the cases it had). The targets of a case are
 * interleaved trial by trial (a, b, c, a, b, c, ...), so an interrupted run is balanced.
 *
 * @module
 */
import { relative } from "node:path";
import { matchGlob } from "../text/glob.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { caseTargets } from "../dataset/case_targets.ts";
import { targetNames } from "../schema/run_option.ts";
import type { LoadedEvalSet } from "./run_eval.ts";

/** One shard of a run split over `count` machines (`--shard index/count`, index from 0). */
export interface Shard {
  /** This shard, from 0 to `count - 1`. */
  index: number;
  /** Number of shards. */
  count: number;
}

/** A (case, target, trial) run to make. */
export interface PlannedCase {
  /** The file the case came from. */
  set: LoadedEvalSet;
  /** The case. */
  evalCase: EvalCase;
  /** The target it runs against (`--target`, else the case's own). */
  target: string;
  /** Trial index, from 0. */
  trial: number;
}

/** A (case, target, trial) run, as a resumed run and a rerun name the ones done or to redo. */
export interface CaseRun {
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Target name. */
  target: string;
  /** Trial index, from 0. */
  trial: number;
}

/** Options of {@link planCases}. */
export interface PlanOptions {
  /** Glob on case ids (`--filter`). */
  filter?: string;
  /** Run only this shard's cases (`--shard`). */
  shard?: Shard;
  /** Trials of every case, replacing each case's `execution.trials` (`--trials`). */
  trials?: number;
  /** Run at most this many cases, the first ones in plan order (`--max-cases`). */
  maxCases?: number;
  /** Targets of every case, replacing each case's own (`--target`: one name or several). */
  target?: string | readonly string[];
  /** Whether a run is already done (resume): such runs are left out of the plan. */
  done?: (run: CaseRun) => boolean;
}

/** What {@link planCases} returns. */
export interface Plan {
  /** The runs to make, case by case (the trials of a case, each over its targets, together). */
  cases: PlannedCase[];
  /** Cases that matched `--filter` (before sharding): 0 means the filter matched nothing. */
  matched: number;
  /** Runs left out because they were already done. */
  skippedDone: number;
}

/**
 * The number of trials of a case: `--trials`, else its `execution.trials`, else 1.
 *
 * @example
 * ```ts
 * import { trialsOf } from "./plan.ts";
 * const evalCase = { execution: { target: "default", trials: 5 } };
 * trialsOf(evalCase as never, undefined); // 5
 * trialsOf(evalCase as never, 2); // 2
 * ```
 */
export function trialsOf(evalCase: EvalCase, override: number | undefined): number {
  if (override !== undefined) return override;
  const own = (evalCase.execution as { trials?: unknown }).trials;
  return typeof own === "number" && Number.isInteger(own) && own >= 1 ? own : 1;
}

/**
 * The shard (0 to `count - 1`) of a case: FNV-1a (32-bit) of `dataset`, a NUL and the case id,
 * modulo `count`. It depends on nothing but the case, so adding cases never moves others.
 *
 * @example
 * ```ts
 * import { shardOf } from "./plan.ts";
 * const s = shardOf("support", "refund-1", 4);
 * s >= 0 && s < 4; // true
 * shardOf("support", "refund-1", 4) === s; // true
 * ```
 */
export function shardOf(dataset: string, id: string, count: number): number {
  let hash = 0x811c9dc5;
  const key = `${dataset}\0${id}`;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    // UTF-16 code units, low byte then high byte, so every string hashes the same everywhere.
    hash = Math.imul(hash ^ (code & 0xff), 0x01000193);
    hash = Math.imul(hash ^ (code >>> 8), 0x01000193);
  }
  return (hash >>> 0) % count;
}

/**
 * Plans a run over loaded files; see the module doc.
 *
 * @example
 * ```ts
 * import { planCases } from "./plan.ts";
 * const set = {
 *   file: "/d/a.yaml", root: "/d", evalDir: "/d",
 *   cases: [{ id: "a", dataset: "d", execution: { target: "default" } }],
 * };
 * const plan = planCases([set as never], { trials: 2, target: ["x", "y"] });
 * plan.cases.map((c) => `${c.trial}${c.target}`); // ["0x", "0y", "1x", "1y"]
 * ```
 */
export function planCases(sets: readonly LoadedEvalSet[], options: PlanOptions = {}): Plan {
  const cases: PlannedCase[] = [];
  let matched = 0;
  let skippedDone = 0;
  let selected = 0;
  const given = targetNames(options.target);
  for (const set of sets) {
    for (const evalCase of set.cases) {
      if (options.filter !== undefined && !matchGlob(options.filter, evalCase.id)) continue;
      matched++;
      const { shard } = options;
      if (shard && shardOf(evalCase.dataset, evalCase.id, shard.count) !== shard.index) continue;
      if (options.maxCases !== undefined && selected >= options.maxCases) continue;
      selected++;
      const trials = trialsOf(evalCase, options.trials);
      const targets = given ?? caseTargets(evalCase);
      for (let trial = 0; trial < trials; trial++) {
        for (const target of targets) {
          const { dataset, id: eval_id } = evalCase;
          if (options.done?.({ dataset, eval_id, target, trial })) {
            skippedDone++;
            continue;
          }
          cases.push({ set, evalCase, target, trial });
        }
      }
    }
  }
  return { cases, matched, skippedDone };
}

/**
 * One error per planned case whose (dataset, case id) an earlier eval file of the run also has
 * (two files with the same name in two folders, or one file given twice): their rows could not be
 * told apart, since a results file holds one row per (dataset, case, target, trial). `runEval`
 * refuses such a run before anything runs. With `cwd`, the earlier file is named relative to it.
 *
 * @example
 * ```ts
 * import { casesInTwoFiles } from "./plan.ts";
 * const planned = (file: string) => ({
 *   set: { file, cases: [] },
 *   evalCase: { id: "a", dataset: "d" },
 *   trial: 0,
 * });
 * const twice = casesInTwoFiles([planned("/x/d.yaml"), planned("/y/d.yaml")] as never);
 * twice[0].file; // "/y/d.yaml"
 * ```
 */
export function casesInTwoFiles(
  cases: readonly PlannedCase[],
  options: { cwd?: string } = {},
): Diagnostic[] {
  const first = new Map<string, PlannedCase>();
  const reported = new Set<EvalCase>();
  const out: Diagnostic[] = [];
  for (const planned of cases) {
    const { set, evalCase } = planned;
    const key = `${evalCase.dataset}\0${evalCase.id}`;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, planned);
    // The trials of one case share it; another case (or the same file loaded twice) does not.
    if (seen === undefined || seen.evalCase === evalCase || reported.has(evalCase)) continue;
    reported.add(evalCase);
    out.push({
      severity: "error",
      file: set.file,
      message: `Case '${evalCase.id}' of dataset '${evalCase.dataset}' is also in ${
        seen.set.file === set.file
          ? "this file, given twice"
          : options.cwd === undefined
          ? seen.set.file
          : relative(options.cwd, seen.set.file)
      }; their rows could not be told apart; expected each (dataset, case id) once in a run`,
    });
  }
  return out;
}
