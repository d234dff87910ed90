/**
 * Re-asking judges on stored answers (`agentv calibrate --repeat K`, `--orders K`): for every
 * scored row of a results file and every judged evaluator that scored on it (`llm_judge`,
 * `rubric`), the evaluator runs again on the row's stored answer and trace, K times with the same
 * prompt (repeats) or once for each of K orders of its rubric items (orders). No target is called:
 * only judges, resolved from the eval files' targets files as a run resolves them, behind the same
 * trust gate, timeouts, retries and response cache; every re-ask carries its own `variant`
 * (`repeat 2`, `order 3`), so the cache keeps the K answers apart.
 *
 * @module
 */
import {
  type RejudgedItem,
  type RejudgeSample,
  type RejudgeSkip,
  rubricOrders,
} from "../calibration/consistency.ts";
import { summarizeTrace } from "../scoring/answer.ts";
import { runEvaluator } from "../scoring/run_evaluator.ts";
import type { EvaluationContext, JudgeClient } from "../scoring/types.ts";
import type { CacheMode } from "../schema/config.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorConfig, Rubric } from "../schema/evaluator.ts";
import type { ResultRow } from "../schema/result.ts";
import { ConsentGrant } from "../targets/consent.ts";
import { renderPrompt } from "../targets/render_prompt.ts";
import { Semaphore } from "./pool.ts";
import { createTargetResolver } from "./resolve_targets.ts";
import { AGENTV_VERSION } from "../results/run_record.ts";
import { caseEvaluators } from "./run_case.ts";
import type { CacheSummary } from "../schema/run_record.ts";
import { createCallCache } from "./run_cache.ts";
import { settleRunSpec } from "./settle_spec.ts";
import { loadUserConfig } from "../dataset/user_config.ts";
import { checkRunPermission, NeedCollector, type RunPermission } from "./run_permission.ts";
import type { LoadedEvalSet } from "./run_options.ts";

/** Options of {@link rejudge}. */
export interface RejudgeOptions {
  /** The stored rows (only `ok` rows are judged again). */
  rows: readonly ResultRow[];
  /** The eval files of the run, loaded (their cases give each evaluator's configuration). */
  sets: readonly LoadedEvalSet[];
  /** Re-ask each judged evaluator this many times with the same prompt (default 0: none). */
  repeat?: number;
  /** Re-ask each rubric judge once for each of this many orders of its rubric items (default 0). */
  orders?: number;
  /** Only these evaluators (by name); default every judged one. */
  evaluators?: readonly string[];
  /** The judge target to ask (default: the one each result recorded). */
  judgeTarget?: string;
  /** Targets file for every eval file instead of the discovered `.agentv/targets.yaml`. */
  targetsFile?: string;
  /** Environment for `${{ VAR }}` (and the user config of the cache). */
  env: Record<string, string>;
  /** Base of relative paths. */
  cwd: string;
  /** `fetch` of HTTP judges (default the global one). */
  fetch?: typeof fetch;
  /** Interrupts the re-asks. */
  signal?: AbortSignal;
  /** Timeout of each judge call attempt, in ms (default 120000). */
  timeoutMs?: number;
  /** Judge calls at once (default 4). */
  workers?: number;
  /** Response cache mode (as `runEval`'s `cache`). */
  cache?: CacheMode;
  /** Answer every judge call from the cache. */
  replay?: boolean;
  /** Cache folder. */
  cacheDir?: string;
  /** What a judge may start or send (as `runEval`'s `allowRun`; default false). */
  allowRun?: boolean | RunPermission;
  /** Seed of the rubric orders (default 20251115). */
  seed?: number;
  /** Told as each re-ask finishes. */
  onJudged?: (done: number, total: number) => void;
}

/** What {@link rejudge} returns. */
export interface RejudgeResult {
  /** Each (row, evaluator) judged `repeat` times. */
  repeat: RejudgedItem[];
  /** Each (row, rubric evaluator) judged once per order. */
  orders: RejudgedItem[];
  /** Evaluators left out, and why. */
  skipped: RejudgeSkip[];
  /** Response cache counters, when the cache was on. */
  cache?: CacheSummary;
}

/** Judged evaluator types that are asked again (composites and code judges are not). */
const REJUDGED = new Set(["llm_judge", "rubric"]);

/** The default seed of the rubric orders. */
const DEFAULT_ORDER_SEED = 20251115;

/** One (row, evaluator) to judge again: where its case is, what to run, and which judge. */
interface Job {
  row: ResultRow;
  set: LoadedEvalSet;
  evalCase: EvalCase;
  config: EvaluatorConfig;
  judgeName: string;
}

