/**
 * The order the scheduler starts a run's jobs in: plan order (the targets of a case interleaved,
 * so an interrupted run is balanced), except that a job whose target's own cap (`workers:` in the
 * targets file) is full waits while the jobs of other targets go on. Jobs are kept in lanes, one
 * per capped target and one for the rest; the next job is the earliest head of a lane that may
 * start, so picking one costs a look at each lane, never a scan of the plan.
 *
 * @module
 */

/** A lane's jobs in plan order, with their plan positions, and how far it has been taken. */
interface Lane<J> {
  jobs: J[];
  order: number[];
  head: number;
}

/** What {@link JobLanes.next} answers when jobs remain but none may start yet. */
export const WAIT = "wait";

/**
 * A run's jobs in lanes (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { JobLanes } from "./lanes.ts";
 * // "a" is capped and full: the jobs of "b" go first, in plan order.
 * const lanes = new JobLanes(["a1", "b1", "a2", "b2"], (job) => job[0]);
 * const ready = (lane: string) => lane !== "a";
 * assert.deepEqual([lanes.next(ready), lanes.next(ready), lanes.next(ready)], ["b1", "b2", "wait"]);
 * assert.equal(lanes.next(() => true), "a1");
 * ```
 */
export class JobLanes<J> {
  readonly #lanes: Lane<J>[] = [];
  readonly #keys: string[] = [];
  #remaining: number;

  /** Puts `jobs` (in plan order) in lanes by `laneOf` (the cap's key). */
  constructor(jobs: readonly J[], laneOf: (job: J) => string) {
    const byKey = new Map<string, Lane<J>>();
    jobs.forEach((job, i) => {
      const key = laneOf(job);
      let lane = byKey.get(key);
      if (!lane) {
        byKey.set(key, lane = { jobs: [], order: [], head: 0 });
        this.#lanes.push(lane);
        this.#keys.push(key);
      }
      lane.jobs.push(job);
      lane.order.push(i);
    });
    this.#remaining = jobs.length;
  }

  /** Jobs not taken yet. */
  get remaining(): number {
    return this.#remaining;
  }

  /**
   * Takes the earliest job (plan order) whose lane `ready` says may start; {@link WAIT} when jobs
   * remain but no lane may start; `undefined` when every job was taken.
   */
  next(ready: (lane: string) => boolean): J | typeof WAIT | undefined {
    if (this.#remaining === 0) return undefined;
    let best: Lane<J> | undefined;
    for (let i = 0; i < this.#lanes.length; i++) {
      const lane = this.#lanes[i];
      if (lane.head === lane.jobs.length || !ready(this.#keys[i])) continue;
      if (best === undefined || lane.order[lane.head] < best.order[best.head]) best = lane;
    }
    if (best === undefined) return WAIT;
    this.#remaining--;
    const job = best.jobs[best.head];
    // Taken jobs are let go, so a long run holds only what is still to start.
    best.jobs[best.head++] = undefined as J;
    return job;
  }
}
