/**
 * `agentv validate --targets FILE`: the file the option names, checked before anything loads (the
 * cases' targets are then checked against it in the sandbox, see `load_worker.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import { TargetConfigError } from "../dataset/targets_errors.ts";
import { discoverTargetsFile } from "../dataset/targets_file.ts";
import { UsageError } from "../errors/agentv_error.ts";

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
