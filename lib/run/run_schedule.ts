/**
 * Step 6 of `runEval`: the cases run through one bounded worker pool (`--workers`) plus each
 * target's own cap (its `workers`), in plan order (the targets of a case interleaved), except that
 * a target whose cap is full lets the others go on (`lanes.ts`). Every case starts with a
 * `case_started` event and ends with a
 * row (`case_finished`); a case that does not run (its target cannot be used, or the budget is
 * spent) ends at once with a row that says why. Interruption (the signal) stops the scheduling,
 * aborts calls in flight (they are recorded as `interrupted` errors). A row that cannot be written
 * (disk full, I/O error) stops the scheduling of new cases; the rows already written stay, cases
 * in flight finish.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import { JudgeHostPool } from "../scoring/judge_host_pool.ts";
import { blockedReason } from "./blocked_cases.ts";
import { skippedRow } from "./budget.ts";
import type { PlannedCase } from "./plan.ts";
import { JobLanes, WAIT } from "./lanes.ts";
import { Semaphore } from "./pool.ts";
import { blockedCaseRow, runCase } from "./run_case.ts";
import type { BoundRun, Job, RunContext } from "./run_steps.ts";
import { createWorkspaceManager, type WorkspaceManager } from "./workspace.ts";

/** How the scheduling ended. */
export interface Scheduled {
  /** Cases started (every job up to the stop). */
  started: number;
}

/**
 * Runs the jobs of a bound run under the run id `runId`; see the module doc. Throws what a case
 * could not handle (a listener that threw, a bug): the run record then says `failed`.
 */
export async function scheduleRun(
  run: RunContext,
  bound: BoundRun,
  runId: string,
): Promise<Scheduled> {
  const scheduler = new Scheduler(run, bound, runId);
  run.signal.addEventListener("abort", scheduler.onAbort, { once: true });
  try {
    await scheduler.runAll();
  } catch (e) {
    run.recorder.fail(e);
    throw e;
  } finally {
    run.signal.removeEventListener("abort", scheduler.onAbort);
    await scheduler.close();
  }
  if (run.signal.aborted && !scheduler.interruptedEmitted) scheduler.onAbort();
  return { started: scheduler.started };
}

/** The state of one run's scheduling. */
class Scheduler {
  readonly #run: RunContext;
  readonly #bound: BoundRun;
  readonly #runId: string;
  readonly #total: number;
  /** Whether the run has more than one target (agent logs are then named after theirs). */
  readonly #severalTargets: boolean;
  readonly #pool: Semaphore;
  readonly #caps = new Map<string, Semaphore>();
  /** Wakes the scheduling when it waits for a full target cap. */
  #onCapRelease: (() => void) | undefined;
  readonly #running = new Set<Promise<void>>();
  /** Cases that need a workspace get a fresh one each; the run's temp folder goes at the end. */
  readonly #workspaces: WorkspaceManager;
  /** Module code judges run in judge host processes, reused across cases. */
  readonly #judgeHosts = new JudgeHostPool();
  #finished = 0;
  /** A case whose row could not be handled (a listener threw) stops the run with that error. */
  #crashed: { error: unknown } | undefined;
  started = 0;
  interruptedEmitted = false;

