/**
 * The steps of `runEval` before the cases run, each one named: prepare (the options, the
 * recorder, the files, the settled options, budget and cache), plan (which case and trial runs),
 * bind (each case's target and judge), gate (what the dataset asks consent for) and open (the
 * results file and run record). `run_schedule.ts` runs the cases; `run_eval.ts` composes them.
 *
 * @module
 */
import { resolve } from "node:path";
import { loadUserConfig } from "../dataset/user_config.ts";
import { createRunRecorder, type RunRecorder } from "../results/recorder.ts";
import type { RunEvent, RunStartedEvent } from "../results/events.ts";
import { AGENTV_VERSION, newRunId } from "../results/run_record.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { RunSpecSchema } from "../schema/run_spec.ts";
import { runOptionsRecord } from "../schema/run_spec_record.ts";
import { ConsentGrant } from "../targets/consent.ts";
import { loadGlobs } from "../text/glob.ts";
import { createRedactor, type Redactor } from "../text/redact.ts";
import { noCaseCouldRun } from "./blocked_cases.ts";
import { uniqueDatasetNames } from "./dataset_names.ts";
import { type Budget, runBudget } from "./budget.ts";
import type { CallCache } from "./call_cache.ts";
import { RunConfigError, TargetUnavailableError } from "./errors.ts";
import { loadSets } from "./load_sets.ts";
import { casesInTwoFiles, planCases, type PlannedCase } from "./plan.ts";
import { specOfPriorRun } from "./prior_spec.ts";
import { checkPriorRun, priorDone, priorRecorderOptions } from "./resume.ts";
import { type CaseBinding, createTargetResolver, type TargetResolver } from "./resolve_targets.ts";
import { createCallCache } from "./run_cache.ts";
import { createJudgeTally, type JudgeTally } from "./run_calibration.ts";
import { caseEvaluators } from "./run_case.ts";
import type { LoadedEvalSet, RunEvalOptions, RunSpec } from "./run_options.ts";
import { checkRunPermission, NeedCollector } from "./run_permission.ts";
import { runSpecOf, type SettledRunSpec, settleRunSpec } from "./settle_spec.ts";

/** What the steps of one run share. */
export interface RunContext {
  /** The caller's argument. */
  options: RunEvalOptions;
  /** The run's options, settled. */
  spec: SettledRunSpec;
  now: () => number;
  startedAt: number;
  signal: AbortSignal;
  recorder: RunRecorder;
  /** Sends an event through the recorder, then to `onEvent`. */
  emit: (event: RunEvent) => void;
  /** The redactor, set once every target is resolved (`openRun`). */
  redaction: { redactor?: Redactor };
  sets: LoadedEvalSet[];
  /** Loader diagnostics that skipped a case. */
  invalid: Diagnostic[];
  budget: Budget | undefined;
  cache: CallCache | undefined;
  /** The judges the rows recorded (a saved calibration of the run's judge corrects its pass rate). */
  judgeTally: JudgeTally;
}

/** A planned case with its target bound, or the reason its target cannot be used. */
export type Job =
  & PlannedCase
  & ({ binding: CaseBinding } | { blocked: TargetUnavailableError; targetName: string });

/** The cases of a run, bound to their targets. */
export interface BoundRun {
  jobs: Job[];
  resolver: TargetResolver;
  /** What the run may start or send: empty until the trust gate fills it. */
  consent: ConsentGrant;
}

/**
 * Whether a loader diagnostic means a case was skipped: every error, and the warnings that say
 * so (e.g. a JSONL line without `expected_outcome`).
 */
export function isSkippedCaseDiagnostic(d: Diagnostic): boolean {
  return d.severity === "error" || /\bskipp(ed|ing)\b/i.test(d.message);
}

/**
 * The run options given to `runEval`, checked against their schemas, with those of the run it
 * continues (`prior`) for the options not given.
 */
export function givenSpec(options: RunEvalOptions): RunSpec {
  const given = runSpecOf(options as unknown as Record<string, unknown>);
  const { allowRun: _, ...checked } = given;
  const result = RunSpecSchema.safeParse(checked);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RunConfigError(`runEval: ${issue.path.join(".")}: ${issue.message}; nothing ran`, {
      hint: "see RunSpec (lib/schema/run_spec.ts) for each option's values",
    });
  }
  return options.prior ? specOfPriorRun(given, options.prior, { cwd: options.cwd }) : given;
}

