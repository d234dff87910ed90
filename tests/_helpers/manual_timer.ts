/**
 * A timer the test fires itself, for code that takes an injected timer (`invokeWithRetry`'s
 * `timer`): a timeout then happens when the test says, never because the machine was slow.
 *
 * ```ts
 * import { manualTimer } from "./manual_timer.ts";
 *
 * const clock = manualTimer();
 * let fired = false;
 * clock.timer(150, () => fired = true);
 * clock.elapse(); // fired is now true
 * ```
 *
 * @module
 */

/** A timeout that was armed. */
export interface ArmedTimer {
  /** Its duration, in ms. */
  ms: number;
  /** Whether {@link ManualTimer.elapse} fired it. */
  fired: boolean;
  /** Whether the code disarmed it. */
  disarmed: boolean;
}

/** A timer driven by the test. */
export interface ManualTimer {
  /** The injected timer: arms a timeout, returns its disarm function. */
  timer(ms: number, fire: () => void): () => void;
  /** Every timeout armed so far, in order. */
  armed: ArmedTimer[];
  /** Fires every armed timeout that is neither fired nor disarmed, as if its time had passed. */
  elapse(): void;
}

/** Creates a {@link ManualTimer}. */
export function manualTimer(): ManualTimer {
  const armed: (ArmedTimer & { fire: () => void })[] = [];
  return {
    timer(ms, fire) {
      const entry = { ms, fire, fired: false, disarmed: false };
      armed.push(entry);
      return () => {
        entry.disarmed = true;
      };
    },
    get armed() {
      return armed.map(({ ms, fired, disarmed }) => ({ ms, fired, disarmed }));
    },
    elapse() {
      for (const entry of armed) {
        if (entry.fired || entry.disarmed) continue;
        entry.fired = true;
        entry.fire();
      }
    },
  };
}
