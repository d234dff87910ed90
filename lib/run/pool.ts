/**
 * A counting semaphore with FIFO waiters and abortable acquisition: the building block of the
 * run's worker pool and of per-target concurrency caps.
 *
 * @module
 */

/** A slot holder's release function (idempotent). */
export type Release = () => void;

/** A FIFO counting semaphore. */
export class Semaphore {
  #free: number;
  #waiters: { resolve: (release: Release | undefined) => void }[] = [];

  /** Creates a semaphore with `size` slots (at least 1). */
  constructor(size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  /** Slots currently free. */
  get free(): number {
    return this.#free;
  }

  /**
   * Waits for a slot. Resolves to a release function, or to `undefined` when `signal` aborts
   * first (no slot is held then).
   *
   * @example
   * ```ts
   * import { Semaphore } from "./pool.ts";
   * const slots = new Semaphore(2);
   * const release = await slots.acquire();
   * release?.();
   * ```
   */
  acquire(signal?: AbortSignal): Promise<Release | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if (this.#free > 0 && this.#waiters.length === 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i !== -1) {
          this.#waiters.splice(i, 1);
          resolve(undefined);
        }
      };
      const waiter = {
        resolve: (release: Release | undefined) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      this.#waiters.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Takes a slot when one is free and nobody waits for one, without waiting: its release
   * function, else `undefined`.
   *
   * @example
   * ```ts
   * import { Semaphore } from "./pool.ts";
   * const slots = new Semaphore(1);
   * const release = slots.tryAcquire();
   * slots.tryAcquire(); // undefined
   * release?.();
   * ```
   */
  tryAcquire(): Release | undefined {
    if (this.#free === 0 || this.#waiters.length > 0) return undefined;
    this.#free--;
    return this.#releaser();
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) next.resolve(this.#releaser());
      else this.#free++;
    };
  }
}
