/**
 * Calls a target with per-attempt timeouts and retries: exponential backoff with full jitter,
 * honouring `Retry-After`, following the target's {@link RetryPolicy}.
 *
 * @module
 */
import {
  type RetryPolicy,
  type Target,
  TargetError,
  type TargetRequest,
  type TargetResponse,
} from "./types.ts";

/** Statuses that are never retried, whatever `retry_status_codes` says. */
const NEVER_RETRIED = [401, 403];

/** Information passed to `onRetry` before sleeping. */
export interface RetryInfo {
  /** The attempt that failed (0-based). */
  attempt: number;
  /** The failure. */
  error: TargetError;
  /** How long the loop sleeps before the next attempt, in ms. */
  delayMs: number;
}

/** Options of {@link invokeWithRetry}. */
export interface InvokeWithRetryOptions {
  /**
   * Bound on each attempt, in ms (the attempt is aborted and counts as a retryable timeout);
   * `0` or `Infinity` means no bound.
   */
  timeoutMs: number;
  /** Outer signal (interruption): stops at once, no retry. */
  signal: AbortSignal;
  /** Sleeps `ms` unless `signal` aborts first (default: a timer). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Arms an attempt's timeout: calls `fire` after `ms` unless the returned function disarms it
   * first (default: `setTimeout`). Tests pass a timer they fire themselves, to drive time
   * instead of waiting on it.
   */
  timer?: (ms: number, fire: () => void) => () => void;
  /** Uniform random in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
  /** Called before each retry. */
  onRetry?: (info: RetryInfo) => void;
}

/** A successful call. */
export interface InvokeResult {
  /** The target's response. */
  response: TargetResponse;
  /** Attempts made, including the successful one. */
  attempts: number;
}

/**
 * Invokes `target` until it succeeds, fails with a non-retryable error, or `max_retries` retries
 * are spent. Retried: statuses in the policy's `retryStatusCodes` (401/403 never), errors without
 * a status that the provider marked retryable (connection errors, malformed bodies), and
 * per-attempt timeouts. The delay before retry `k` (0-based) is
 * `random() * min(maxDelayMs, initialDelayMs * backoffFactor^k)`, raised to `Retry-After` when
 * the server asked for longer (even beyond `maxDelayMs`, up to the larger of `maxDelayMs` and
 * {@link RETRY_AFTER_CEILING_MS}). A thrown error carries `attempts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { invokeWithRetry } from "./retry.ts";
 * import { type Target, type TargetRequest, TargetError } from "./types.ts";
 *
 * // A target whose first call fails with a retryable 503.
 * let calls = 0;
 * const target: Target = {
 *   name: "flaky",
 *   provider: "mock",
 *   secrets: [],
 *   retry: { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 10, backoffFactor: 2, retryStatusCodes: [503] },
 *   invoke: () => {
 *     if (calls++ === 0) throw new TargetError("busy", { status: 503, retryable: true });
 *     return Promise.resolve({ output_messages: [{ role: "assistant", content: "ok" }] });
 *   },
 * };
 * const request = { prompt: "hi", messages: [], guidelines: "", evalDir: "." } as unknown as Omit<
 *   TargetRequest,
 *   "signal" | "attempt"
 * >;
 * const { response, attempts } = await invokeWithRetry(target, request, {
 *   timeoutMs: 120_000,
 *   signal: new AbortController().signal,
 * });
 * assert.equal(attempts, 2);
 * assert.equal(response.output_messages[0].content, "ok");
 * ```
 */
export async function invokeWithRetry(
  target: Target,
  request: Omit<TargetRequest, "signal" | "attempt">,
  options: InvokeWithRetryOptions,
): Promise<InvokeResult> {
  const { signal, timeoutMs } = options;
  const sleep = options.sleep ?? abortableSleep;
  const arm = options.timer ?? startTimer;
  const random = options.random ?? Math.random;
  const policy = target.retry;
  for (let attempt = 0;; attempt++) {
    if (signal.aborted) throw interrupted(signal, attempt);
    // One controller per attempt, aborted by the run's signal or the attempt's timer (a listener
    // and a timer are much cheaper per call than `AbortSignal.any`).
    const attemptAbort = new AbortController();
    let timedOut = false;
    // a non-positive or non-finite timeout means "no per-attempt limit"
    const disarm = timeoutMs > 0 && timeoutMs < 2 ** 31
      ? arm(timeoutMs, () => {
        timedOut = true;
        attemptAbort.abort(new DOMException(`Timed out after ${timeoutMs} ms`, "TimeoutError"));
      })
      : undefined;
    const forward = () => attemptAbort.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    const attemptSignal = attemptAbort.signal;
    let error: TargetError;
    try {
      const response = await raceAbort(
        target.invoke({ ...request, attempt, signal: attemptSignal }),
        attemptSignal,
      );
      return { response, attempts: attempt + 1 };
    } catch (caught) {
      if (signal.aborted) throw interrupted(signal, attempt + 1);
      error = timedOut
        ? new TargetError(
          `Target '${target.name}' timed out after ${formatSeconds(timeoutMs)}${
            target.endpoint ? ` with no reply from ${target.endpoint}` : ""
          }`,
          {
            retryable: true,
            cause: caught,
          },
        )
        : toTargetError(caught);
    } finally {
      disarm?.();
      signal.removeEventListener("abort", forward);
    }
    if (attempt >= policy.maxRetries || !shouldRetry(error, policy)) {
      throw withAttempts(error, attempt + 1);
    }
    const delayMs = retryDelay(attempt, error.retryAfterMs, policy, random);
    options.onRetry?.({ attempt, error, delayMs });
    try {
      await sleep(delayMs, signal);
    } catch {
      // an aborted sleep is handled by the check at the top of the loop
    }
  }
}

/** Whether `error` may be retried under `policy`. */
export function shouldRetry(error: TargetError, policy: RetryPolicy): boolean {
  if (error.status !== undefined) {
    if (NEVER_RETRIED.includes(error.status)) return false;
    if (error.status >= 200 && error.status < 300) return error.retryable;
    return policy.retryStatusCodes.includes(error.status);
  }
  return error.retryable;
}

/** The delay before retry number `retry` (0-based), in ms. */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(
    policy.maxDelayMs,
    policy.initialDelayMs * policy.backoffFactor ** retry,
  );
  const backoff = random() * ceiling;
  // The server's Retry-After is honoured even above `retry_max_delay_ms` (which bounds our own
  // backoff), up to the larger of that setting and 60 s so a hostile value cannot stall the run.
  const honoured = Math.min(retryAfterMs ?? 0, Math.max(policy.maxDelayMs, RETRY_AFTER_CEILING_MS));
  return Math.max(backoff, honoured);
}

/** The longest `Retry-After` honoured when it exceeds `retry_max_delay_ms`, in ms. */
export const RETRY_AFTER_CEILING_MS = 60_000;

function toTargetError(error: unknown): TargetError {
  if (error instanceof TargetError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TargetError(message, { cause: error });
}

function withAttempts(error: TargetError, attempts: number): TargetError {
  return new TargetError(error.message, {
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    cause: error.cause,
    attempts,
    partial: error.partial,
  });
}

function interrupted(signal: AbortSignal, attempts: number): TargetError {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
  return new TargetError(`Interrupted${reason && reason !== "undefined" ? `: ${reason}` : ""}`, {
    cause: signal.reason,
    attempts,
  });
}

/** Rejects as soon as `signal` aborts, even if the provider ignores it. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function startTimer(ms: number, fire: () => void): () => void {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
