/**
 * The run: load eval files, select cases, resolve targets, run every case through one bounded
 * worker pool (plus per-target caps) and emit events as it goes. The recorder
 * (`lib/results/recorder.ts`), attached to those events, redacts each row, appends it to the
 * results file as it finishes, keeps `<results>.run.json` and the summary. Interruption (the `signal`) stops scheduling, aborts calls in flight, records them
 * as `interrupted` errors and still returns the partial summary.
 *
 * @module
 */
import { resolve } from "node:path";
import { createRunRecorder } from "../results/recorder.ts";
import { newRunId } from "../results/run_record.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import { createRedactor, type Redactor } from "../text/redact.ts";
import { blockedReason, noCaseCouldRun } from "./blocked_cases.ts";
import { RunConfigError, TargetUnavailableError } from "./errors.ts";
import type { RunStartedEvent } from "../results/events.ts";
import { loadGlobs } from "../text/glob.ts";
import { loadSets } from "./load_sets.ts";
import { casesInTwoFiles, planCases, type PlannedCase } from "./plan.ts";
import { recordedOptions, resultsFileError } from "./run_record_options.ts";
import { checkPriorRun, priorDone, priorRecorderOptions } from "./resume.ts";
import { Semaphore } from "./pool.ts";
import { type CaseBinding, createTargetResolver } from "./resolve_targets.ts";
import { blockedCaseRow, caseEvaluators, runCase } from "./run_case.ts";
import { runBudget, skippedRow } from "./budget.ts";
import { callCacheOptions, createCallCache } from "./run_cache.ts";
import { createWorkspaceManager } from "./workspace.ts";
import { JudgeHostPool } from "../scoring/judge_host_pool.ts";
import { checkRunPermission, NeedCollector } from "./run_permission.ts";
import { ConsentGrant } from "../targets/consent.ts";

import type {
  EvalFileLoader,
  LoadedEvalSet,
  RunEvalOptions,
  RunEvalResult,
} from "./run_options.ts";

/** The options of {@link runEval} and its result (defined in `run_options.ts`). */
export type { EvalFileLoader, LoadedEvalSet, RunEvalOptions, RunEvalResult };

type Job =
  & PlannedCase
  & ({ binding: CaseBinding } | { blocked: TargetUnavailableError; targetName: string });

/**
 * Whether a loader diagnostic means a case was skipped: every error, and the warnings that say
 * so (e.g. a JSONL line without `expected_outcome`).
 */
export function isSkippedCaseDiagnostic(d: Diagnostic): boolean {
  return d.severity === "error" || /\bskipp(ed|ing)\b/i.test(d.message);
}

/**
 * Runs eval cases against their targets and scores them.
 *
 * Throws {@link RunConfigError} (nothing ran) for file-level load errors or no case to run. A
 * target that cannot be used (no targets file, unknown name, missing `${{ VAR }}`, invalid
 * settings) blocks only the cases that use it: their rows are errors naming it; it throws only
 * when every case is blocked. Per-case failures never throw: they are rows with
 * `status: "error"`. A row that cannot be written to `out` stops the scheduling of new cases and,
 * once the cases in flight are done, throws `ResultsWriteError` (with the partial `summary`; the
 * rows already written stay in the file). With `out`, `<out>.run.json` records the run: written
 * with `status: "running"` before the first case, rewritten when the run ends (`finished`,
 * `interrupted` or `failed`); every row carries its `run_id`.
 *
 * @example
 * ```ts ignore
 * import { runEval } from "@agentv/agentv";
 * const { rows, summary } = await runEval({
 *   files: ["evals/dataset.yaml"],
 *   env: Deno.env.toObject(),
 *   cwd: Deno.cwd(),
 *   out: ".agentv/results/run.jsonl",
 *   onEvent: (e) => e.type === "case_finished" && console.log(e.row.eval_id, e.row.score),
 * });
 * console.log(summary.scores.mean);
 * ```
 */
