/**
 * The run itself: options, plan, worker pool, target binding, trust gate and consent, response
 * cache, budget, workspaces, resume, and `runEval`.
 *
 * @module
 */
export {
  type EvalFileLoader,
  type LoadedEvalSet,
  runEval,
  type RunEvalOptions,
  type RunEvalResult,
  type RunSpec,
} from "./run_eval.ts";
export { RunConfigError, SandboxUnavailableError } from "./errors.ts";
export {
  type RunPermission,
  type RunPermissionRequest,
  UntrustedDatasetError,
} from "./run_permission.ts";
export { type CaseRun, type Shard, shardOf } from "./plan.ts";
export { type PriorRun, type PriorRunMode, readPriorRun } from "./resume.ts";
export { cacheKey, type CacheKeyMaterial, canonicalJson, type JsonValue } from "./cache_key.ts";
export { rejudge, type RejudgeOptions, type RejudgeResult } from "./rejudge.ts";