/** The rubric items of a config in rubric mode, else `undefined`. */
function rubricsOf(config: EvaluatorConfig): Rubric[] | undefined {
  if (config.type === "rubric") return config.rubrics;
  if (config.type === "llm_judge" && (config.rubrics?.length ?? 0) > 0) return config.rubrics;
  return undefined;
}

/** The jobs of the rows, and the evaluators skipped with why. */
function planJobs(options: RejudgeOptions): { jobs: Job[]; skipped: RejudgeSkip[] } {
  const cases = new Map<string, { set: LoadedEvalSet; evalCase: EvalCase }>();
  for (const set of options.sets) {
    for (const evalCase of set.cases) {
      cases.set(`${evalCase.dataset}\0${evalCase.id}`, { set, evalCase });
    }
  }
  const jobs: Job[] = [];
  const skips = new Map<string, RejudgeSkip>();
  const skip = (evaluator: string, reason: string) => {
    const key = `${evaluator}\0${reason}`;
    const found = skips.get(key);
    if (found) found.rows++;
    else skips.set(key, { evaluator, reason, rows: 1 });
  };
  for (const row of options.rows) {
    if (row.status !== "ok") continue;
    const found = cases.get(`${row.dataset}\0${row.eval_id}`);
    for (const result of row.evaluator_results) {
      if (options.evaluators !== undefined && !options.evaluators.includes(result.name)) continue;
      if (result.status !== "ok") continue;
      const config = found && caseEvaluators(found.evalCase).find((c) => c.name === result.name);
      const recorded = (result.evaluator_provider_request as { target?: unknown } | undefined)
        ?.target;
      if (!found || !config) {
        if (result.evaluator_provider_request !== undefined) {
          skip(result.name, "its case or evaluator is not in the eval files at hand");
        }
      } else if (!REJUDGED.has(config.type)) {
        if (config.type === "composite") skip(result.name, "composites are not asked again");
      } else if (options.judgeTarget === undefined && typeof recorded !== "string") {
        skip(result.name, "its result records no judge target (pass --judge-target)");
      } else {
        const judgeName = options.judgeTarget ?? (recorded as string);
        jobs.push({ row, set: found.set, evalCase: found.evalCase, config, judgeName });
      }
    }
  }
  return { jobs, skipped: [...skips.values()] };
}

/** The evaluation context of a stored row: its answer and trace, as the run saw them. */
function storedContext(job: Job, judge: JudgeClient, runtime: Runtime): EvaluationContext {
  const { row, evalCase, set } = job;
  let prompt = "";
  try {
    prompt = renderPrompt(evalCase);
  } catch { /* the question falls back to the raw input */ }
  return {
    evalCase,
    candidate: row.candidate_answer,
    outputMessages: row.output_messages,
    trace: row.trace_summary ?? summarizeTrace(row.output_messages),
    prompt,
    evalDir: set.evalDir,
    root: set.root,
    timeoutMs: runtime.timeoutMs,
    signal: runtime.signal,
    judge,
    targetName: row.target,
    dryRun: false,
    consent: runtime.consent,
    runEvaluator,
  };
}

interface Runtime {
  timeoutMs: number;
  signal: AbortSignal;
  consent: ConsentGrant;
}

/** Runs one variant of a job: the evaluator with `config`, its judge calls labelled `variant`. */
async function judgeOnce(
  job: Job,
  judge: JudgeClient,
  config: EvaluatorConfig,
  variant: string,
  runtime: Runtime,
): Promise<RejudgeSample> {
  const of = { dataset: job.row.dataset, eval_id: job.row.eval_id, trial: job.row.trial, variant };
  const labelled = judge.forCase?.(of) ?? judge;
  const result = await runEvaluator(config, storedContext(job, labelled, runtime));
  if (result.status === "ok") return { status: "ok", verdict: result.verdict, score: result.score };
  return { status: "error", verdict: "fail", score: 0, error: result.error ?? "not scored" };
}

function itemOf(job: Job): RejudgedItem {
  return {
    run_id: job.row.run_id,
    dataset: job.row.dataset,
    eval_id: job.row.eval_id,
    target: job.row.target,
    trial: job.row.trial,
    evaluator: job.config.name,
    type: job.config.type === "llm_judge" && rubricsOf(job.config) ? "rubric" : job.config.type,
    original: originalOf(job),
    samples: [],
  };
}

function originalOf(job: Job): RejudgedItem["original"] {
  const stored = job.row.evaluator_results.find((r) => r.name === job.config.name)!;
  return { verdict: stored.verdict, score: stored.score };
}

/**
 * Judges the stored answers of `options.rows` again (see the module doc). Throws
 * `RunConfigError` (nothing was asked) when a judge cannot be used or the trust gate refuses what
 * a judge would start or send; a judge call that fails is a sample with `status: "error"`.
 *
 * @example
 * ```ts ignore
 * import { rejudge } from "./rejudge.ts";
 * const { repeat } = await rejudge({ rows, sets, repeat: 5, env: Deno.env.toObject(), cwd: Deno.cwd() });
 * ```
 */
