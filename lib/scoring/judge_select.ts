/**
 * Choosing the judge of a target: `--judge-target` over the target's `judge_target`; names that
 * match no target and a missing judge are errors that say how to fix them.
 *
 * @module
 */
import { AgentvError } from "../errors/agentv_error.ts";
import { missingJudgeMessage } from "../dataset/judge_wiring.ts";

/** A judge target setting that names no target, or a missing judge. */
export class JudgeConfigError extends AgentvError {
  /** Creates the error. */
  constructor(message: string) {
    super("judge_config", message);
    this.name = "JudgeConfigError";
  }
}

/** Options of {@link selectJudgeTarget}. */
export interface SelectJudgeOptions {
  /** `--judge-target NAME`: wins over the target's `judge_target`. */
  override?: string;
  /** Names of every target in the targets file. */
  targetNames: readonly string[];
  /** Targets file path, for messages. */
  targetsFile?: string;
}

/**
 * Picks the judge for an evaluated target: `--judge-target` wins, else the target's
 * `judge_target`, else none (`undefined`). A name that matches no target is an error, never a
 * silent fallback.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectJudgeTarget } from "./judge_client.ts";
 * assert.equal(
 *   selectJudgeTarget({ name: "agent", judgeTarget: "gpt" }, { targetNames: ["agent", "gpt"] }),
 *   "gpt",
 * );
 * ```
 */
export function selectJudgeTarget(
  target: { name: string; judgeTarget?: string },
  options: SelectJudgeOptions,
): string | undefined {
  const where = options.targetsFile ? ` in ${options.targetsFile}` : "";
  const defined = options.targetNames.length > 0
    ? options.targetNames.map((n) => `'${n}'`).join(", ")
    : "(none)";
  if (options.override !== undefined) {
    if (!options.targetNames.includes(options.override)) {
      throw new JudgeConfigError(
        `--judge-target '${options.override}' names no target${where}; defined targets: ${defined}; ` +
          "pass one of those names",
      );
    }
    return options.override;
  }
  const configured = target.judgeTarget;
  if (configured === undefined || configured.trim() === "") return undefined;
  if (!options.targetNames.includes(configured)) {
    throw new JudgeConfigError(
      `Target '${target.name}' has judge_target: '${configured}', which names no target${where}; ` +
        `defined targets: ${defined}; fix judge_target or add a target named '${configured}'`,
    );
  }
  return configured;
}

/**
 * The error for a case graded by `llm_judge` (or another judged evaluator) when its target has
 * no judge, naming the fix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missingJudgeError } from "./judge_client.ts";
 * assert.equal(
 *   missingJudgeError("default", ".agentv/targets.yaml").message,
 *   "No judge for target 'default': set judge_target: <name> on target 'default' in " +
 *     ".agentv/targets.yaml, or pass --judge-target",
 * );
 * ```
 */
export function missingJudgeError(targetName: string, targetsFile?: string): JudgeConfigError {
  return new JudgeConfigError(
    missingJudgeMessage(targetName, targetsFile ?? "the targets file", false),
  );
}