/**
 * Step 1: the options, the recorder (it sees every event first: it redacts rows, writes them,
 * keeps the summary, then passes each on to `onEvent`), the eval files, the options settled by
 * the one precedence rule, the budget and the cache; a continued run's files are checked.
 */
export async function prepareRun(options: RunEvalOptions): Promise<RunContext> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const signal = options.signal ?? new AbortController().signal;
  const given = givenSpec(options);
  const redaction: RunContext["redaction"] = {};
  const recorder = createRunRecorder({
    redactor: {
      row: (row) => redaction.redactor?.row(row) ?? row,
      text: (text) => redaction.redactor?.text(text) ?? text,
    },
    keepRows: options.keepRows ?? true,
    now,
    onEvent: options.onEvent,
    resultsPath: given.out === undefined ? undefined : resolve(options.cwd, given.out),
    ...priorRecorderOptions(options.prior),
  });
  const emit = recorder.onEvent;
  // Dataset names are unique within the run (`dataset_names.ts`).
  const sets = uniqueDatasetNames(
    await loadSets({ ...options, root: given.root, verbose: given.verbose }),
  );
  const spec = await settleRunSpec(given, {
    cwd: options.cwd,
    datasets: sets.flatMap((s) => s.config ? [s.config] : []),
    user: () => loadUserConfig(options.env),
  });
  const cache = await createCallCache({
    mode: spec.cache,
    replay: spec.replay,
    dir: spec.cacheDir,
    userDir: given.cacheDir !== undefined,
    env: options.env,
    version: AGENTV_VERSION,
    now,
    onRejected: ({ origin, path, reason }) =>
      emit({ type: "cache_rejected", ...origin, path, reason }),
  }, sets);
  if (options.prior) await checkPriorRun(options.prior, { sets, out: spec.out });
  const invalid = sets.flatMap((s) => (s.diagnostics ?? []).filter(isSkippedCaseDiagnostic));
  const budget = runBudget(spec.budgetUsd);
  return {
    options,
    spec,
    now,
    startedAt,
    signal,
    recorder,
    emit,
    redaction,
    sets,
    invalid,
    budget,
    cache,
    judgeTally: createJudgeTally(),
  };
}

/**
 * Step 2: the (case, trial) pairs to run (`plan.ts`: filter, shard, trials, what a continued run
 * leaves out). Refuses a case in two files of the run, and a run whose filter matched nothing or
 * whose every case the loader rejected.
 */
export async function planRun(run: RunContext): Promise<PlannedCase[]> {
  const { spec, options } = run;
  if (spec.filter !== undefined) await loadGlobs([spec.filter]);
  const done = options.prior ? priorDone(options.prior) : options.done;
  const plan = planCases(run.sets, { ...spec, done });
  const twice = casesInTwoFiles(plan.cases, { cwd: options.cwd });
  if (twice.length > 0) {
    throw new RunConfigError(
      `${twice.length} case(s) are in more than one eval file of the run; nothing ran`,
      {
        diagnostics: twice,
        hint: "give one of the files its own dataset name (`dataset:` in the file, or in the " +
          "sidecar of a JSONL file) or rename one of the cases",
      },
    );
  }
  // Files whose cases were all skipped with warnings (e.g. no `expected_outcome`, the seeds'
  // rule) or that hold none pass `validate`: the run then runs nothing and fails the gate
  // (exit 1, the skipped cases listed), never a configuration error (exit 2).
  const rejected = run.invalid.some((d) => d.severity === "error");
  if (plan.matched === 0 && (spec.filter !== undefined || rejected)) {
    throw new RunConfigError(
      spec.filter !== undefined
        ? `No eval case id matches --filter '${spec.filter}'`
        : "No valid eval case to run: every case was rejected by the loader",
      {
        diagnostics: run.invalid,
        hint: spec.filter !== undefined
          ? "--filter is a glob on case ids, e.g. 'refund-*' or '{a,b}'"
          : "check the files with agentv validate",
      },
    );
  }
  return plan.cases;
}

