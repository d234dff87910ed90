/**
 * Load-time check of code judges' `cwd` and `module`: they must stay inside the dataset root, as every other
 * path of a dataset does. (At run time the judge refuses it too, but only after the case ran.)
 *
 * @module
 */
import { resolve } from "node:path";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { PathKey } from "./yaml_source.ts";
import type { Finding } from "./issues.ts";
import { isInside } from "../fs/resolve.ts";

/**
 * Findings for every `code_judge` (evaluator or composite aggregator, at any depth) whose `cwd`,
 * resolved against the eval file's folder, is outside `root`. Paths are `path` + the evaluator's.
 *
 * @example
 * ```ts
 * const findings = checkJudgeDirs(
 *   [{ type: "code_judge", name: "j", weight: 1, script: ["x"], cwd: "../../.." }],
 *   ["evaluators"],
 *   { evalDir: "/data/evals", root: "/data" },
 * );
 * findings[0].path; // ["evaluators", 0, "cwd"]
 * ```
 */
export function checkJudgeDirs(
  list: readonly EvaluatorConfig[],
  path: PathKey[],
  options: { evalDir: string; root: string },
): Finding[] {
  const findings: Finding[] = [];
  /** A `cwd` folder or a module file of a code judge must lie inside the root. */
  const inside = (kind: "cwd" | "module", value: unknown, at: PathKey[]) => {
    if (typeof value !== "string") return;
    const wanted = resolve(options.evalDir, value);
    if (isInside(wanted, options.root)) return;
    const [what, fix] = kind === "cwd"
      ? ["a folder", "use a path inside it"]
      : ["a file", "move the judge inside it"]; // its worker may read nothing else
    findings.push({
      severity: "error",
      path: at,
      atKey: false,
      message:
        `${kind} '${value}' of the code judge resolves to ${wanted}, outside the dataset root ${options.root}; expected ${what} inside the root; ${fix} (or pass --root with a wider folder)`,
    });
  };
  const check = (cwd: unknown, at: PathKey[]) => inside("cwd", cwd, at);
  const checkModule = (module: unknown, at: PathKey[]) => inside("module", module, at);
  list.forEach((config, i) => {
    const at: PathKey[] = [...path, i];
    const record = config as unknown as Record<string, unknown>;
    if (config.type === "code_judge") {
      check(record.cwd, [...at, "cwd"]);
      checkModule(record.module, [...at, "module"]);
    }
    if (config.type === "composite") {
      const aggregator = config.aggregator as unknown as Record<string, unknown>;
      if (aggregator.type === "code_judge") check(aggregator.cwd, [...at, "aggregator", "cwd"]);
      findings.push(...checkJudgeDirs(config.evaluators, [...at, "evaluators"], options));
    }
  });
  return findings;
}
