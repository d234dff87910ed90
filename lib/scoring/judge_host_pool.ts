/**
 * The run's judge hosts (`judge_host.ts`): a host that answered is kept for the next call of the
 * same judge file with the same limits and read scope; the pool is closed when the run ends.
 *
 * @module
 */
import { JudgeHost, type JudgeHostSpec } from "./judge_host.ts";

/** Idle hosts kept at most (the oldest is stopped first). */
const MAX_IDLE = 8;

/** A host lent by {@link JudgeHostPool.acquire}; give it back with `release`. */
export interface LentHost {
  /** The host. */
  host: JudgeHost;
  /** Gives the host back (kept when it can take more calls and `keep`, else stopped). */
  release(keep: boolean): Promise<void>;
}

/**
 * Judge hosts of one run, keyed by judge file and spec.
 *
 * @example
 * ```ts ignore
 * await using pool = new JudgeHostPool();
 * const lent = pool.acquire("/data/judges/len.ts", spec);
 * const run = await lent.host.call(request, { timeoutMs: 5000 });
 * await lent.release(true);
 * ```
 */
export class JudgeHostPool {
  readonly #idle = new Map<string, JudgeHost[]>();
  readonly #busy = new Set<JudgeHost>();
  #order: { key: string; host: JudgeHost }[] = [];
  #closed = false;

  /** An idle host for `judge` with `spec`, or a new one. */
  acquire(judge: string, spec: JudgeHostSpec): LentHost {
    const key = JSON.stringify([judge, spec.maxMemoryMb, spec.read, spec.deny, spec.env ?? {}]);
    const idle = this.#idle.get(key) ?? [];
    let host = idle.pop();
    while (host !== undefined && !host.usable) host = idle.pop();
    if (host !== undefined) this.#order = this.#order.filter((e) => e.host !== host);
    host ??= new JudgeHost(spec);
    this.#busy.add(host);
    return {
      host,
      release: async (keep) => {
        this.#busy.delete(host);
        if (!keep || !host.usable || this.#closed) return await host.close();
        const list = this.#idle.get(key) ?? [];
        list.push(host);
        this.#idle.set(key, list);
        this.#order.push({ key, host });
        if (this.#order.length > MAX_IDLE) await this.#evict(this.#order.shift()!);
      },
    };
  }

  async #evict(entry: { key: string; host: JudgeHost }): Promise<void> {
    const list = this.#idle.get(entry.key) ?? [];
    this.#idle.set(entry.key, list.filter((h) => h !== entry.host));
    await entry.host.close();
  }

  /** Stops every host (idle ones and any still lent) and waits for them. */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#busy, ...[...this.#idle.values()].flat()];
    this.#idle.clear();
    this.#order = [];
    await Promise.all(all.map((h) => h.close()));
  }

  /** Same as {@link JudgeHostPool.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
