/**
 * Whether the bubblewrap tests can run here: `bwrap` on `PATH` and Linux. `.ci/run` installs it;
 * with `CI=true` a missing `bwrap` fails the tests that need it (with the reason) instead of
 * ignoring them.
 *
 * ```ts ignore
 * Deno.test({ name: "…", ignore: bubblewrap.ignore, fn() { bubblewrap.require(); … } });
 * ```
 *
 * @module
 */
import { findExecutable } from "../../lib/targets/sandbox_policy.ts";

const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const found = Deno.build.os === "linux" ? findExecutable("bwrap", path) : undefined;
const reason = found !== undefined
  ? undefined
  : Deno.build.os !== "linux"
  ? "bubblewrap runs on Linux only"
  : "bwrap is not installed (Debian: apt-get install bubblewrap; .ci/run installs it)";
const inCi = Deno.env.get("CI") === "true" && Deno.build.os === "linux";
if (reason !== undefined && !inCi) console.warn(`ignoring the bubblewrap tests: ${reason}`);

/** The bubblewrap tests' switch: `ignore` them, or `require()` bwrap (throws the reason in CI). */
export const bubblewrap = {
  /** Path of `bwrap`, when installed. */
  path: found,
  /** Whether tests needing bwrap are ignored (missing, and not in CI). */
  ignore: reason !== undefined && !inCi,
  /** The path of `bwrap`; throws why it is missing (what a CI test fails with). */
  require(): string {
    if (found === undefined) throw new Error(`${reason} (CI=true requires it)`);
    return found;
  },
};
