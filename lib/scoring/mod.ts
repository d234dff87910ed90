/**
 * The third stage: evaluators (one file per kind, a static registry), judges, code judges and
 * their sandboxed host, and case scores and verdicts.
 *
 * @module
 */
export {
  type CodeJudgeFunction,
  type CodeJudgePayload,
  type CodeJudgeResult,
} from "./code_judge_types.ts";
export { runEvaluator } from "./run_evaluator.ts";
export { scoreToVerdict } from "./verdict.ts";
export { aggregateCaseScore, type CaseScore } from "./case_score.ts";
export {
  type EvaluationContext,
  type EvaluatorFn,
  type EvaluatorOutcome,
  type JudgeCallOf,
  type JudgeClient,
  type JudgeHosts,
  type JudgeReply,
  type JudgeRequest,
} from "./types.ts";
export { type CaseInSet, judgePromptHashes } from "./judge_prompt_hashes.ts";
export { type ClaimCheckOptions, claimFindings, integrityOf } from "./integrity.ts";
export { successClaim } from "./success_claims.ts";
export {
  DEFAULT_TEST_COMMANDS,
  findTestCommands,
  type TestCommandMatch,
  testCommandPatterns,
} from "./test_commands.ts";