  constructor(run: RunContext, bound: BoundRun, runId: string) {
    this.#run = run;
    this.#bound = bound;
    this.#runId = runId;
    this.#total = bound.jobs.length;
    this.#severalTargets = new Set(bound.jobs.map((j) => j.target)).size > 1;
    this.#pool = new Semaphore(run.spec.workers);
    this.#workspaces = createWorkspaceManager({
      runId,
      keep: run.spec.keepWorkspaces,
      tempDir: run.options.workspaceTempDir,
    });
  }

  readonly onAbort = () => {
    this.interruptedEmitted = true;
    this.#run.emit({
      type: "interrupted",
      in_flight: this.#running.size,
      not_started: this.#total - this.started,
    });
  };

  /** Whether no new case may start: a row could not be written, or a case crashed. */
  #cannotWrite(): boolean {
    return this.#run.recorder.writeFailure !== undefined || this.#crashed !== undefined;
  }

  /** Starts every job in turn, as slots free up; resolves when the last one is done. */
  async runAll(): Promise<void> {
    const { signal } = this.#run;
    const lanes = new JobLanes(this.#bound.jobs, (job) => this.#laneOf(job));
    for (;;) {
      if (signal.aborted || this.#cannotWrite()) break;
      const job = lanes.next((lane) => lane === "" || this.#caps.get(lane)!.free > 0);
      if (job === undefined) break;
      if (job === WAIT) {
        await this.#capReleased();
        continue;
      }
      if ("blocked" in job) {
        this.#finish(this.#notRun(job, job.targetName, blockedReason(job.blocked)));
        continue;
      }
      const releaseCap = this.#takeCap(job.binding);
      const releaseSlot = await this.#pool.acquire(signal);
      if (!releaseSlot || this.#cannotWrite()) {
        releaseSlot?.();
        releaseCap();
        break;
      }
      const release = () => {
        releaseSlot();
        releaseCap();
      };
      const budget = this.#run.budget;
      if (budget?.exhausted) {
        // The spend cap is reached (`--budget-usd`): the case is not started, its row says why.
        release();
        budget.skipCase();
        this.#finish(skippedRow(this.#notRun(job, job.binding.targetName, budget.reason!)));
        continue;
      }
      // Zero-latency targets can keep the whole run inside one microtask job; yield to the
      // event loop now and then so timers (progress, sampling) run and WeakRefs are released.
      if (this.started > 0 && this.started % 256 === 0) await new Promise((r) => setTimeout(r, 0));
      this.#start(job, release);
    }
    await Promise.all(this.#running);
    if (this.#crashed) throw this.#crashed.error;
  }

  /** The lane of a job: its target's cap key, or `""` (no cap: a blocked job, no `workers`). */
  #laneOf(job: Job): string {
    if ("blocked" in job || job.binding.workers === undefined) return "";
    const { capKey, workers } = job.binding;
    if (!this.#caps.has(capKey)) this.#caps.set(capKey, new Semaphore(workers));
    return capKey;
  }

  /** Takes a slot of the job's target cap, which {@link JobLanes.next} saw free. */
  #takeCap(binding: Extract<Job, { binding: unknown }>["binding"]): () => void {
    if (binding.workers === undefined) return () => {};
    const release = this.#caps.get(binding.capKey)!.tryAcquire()!;
    return () => {
      release();
      this.#onCapRelease?.();
    };
  }

  /** Resolves once a target cap frees a slot, or the run is interrupted. */
  async #capReleased(): Promise<void> {
    const { signal } = this.#run;
    let wake = () => {};
    await new Promise<void>((resolve) => {
      wake = () => resolve();
      this.#onCapRelease = wake;
      signal.addEventListener("abort", wake, { once: true });
    });
    signal.removeEventListener("abort", wake);
    this.#onCapRelease = undefined;
  }

  /** Runs one case; its row is recorded when it ends, and its slots are released. */
  #start(job: Extract<Job, { binding: unknown }>, release: () => void): void {
    const { binding, evalCase } = job;
    const { spec, signal, now, emit } = this.#run;
    this.#caseStarted(evalCase, binding.targetName);
    const task = runCase(evalCase, {
      target: binding.target,
      targetName: binding.targetName,
      judge: binding.judge,
      noJudgeReason: binding.noJudgeReason,
      evalDir: job.set.evalDir,
      root: job.set.root,
      timeoutMs: spec.timeoutMs,
      signal,
      now,
      runId: this.#runId,
      trial: job.trial,
      sharedCase: this.#severalTargets,
      dryRun: spec.dryRun,
      env: binding.env,
      healthcheck: binding.healthcheck,
      onRetry: (r) =>
        emit({
          type: "retry",
          eval_id: evalCase.id,
          target: binding.targetName,
          attempt: r.attempt,
          delay_ms: r.delayMs,
          reason: r.reason,
        }),
      redact: this.#run.redaction.redactor!.text,
      workspaces: this.#workspaces,
      judgeHosts: this.#judgeHosts,
      consent: this.#bound.consent,
      sandbox: spec.sandboxMode,
    }).then((row) => this.#finish(row)).catch((error) => {
      this.#crashed ??= { error };
    }).finally(() => {
      release();
      this.#running.delete(task);
    });
    this.#running.add(task);
  }

  /** Every case starts with the same event. */
  #caseStarted(evalCase: EvalCase, target: string): void {
    const index = this.started++;
    this.#run.emit({
      type: "case_started",
      eval_id: evalCase.id,
      dataset: evalCase.dataset,
      target,
      index,
      total: this.#total,
    });
  }

  /** The row of a case that does not run (started, then ended at once with the reason). */
  #notRun({ evalCase, trial }: PlannedCase, targetName: string, reason: string): ResultRow {
    this.#caseStarted(evalCase, targetName);
    const { now, spec } = this.#run;
    return blockedCaseRow(evalCase, {
      targetName,
      now,
      dryRun: spec.dryRun,
      runId: this.#runId,
      trial,
      reason,
    });
  }

  /** The recorder redacts and writes the row; the judge tally counts its judges. */
  #finish(row: ResultRow): void {
    this.#run.judgeTally.add(row);
    this.#run.emit({ type: "case_finished", row, done: ++this.#finished, total: this.#total });
  }

  /** Stops the judge hosts and removes the run's temporary workspaces. */
  async close(): Promise<void> {
    await this.#judgeHosts.close();
    await this.#workspaces.close();
  }
}
