/**
 * Whether the bubblewrap tests can run here: a `bwrap` on `PATH` that can make a sandbox (Linux,
 * user namespaces allowed). `.ci/run` installs it;
 * with `CI=true` a missing `bwrap` fails the tests that need it (with the reason) instead of
 * ignoring them.
 *
 * ```ts ignore
 * Deno.test({ name: "…", ignore: bubblewrap.ignore, fn() { bubblewrap.require(); … } });
 * ```
 *
 * @module
 */
import { bubblewrapProblem, findExecutable } from "../../lib/targets/sandbox_policy.ts";

const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const problem = bubblewrapProblem({ path });
const found = problem === undefined ? findExecutable("bwrap", path) : undefined;
const reason = problem === undefined
  ? undefined
  : `${problem} (Debian: apt-get install bubblewrap; .ci/run installs it)`;
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
