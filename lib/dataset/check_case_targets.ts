/**
 * The check `agentv validate` shares with `run`: every case's target must be defined in the
 * targets file that applies to its eval file (the nearest `.agentv/targets.*` between the file
 * and the dataset root, or `--targets`). A missing target is reported at the line where the case
 * names it (its `execution.target`, else its `id`), with "did you mean" and the defined targets.
 *
 * @module
 */
import { locateJsonlSites } from "./jsonl_file.ts";
import { ConfinedReadError } from "../fs/read_confined.ts";
import type { CaseTargetUse } from "./validate_eval_file.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { TargetsFileError } from "./targets_errors.ts";
import { discoverTargetsFile, loadUsableTargets, type UsableTargetsFile } from "./targets_file.ts";
import { suggest } from "../text/suggest.ts";

/** Options of {@link createCaseTargetChecker}. */
export interface CaseTargetCheckOptions {
  /** Targets file (absolute) used for every eval file instead of the discovered one. */
  targetsFile?: string;
  /** Target used for every case instead of its own (`--target`). */
  targetOverride?: string;
  /** How a path is shown in messages (default: as is). */
  displayPath?: (path: string) => string;
}

/** Checks the targets of one eval file's cases; targets files are read once per checker. */
export type CaseTargetChecker = (
  evalFile: { file: string; root: string; targets: readonly CaseTargetUse[] },
) => Promise<Diagnostic[]>;

/**
 * Creates a checker that reports every case whose target is not defined in the targets file that
 * applies (a run would record those cases as errors). No targets file is no error here: a dry run
 * needs none, and a real run says so.
 *
 * @example
 * ```ts ignore
 * import { createCaseTargetChecker } from "./check_case_targets.ts";
 * const check = createCaseTargetChecker({});
 * const diagnostics = await check({ file: "/repo/evals/a.yaml", root: "/repo", targets: report.targets });
 * ```
 */
export function createCaseTargetChecker(options: CaseTargetCheckOptions = {}): CaseTargetChecker {
  const show = options.displayPath ?? ((p: string) => p);
  const files = new Map<string, Promise<UsableTargetsFile | TargetsFileError>>();
  const load = (path: string, root: string) => {
    // A discovered targets file must lie inside the dataset root; a `--targets` file is the user's.
    const within = options.targetsFile === undefined ? { root } : {};
    const key = `${path}\0${within.root ?? ""}`;
    let p = files.get(key);
    if (!p) {
      p = loadUsableTargets(path, within).catch((e) => {
        if (e instanceof TargetsFileError) return e;
        if (e instanceof ConfinedReadError) return new TargetsFileError(path, e.diagnostics);
        throw e;
      });
      files.set(key, p);
    }
    return p;
  };
  return async ({ file, root, targets }) => {
    if (targets.length === 0) return [];
    const path = await discoverTargetsFile(file, {
      root,
      ...(options.targetsFile !== undefined ? { explicit: options.targetsFile } : {}),
    });
    if (path === undefined) return [];
    const loaded = await load(path, root);
    const found: { use: CaseTargetUse; message: string }[] = [];
    const report = async () => {
      // JSONL sites carry only a line: the columns are found for the cases reported.
      const uses = await locateJsonlSites(file, found.map((f) => f.use));
      return found.map(({ message }, i): Diagnostic => {
        const use = uses[i];
        return {
          severity: "error",
          file,
          ...(use.line !== undefined ? { line: use.line } : {}),
          ...(use.column !== undefined ? { column: use.column } : {}),
          ...(use.path ? { path: use.path } : {}),
          message: `Case '${use.id}': ${message}`,
        };
      });
    };
    const at = (use: CaseTargetUse, message: string) => found.push({ use, message });
    if (loaded instanceof TargetsFileError) {
      const first = loaded.diagnostics.find((d) => d.severity === "error");
      const where = first?.line !== undefined ? `:${first.line}:${first.column ?? 1}` : "";
      const seen = new Set<string>();
      for (const use of targets) {
        const name = options.targetOverride ?? use.target;
        if (seen.has(name)) continue;
        seen.add(name);
        at(
          use,
          `target '${name}' cannot be used: the targets file ${show(path)}${where} is invalid${
            first ? ` (${first.message})` : ""
          }; fix the targets file (the cases that use it would not run)`,
        );
      }
      return await report();
    }
    const names = loaded.targets.map((t) => t.name);
    for (const use of targets) {
      const name = options.targetOverride ?? use.target;
      if (names.includes(name)) continue;
      const broken = loaded.broken.get(name)?.[0];
      if (broken) {
        const where = broken.line !== undefined ? `:${broken.line}:${broken.column ?? 1}` : "";
        at(
          use,
          `target '${name}' cannot be used: its definition in ${
            show(path)
          }${where} is invalid (${broken.message}); fix the target (the cases that use it would not run)`,
        );
        continue;
      }
      const guess = suggest(name, names);
      const from = options.targetOverride !== undefined
        ? " (given by --target)"
        : use.ownTarget
        ? ""
        : " (the file's default target)";
      const fix = options.targetOverride !== undefined
        ? "pass a defined target to --target"
        : use.ownTarget
        ? "define it there or change the case's execution.target"
        : "define it there or set execution.target in the file";
      at(
        use,
        `target '${name}'${from} is not defined in ${show(path)}${
          guess ? `; did you mean '${guess}'?` : ""
        }; expected one of the defined targets: ${
          names.length > 0 ? names.join(", ") : "(none)"
        }; ${fix}`,
      );
    }
    return await report();
  };
}
