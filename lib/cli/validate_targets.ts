/**
 * The part of `agentv validate` that checks each case's target against the targets file that
 * applies (`--targets`, else the nearest `.agentv/targets.*`), as `run` will.
 *
 * @module
 */
import { resolve } from "node:path";
import { createCaseTargetChecker } from "../runner/check_case_targets.ts";
import { TargetConfigError } from "../targets/errors.ts";
import { discoverTargetsFile } from "../targets/targets_file.ts";
import { UsageError } from "./command.ts";
import type { FileReport } from "./sandbox.ts";

/**
 * Adds to each eval file's report an error for every case whose target the targets file does not
 * define (the report becomes invalid).
 *
 * @example
 * ```ts ignore
 * await checkReportTargets(reports, { cwd, rootOf: (file) => "/repo", displayPath: (p) => p });
 * ```
 */
export async function checkReportTargets(
  reports: FileReport[],
  options: {
    targetsFile?: string;
    targetOverride?: string;
    rootOf(file: string): string;
    displayPath(path: string): string;
  },
): Promise<void> {
  const check = createCaseTargetChecker({
    ...(options.targetsFile !== undefined ? { targetsFile: options.targetsFile } : {}),
    ...(options.targetOverride !== undefined ? { targetOverride: options.targetOverride } : {}),
    displayPath: options.displayPath,
  });
  for (const report of reports) {
    if (report.kind !== "eval" || !report.targets) continue;
    const found = await check({
      file: report.file,
      root: options.rootOf(report.file),
      targets: report.targets,
    });
    if (found.length === 0) continue;
    report.diagnostics.push(...found);
    report.valid = false;
  }
}

/**
 * The targets file named by `--targets` (a file, or a folder holding one); a usage error when it
 * names nothing usable.
 *
 * @example
 * ```ts ignore
 * const file = await explicitTargetsFile("config/targets.yaml", "/repo");
 * ```
 */
export async function explicitTargetsFile(arg: string, cwd: string): Promise<string> {
  try {
    const found = await discoverTargetsFile(resolve(cwd, "eval"), {
      root: cwd,
      explicit: resolve(cwd, arg),
    });
    return found!;
  } catch (error) {
    if (!(error instanceof TargetConfigError)) throw error;
    throw new UsageError(error.message, error.hint);
  }
}
