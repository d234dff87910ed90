/**
 * The scripted request log a loopback model server keeps: requests in arrival order, a promise
 * for "n have arrived" (`requestCount`), and an optional barrier that holds each request until n
 * have arrived (or the server closes).
 *
 * @module
 */

/** A server's scripted requests and the waits on them. */
export class Arrivals<T> {
  /** The requests, in arrival order. */
  readonly requests: T[] = [];
  readonly #waiters: { n: number; resolve: () => void }[] = [];

  /** Records a request and wakes the waits it completes. */
  push(request: T): void {
    this.requests.push(request);
    for (const w of this.#waiters.filter((w) => this.requests.length >= w.n)) {
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  /** Resolves once `n` requests have arrived. */
  count(n: number): Promise<void> {
    return this.requests.length >= n
      ? Promise.resolve()
      : new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }

  /**
   * Waits until `n` requests have arrived (none when `n` is undefined) or `closing` aborts;
   * returns false when it aborted.
   */
  async barrier(n: number | undefined, closing: AbortSignal): Promise<boolean> {
    if (n === undefined || this.requests.length >= n) return true;
    const closed = new Promise<void>((resolve) =>
      closing.addEventListener("abort", () => resolve(), { once: true })
    );
    await Promise.race([this.count(n), closed]);
    return !closing.aborted;
  }
}