export async function runEval(options: RunEvalOptions): Promise<RunEvalResult> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const signal = options.signal ?? new AbortController().signal;
  // The recorder sees every event first (it redacts rows, writes them and keeps the summary),
  // then passes it on to `onEvent`. The redactor is made once every target is resolved.
  const redaction: { redactor?: Redactor } = {};
  const recorder = createRunRecorder({
    redactor: {
      row: (row) => redaction.redactor?.row(row) ?? row,
      text: (text) => redaction.redactor?.text(text) ?? text,
    },
    keepRows: options.keepRows ?? true,
    now,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.out !== undefined ? { resultsPath: resolve(options.cwd, options.out) } : {}),
    ...priorRecorderOptions(options.prior),
  });
  const emit = recorder.onEvent;
  const workers = Math.max(1, Math.floor(options.workers ?? 4));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const dryRun = options.dryRun ?? false;

  const sets = await loadSets(options);
  const budget = runBudget(options.budgetUsd, sets);
  const cache = await createCallCache(
    callCacheOptions(options, {
      dryRun,
      now,
      onRejected: ({ origin, path, reason }) =>
        emit({ type: "cache_rejected", ...origin, path, reason }),
    }),
    sets,
  );
  if (options.prior) {
    await checkPriorRun(options.prior, {
      sets,
      options: recordedOptions(options, { workers, timeoutMs, dryRun }),
      out: options.out === undefined ? undefined : resolve(options.cwd, options.out),
    });
  }
  const done = options.prior ? priorDone(options.prior) : options.done;
  const invalid = sets.flatMap((s) => (s.diagnostics ?? []).filter(isSkippedCaseDiagnostic));
  if (options.filter !== undefined) await loadGlobs([options.filter]);
  const plan = planCases(sets, {
    ...(options.filter !== undefined ? { filter: options.filter } : {}),
    ...(options.shard !== undefined ? { shard: options.shard } : {}),
    ...(options.trials !== undefined ? { trials: options.trials } : {}),
    ...(done !== undefined ? { done } : {}),
  });
  const selected = plan.cases;
  const twice = casesInTwoFiles(selected, { cwd: options.cwd });
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
  const rejected = invalid.some((d) => d.severity === "error");
  if (plan.matched === 0 && (options.filter !== undefined || rejected)) {
    const what = options.filter !== undefined
      ? `No eval case id matches --filter '${options.filter}'`
      : "No valid eval case to run: every case was rejected by the loader";
    throw new RunConfigError(what, {
      diagnostics: invalid,
      hint: options.filter !== undefined
        ? "--filter is a glob on case ids, e.g. 'refund-*' or '{a,b}'"
        : "check the files with agentv validate",
    });
  }

  // What the run may start or send: empty until the trust gate below fills it.
  const consent = ConsentGrant.none();
  const resolver = createTargetResolver({
    consent,
    ...(options.targetsFile !== undefined
      ? { targetsFile: resolve(options.cwd, options.targetsFile) }
      : {}),
    ...(options.targetOverride !== undefined ? { targetOverride: options.targetOverride } : {}),
    ...(options.judgeTarget !== undefined ? { judgeTarget: options.judgeTarget } : {}),
    dryRun,
    env: options.env,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeoutMs,
    signal,
    onResolved: (info) => emit({ type: "target_resolved", ...info }),
    ...(budget ? { budget } : {}),
    ...(cache ? { cache } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
  });
  const jobs: Job[] = [];
  for (const { set, evalCase, trial } of selected) {
    try {
      jobs.push({ set, evalCase, trial, binding: await resolver.bind(set, evalCase) });
    } catch (e) {
      // A target that cannot be used blocks only the cases that use it.
      if (!(e instanceof TargetUnavailableError)) throw e;
      const targetName = options.targetOverride ?? evalCase.execution.target;
      jobs.push({ set, evalCase, trial, blocked: e, targetName });
    }
  }
  if (jobs.length > 0 && jobs.every((job) => "blocked" in job)) {
    throw noCaseCouldRun(jobs.flatMap((job) => ("blocked" in job ? [job.blocked] : [])));
  }
  if (!dryRun) {
    // The trust gate: before anything runs (no row, no results file), every command the run
    // would start and every environment value it would send to a host other than a provider's
    // default must be allowed; the grant then holds exactly those.
    const collector = new NeedCollector();
    const bySet = new Map<LoadedEvalSet, EvalCase[]>();
    for (const job of jobs) {
      if ("blocked" in job) continue;
      let cases = bySet.get(job.set);
      if (!cases) bySet.set(job.set, cases = []);
      cases.push(job.evalCase);
    }
    for (const [set, cases] of bySet) collector.addCases(set, cases.map(caseEvaluators));
    for (const t of resolver.targetNeeds()) collector.addTarget(t);
    consent.allow(await checkRunPermission(await collector.collect(), options.allowRun ?? false));
  }

  const outPath = options.out === undefined ? undefined : resolve(options.cwd, options.out);
  const total = jobs.length;
  let finished = 0;
  // Every target and judge is resolved by now: one redactor for rows, events and errors.
  const redactor = createRedactor(resolver.secrets());
  redaction.redactor = redactor;
  // A resumed run goes on under its own id, so the file stays one run.
  const runId = options.prior?.mode === "resume"
    ? options.prior.record.run_id
    : newRunId(startedAt);
  let start: RunStartedEvent;
  try {
    start = await recorder.open({
      type: "run_started",
      total,
      files: sets.map((s) => s.file),
      workers,
      ...(outPath !== undefined ? { results_path: outPath } : {}),
      dry_run: dryRun,
      run_id: runId,
      started_at: new Date(startedAt).toISOString(),
      options: recordedOptions(options, {
        workers,
        timeoutMs,
        dryRun,
        ...(budget ? { budgetUsd: budget.capUsd } : {}),
        ...(cache ? { cache: cache.mode, replay: cache.replay } : {}),
      }),
    });
  } catch (e) {
    throw resultsFileError(outPath ?? "", e);
  }
  emit(start);

  // Cases that need a workspace get a fresh one each; the run's temp folder goes at the end.
  const workspaces = createWorkspaceManager({
    runId,
    keep: options.keepWorkspaces ?? false,
    ...(options.workspaceTempDir !== undefined ? { tempDir: options.workspaceTempDir } : {}),
  });
  // Module code judges run in judge host processes, reused across cases; stopped at the end.
  const judgeHosts = new JudgeHostPool();
  const pool = new Semaphore(workers);
  const caps = new Map<string, Semaphore>();
  const running = new Set<Promise<void>>();
  let started = 0;
  let interruptedEmitted = false;
  const onAbort = () => {
    interruptedEmitted = true;
    emit({ type: "interrupted", in_flight: running.size, not_started: total - started });
  };
  signal.addEventListener("abort", onAbort, { once: true });

  // The recorder redacts and writes the row. A row that cannot be written (disk full, I/O error)
  // stops the scheduling of new cases; the rows already written stay, cases in flight finish,
  // and the run ends in a ResultsWriteError.
  const finish = (row: ResultRow) => {
    emit({ type: "case_finished", row, done: ++finished, total });
  };
  // Every case starts with the same event. A case that does not run (its target cannot be used,
  // or the budget is spent) ends at once with a row that says why.
  const startCase = (evalCase: EvalCase, target: string) => {
    const index = started++;
    emit({
      type: "case_started",
      eval_id: evalCase.id,
      dataset: evalCase.dataset,
      target,
      index,
      total,
    });
  };
  const notRun = ({ evalCase, trial }: PlannedCase, targetName: string, reason: string) => {
    startCase(evalCase, targetName);
    return blockedCaseRow(evalCase, { targetName, now, dryRun, runId, trial, reason });
  };
  // A case whose row could not be handled (a listener threw) stops the run with that error.
  let crashed: { error: unknown } | undefined;
  const cannotWrite = () => recorder.writeFailure !== undefined || crashed !== undefined;

  try {
    for (const job of jobs) {
      if (signal.aborted || cannotWrite()) break;
      if ("blocked" in job) {
        finish(notRun(job, job.targetName, blockedReason(job.blocked)));
        continue;
      }
      const { binding } = job;
      let cap: Semaphore | undefined;
      if (binding.workers !== undefined) {
        cap = caps.get(binding.capKey);
        if (!cap) caps.set(binding.capKey, cap = new Semaphore(binding.workers));
      }
      const releaseCap = cap ? await cap.acquire(signal) : () => {};
      if (!releaseCap) break;
      const releaseSlot = await pool.acquire(signal);
      if (!releaseSlot || cannotWrite()) {
        releaseSlot?.();
        releaseCap();
        break;
      }
      if (budget?.exhausted) {
        // The spend cap is reached (`--budget-usd`): the case is not started, its row says why.
        releaseSlot();
        releaseCap();
        budget.skipCase();
        finish(skippedRow(notRun(job, binding.targetName, budget.reason!)));
        continue;
      }
      // Zero-latency targets can keep the whole run inside one microtask job; yield to the
      // event loop now and then so timers (progress, sampling) run and WeakRefs are released.
      if (started > 0 && started % 256 === 0) await new Promise((r) => setTimeout(r, 0));
      startCase(job.evalCase, binding.targetName);
      const task = runCase(job.evalCase, {
        target: binding.target,
        targetName: binding.targetName,
        ...(binding.judge ? { judge: binding.judge } : {}),
        noJudgeReason: binding.noJudgeReason,
        evalDir: job.set.evalDir,
        root: job.set.root,
        timeoutMs,
        signal,
        now,
        runId,
        trial: job.trial,
        dryRun,
        ...(binding.env !== undefined ? { env: binding.env } : {}),
        ...(binding.healthcheck ? { healthcheck: binding.healthcheck } : {}),
        onRetry: (r) =>
          emit({
            type: "retry",
            eval_id: job.evalCase.id,
            target: binding.targetName,
            attempt: r.attempt,
            delay_ms: r.delayMs,
            reason: r.reason,
          }),
        redact: redactor.text,
        workspaces,
        judgeHosts,
        consent,
        ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
      }).then(finish).catch((error) => {
        crashed ??= { error };
      }).finally(() => {
        releaseSlot();
        releaseCap();
        running.delete(task);
      });
      running.add(task);
    }
    await Promise.all(running);
    if (crashed) throw crashed.error;
  } catch (e) {
    // A bug, or a listener that threw: the run record says the run failed.
    recorder.fail(e);
    throw e;
  } finally {
    signal.removeEventListener("abort", onAbort);
    await judgeHosts.close();
    await workspaces.close();
  }
  if (signal.aborted && !interruptedEmitted) onAbort();

  const summary = recorder.summarize({
    invalid,
    notStarted: total - started,
    interrupted: signal.aborted,
    dryRun,
    durationMs: now() - startedAt,
    ...(options.trialsGate !== undefined ? { trialsGate: options.trialsGate } : {}),
    ...(cache ? { cache: cache.stats } : {}),
  });
  if (budget) summary.budget = budget.summary();
  const writeFailure = recorder.writeFailure;
  if (writeFailure) {
    writeFailure.summary = summary;
    recorder.fail(writeFailure, summary);
    throw writeFailure;
  }
  emit({ type: "run_finished", summary });
  return { rows: recorder.rows, summary };
}

/**
 * The default results path: `<root>/.agentv/results/<dataset>-<UTC timestamp>.jsonl`, the
 * timestamp being ISO-8601 with `:` and `.` replaced by `-` (e.g. `2026-01-21T10-22-57-123Z`).
 *
 * @example
 * ```ts
 * import { defaultResultsPath } from "./run_eval.ts";
 * defaultResultsPath("/repo", "support", Date.UTC(2026, 0, 21, 10, 22, 57, 123));
 * // "/repo/.agentv/results/support-2026-01-21T10-22-57-123Z.jsonl"
 * ```
 */
export function defaultResultsPath(root: string, dataset: string, time: number): string {
  const stamp = new Date(time).toISOString().replace(/[:.]/g, "-");
  const safe = dataset.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "results";
  return resolve(root, ".agentv", "results", `${safe}-${stamp}.jsonl`);
}