/**
 * Step 3: each planned case bound to its target and judge. A target that cannot be used blocks
 * only the cases that use it; the run stops only when it blocks them all.
 */
export async function bindTargets(run: RunContext, planned: PlannedCase[]): Promise<BoundRun> {
  const { spec } = run;
  const consent = ConsentGrant.none();
  const resolver = createTargetResolver({
    targetsFile: spec.targetsFile,
    judgeTarget: spec.judgeTarget,
    dryRun: spec.dryRun,
    timeoutMs: spec.timeoutMs,
    env: run.options.env,
    fetch: run.options.fetch,
    signal: run.signal,
    onResolved: (info) => run.emit({ type: "target_resolved", ...info }),
    budget: run.budget,
    cache: run.cache,
    consent,
    sandbox: spec.sandboxMode,
  });
  const jobs: Job[] = [];
  for (const one of planned) {
    const { set, evalCase, target } = one;
    try {
      jobs.push({ ...one, binding: await resolver.bind(set, evalCase, target) });
    } catch (e) {
      if (!(e instanceof TargetUnavailableError)) throw e;
      jobs.push({ ...one, blocked: e, targetName: target });
    }
  }
  if (jobs.length > 0 && jobs.every((job) => "blocked" in job)) {
    throw noCaseCouldRun(jobs.flatMap((job) => ("blocked" in job ? [job.blocked] : [])));
  }
  return { jobs, resolver, consent };
}

/**
 * Step 4, the trust gate: before anything runs (no row, no results file), every command the run
 * would start and every environment value it would send to a host other than a provider's
 * default must be allowed (`allowRun`); the grant then holds exactly those. A dry run starts and
 * sends nothing.
 */
export async function gateRun(run: RunContext, bound: BoundRun): Promise<void> {
  if (run.spec.dryRun) return;
  const collector = new NeedCollector();
  const bySet = new Map<LoadedEvalSet, EvalCase[]>();
  for (const job of bound.jobs) {
    if ("blocked" in job) continue;
    let cases = bySet.get(job.set);
    if (!cases) bySet.set(job.set, cases = []);
    cases.push(job.evalCase);
  }
  for (const [set, cases] of bySet) collector.addCases(set, cases.map(caseEvaluators));
  for (const [set, cases] of bySet) collector.addWorkspaceSetups(set, cases);
  for (const t of bound.resolver.targetNeeds()) collector.addTarget(t);
  const allowed = await checkRunPermission(
    await collector.collect(),
    run.options.allowRun ?? false,
  );
  bound.consent.allow(allowed);
}

/**
 * Step 5: the redactor (every target and judge is resolved by now), the run id (a resumed run
 * goes on under its own, so the file stays one run) and the results file with its run record,
 * whose `options` are the settled ones; the `run_started` event. Resolves to the run id.
 */
export async function openRun(run: RunContext, bound: BoundRun): Promise<string> {
  const { spec, options } = run;
  run.redaction.redactor = createRedactor(bound.resolver.secrets());
  const runId = options.prior?.mode === "resume"
    ? options.prior.record.run_id
    : newRunId(run.startedAt);
  let start: RunStartedEvent;
  try {
    start = await run.recorder.open({
      type: "run_started",
      total: bound.jobs.length,
      files: run.sets.map((s) => s.file),
      workers: spec.workers,
      results_path: spec.out,
      dry_run: spec.dryRun,
      run_id: runId,
      started_at: new Date(run.startedAt).toISOString(),
      options: runOptionsRecord(spec),
    });
  } catch (e) {
    throw resultsFileError(spec.out ?? "", e);
  }
  run.emit(start);
  return runId;
}

/** The {@link RunConfigError} of a results file (or its run record) that cannot be written. */
export function resultsFileError(path: string, error: unknown): RunConfigError {
  const reason =
    error instanceof Deno.errors.AlreadyExists || error instanceof Deno.errors.NotADirectory
      ? "a folder on its path is a file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder"
      : (error as Error).message;
  return new RunConfigError(`Cannot write the results file ${path}: ${reason}`, {
    hint: "pass --out with a writable path",
    cause: error,
  });
}
