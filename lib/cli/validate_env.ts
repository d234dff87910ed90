/**
 * `.env` files for `agentv validate`: the ones `run` would read for each eval file (from its
 * folder up to the dataset root) are read under the same rules, so that a `.env` that `run` would
 * refuse (a link leading outside the root, a FIFO or device, over 1 MiB, not UTF-8) is reported
 * by `validate` too. Values are never shown, and a readable `.env` is not listed.
 *
 * @module
 */
import { dirname } from "node:path";
import { ConfinedReadError } from "../fs/read_confined.ts";
import { loadDotEnv } from "../dataset/env.ts";
import type { FileReport } from "../dataset/sandbox.ts";

/**
 * Reads the `.env` files of every eval file in `reports` as `run` does. Each eval file whose
 * `.env` would be refused gets the error (it would not run) and the refused file is returned as
 * a report of its own (kind `env`).
 *
 * @example
 * ```ts ignore
 * const refused = await checkDotEnvReads(reports, { rootOf: (file) => "/repo" });
 * ```
 */
export async function checkDotEnvReads(
  reports: FileReport[],
  options: { rootOf: (file: string) => string },
): Promise<FileReport[]> {
  const byDir = new Map<string, Promise<ConfinedReadError | undefined>>();
  const refused = new Map<string, FileReport>();
  for (const report of reports) {
    if (report.kind !== "eval") continue;
    const dir = dirname(report.file);
    const root = options.rootOf(report.file);
    const key = `${dir}\0${root}`;
    let pending = byDir.get(key);
    if (!pending) {
      pending = loadDotEnv(dir, root).then(
        () => undefined,
        (error) => {
          if (error instanceof ConfinedReadError) return error;
          throw error;
        },
      );
      byDir.set(key, pending);
    }
    const error = await pending;
    if (error === undefined) continue;
    report.diagnostics.push(...error.diagnostics);
    report.valid = false;
    if (!refused.has(error.file)) {
      refused.set(error.file, {
        file: error.file,
        kind: "env",
        valid: false,
        cases: 0,
        diagnostics: [...error.diagnostics],
      });
    }
  }
  return [...refused.values()];
}