export async function rejudge(options: RejudgeOptions): Promise<RejudgeResult> {
  const repeat = Math.max(0, Math.floor(options.repeat ?? 0));
  const orders = Math.max(0, Math.floor(options.orders ?? 0));
  const signal = options.signal ?? new AbortController().signal;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const { jobs, skipped } = planJobs(options);
  // The cache's mode and folder by the one precedence rule of run options (`settle_spec.ts`).
  const settled = await settleRunSpec(
    { cache: options.cache, replay: options.replay, cacheDir: options.cacheDir },
    {
      cwd: options.cwd,
      datasets: options.sets.flatMap((s) => s.config ? [s.config] : []),
      user: () => loadUserConfig(options.env),
    },
  );
  const cache = await createCallCache({
    mode: settled.cache,
    replay: settled.replay,
    dir: settled.cacheDir,
    userDir: options.cacheDir !== undefined,
    env: options.env,
    version: AGENTV_VERSION,
  }, options.sets);
  const consent = ConsentGrant.none();
  const resolver = createTargetResolver({
    consent,
    ...(options.targetsFile !== undefined ? { targetsFile: options.targetsFile } : {}),
    dryRun: false,
    env: options.env,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeoutMs,
    signal,
    ...(cache ? { cache } : {}),
  });
  const judges = new Map<Job, JudgeClient>();
  for (const job of jobs) judges.set(job, await resolver.judge(job.set, job.judgeName));
  const collector = new NeedCollector();
  for (const t of resolver.targetNeeds()) collector.addTarget(t);
  consent.allow(await checkRunPermission(await collector.collect(), options.allowRun ?? false));
  const runtime: Runtime = { timeoutMs, signal, consent };
  return await runJobs(jobs, { repeat, orders, judges, runtime, options, skipped, cache });
}

/** Runs every variant of every job through one pool of `workers` judge calls. */
async function runJobs(
  jobs: readonly Job[],
  run: {
    repeat: number;
    orders: number;
    judges: Map<Job, JudgeClient>;
    runtime: Runtime;
    options: RejudgeOptions;
    skipped: RejudgeSkip[];
    cache: { stats: CacheSummary } | undefined;
  },
): Promise<RejudgeResult> {
  const { options, runtime } = run;
  const tasks: (() => Promise<void>)[] = [];
  const repeated: RejudgedItem[] = [];
  const ordered: RejudgedItem[] = [];
  const add = (
    item: RejudgedItem,
    index: number,
    job: Job,
    config: EvaluatorConfig,
    variant: string,
  ) =>
    tasks.push(async () => {
      item.samples[index] = await judgeOnce(job, run.judges.get(job)!, config, variant, runtime);
    });
  for (const job of jobs) {
    if (run.repeat > 0) {
      const item = itemOf(job);
      repeated.push(item);
      for (let i = 0; i < run.repeat; i++) add(item, i, job, job.config, `repeat ${i + 1}`);
    }
    const rubrics = rubricsOf(job.config);
    if (run.orders === 0) continue;
    if (rubrics === undefined || rubrics.length < 2) {
      noteSkip(
        run.skipped,
        job.config.name,
        "a free-form judge, or one rubric item: no order to change",
      );
      continue;
    }
    const item = itemOf(job);
    ordered.push(item);
    rubricOrders(rubrics, run.orders, options.seed ?? DEFAULT_ORDER_SEED).forEach((order, i) =>
      add(item, i, job, { ...job.config, rubrics: order } as EvaluatorConfig, `order ${i + 1}`)
    );
  }
  const pool = new Semaphore(options.workers ?? 4);
  let done = 0;
  await Promise.all(tasks.map(async (task) => {
    const release = await pool.acquire(runtime.signal);
    if (!release) return;
    try {
      await task();
    } finally {
      release();
      options.onJudged?.(++done, tasks.length);
    }
  }));
  // An interrupted run leaves holes: keep what was judged.
  const complete = (items: RejudgedItem[]) =>
    items.map((i) => ({ ...i, samples: i.samples.filter(Boolean) }))
      .filter((i) => i.samples.length > 0);
  return {
    repeat: complete(repeated),
    orders: complete(ordered),
    skipped: run.skipped,
    ...(run.cache ? { cache: { ...run.cache.stats } } : {}),
  };
}

function noteSkip(skipped: RejudgeSkip[], evaluator: string, reason: string): void {
  const found = skipped.find((s) => s.evaluator === evaluator && s.reason === reason);
  if (found) found.rows++;
  else skipped.push({ evaluator, reason, rows: 1 });
}
