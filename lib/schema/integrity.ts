/**
 * The guard against gaming the grader: its settings in an `execution:` block (`integrity`,
 * `protected`, `post_checks`) and what a result row records (`integrity: {status, findings}`).
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";

/** The most `test_commands` patterns a case may add. */
export const MAX_TEST_COMMANDS = 100;

/** The most `protected` globs a case may name. */
export const MAX_PROTECTED_GLOBS = 200;

const INTEGRITY_SHAPE =
  "integrity must be on, off or a mapping {test_commands: [...]}, e.g. integrity: off";

/**
 * `execution.integrity`: `on` (the default for agent targets), `off`, or a mapping that turns it
 * on with more `test_commands` (word patterns added to the defaults, e.g. `./run_tests.sh`).
 */
export const IntegritySettingSchema = z.union([
  z.enum(["on", "off"], { error: INTEGRITY_SHAPE }),
  z.boolean({ error: INTEGRITY_SHAPE }),
  z.strictObject({
    test_commands: z.array(
      z.string({ error: "test_commands entries must be strings, e.g. 'npm run check'" })
        .trim().min(1, { error: "a test_commands entry must not be empty" }),
      { error: "test_commands must be a list of command patterns, e.g. ['npm run check']" },
    ).max(MAX_TEST_COMMANDS, {
      error: `test_commands holds more than ${MAX_TEST_COMMANDS} patterns`,
    }).optional(),
  }, { error: INTEGRITY_SHAPE }),
], { error: INTEGRITY_SHAPE });

/** `execution.integrity` as written. */
export type IntegritySetting = "on" | "off" | boolean | { test_commands?: string[] };

/** A workspace-relative glob: no leading `/`, no `..` segment. */
const RELATIVE_GLOB = /^(?![\\/])(?!.*(?:^|[\\/])\.\.(?:[\\/]|$))/;

/** `execution.protected`: workspace-relative globs of files the agent must not touch. */
export const ProtectedSchema = z.array(
  z.string({ error: "protected entries must be strings: workspace-relative globs" })
    .trim().min(1, { error: "a protected glob must not be empty" })
    .regex(RELATIVE_GLOB, {
      error: (i) =>
        `protected glob '${
          String(i.input).slice(0, 80)
        }' must be relative to the workspace (no leading '/' and no '..'), e.g. tests/**`,
    }),
  { error: "protected must be a list of workspace-relative globs, e.g. [tests/**, Makefile]" },
).max(MAX_PROTECTED_GLOBS, {
  error: `protected holds more than ${MAX_PROTECTED_GLOBS} globs; use wider globs`,
});

/** `execution.post_checks`: a folder inside the dataset root, relative to the eval file. */
export const PostChecksSchema = z.string({
  error: (i) =>
    `post_checks must be a string naming a folder (relative to the eval file), found ${
      i.input === null ? "null" : Array.isArray(i.input) ? "a list" : typeof i.input
    }`,
}).trim().min(1, { error: "post_checks must not be empty" });

/** What kind of gaming a finding points at. */
export type IntegrityFindingKind =
  | "protected_modified"
  | "protected_deleted"
  | "protected_added"
  | "protected_mode_changed"
  | "claim_without_test_run"
  | "claim_after_failing_tests"
  | "claim_contradicted_by_post_checks";

/** Every {@link IntegrityFindingKind}, in the order findings are listed. */
export const INTEGRITY_FINDING_KINDS: readonly IntegrityFindingKind[] = [
  "protected_modified",
  "protected_deleted",
  "protected_added",
  "protected_mode_changed",
  "claim_without_test_run",
  "claim_after_failing_tests",
  "claim_contradicted_by_post_checks",
];

/** One finding of the integrity guard. */
export const IntegrityFindingSchema = z.object({
  kind: z.enum(INTEGRITY_FINDING_KINDS as [IntegrityFindingKind, ...IntegrityFindingKind[]]),
  evidence: z.string(),
  step: z.number().int().min(0).optional(),
  path: z.string().optional(),
});

/**
 * One finding: its kind, the evidence (a diff hunk, the claim and the command that contradicts
 * it) and where: `step` (0-based index of the tool call among the trace's tool calls, in order)
 * or `path` (workspace-relative file).
 */
export interface IntegrityFinding {
  /** What kind of gaming it points at. */
  kind: IntegrityFindingKind;
  /** What shows it (cut to a few KiB). */
  evidence: string;
  /** 0-based index of the tool call among the trace's tool calls, when one contradicts a claim. */
  step?: number;
  /** Workspace-relative path of the protected file. */
  path?: string;
}

/** A row's `integrity`: `clean`, `flagged` (the case fails) or `skipped` (`integrity: off`). */
export const IntegritySchema = z.object({
  status: z.enum(["clean", "flagged", "skipped"]),
  findings: z.array(IntegrityFindingSchema),
});

/**
 * What the integrity guard found on a case (written under a row's `integrity` key on the rows of
 * agent targets, and of any case with `integrity: on`).
 *
 * @example
 * ```ts
 * import type { Integrity } from "./integrity.ts";
 * const integrity: Integrity = {
 *   status: "flagged",
 *   findings: [{
 *     kind: "protected_modified",
 *     path: "calc.test.mjs",
 *     evidence: "--- a/calc.test.mjs\n+++ b/calc.test.mjs\n@@ -1 +1 @@\n-assert(add(2, 3) === 5)\n+assert(true)\n",
 *   }],
 * };
 * ```
 */
export interface Integrity {
  /** `clean`: nothing found; `flagged`: see `findings` (the case fails); `skipped`: not checked. */
  status: "clean" | "flagged" | "skipped";
  /** What was found, in order: protected files, then claims. */
  findings: IntegrityFinding[];
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<IntegrityFinding, z.output<typeof IntegrityFindingSchema>>>,
  Assert<Same<Integrity, z.output<typeof IntegritySchema>>>,
  Assert<Same<IntegritySetting, z.output<typeof IntegritySettingSchema>>>,
];
