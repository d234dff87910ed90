/**
 * The first stage of the pipeline: everything read from a dataset (eval files and sidecars,
 * `.agentv/config.yaml`, targets files, `.env`) with located diagnostics, and the sandbox that
 * loads it with read access to the dataset root only.
 *
 * @module
 */
export { loadEvalCases, type LoadEvalCasesOptions } from "./load_eval_cases.ts";
export {
  type CaseTargetUse,
  type EvalFileReport,
  type FileNeedsReport,
  validateEvalFile,
  type ValidateEvalFileOptions,
} from "./validate_eval_file.ts";
export { type CaseSite } from "./case_pipeline.ts";
export { streamEvalCases } from "./stream_eval_cases.ts";
export { type LoadedEvalFile, loadEvalFile } from "./load_eval_file.ts";
export { type LoadOptions } from "./context.ts";
export { EvalLoadError } from "./errors.ts";
export { lendSandboxWorkers } from "./sandbox_worker.ts";
export { type DiscoveredFiles, discoverEvalFiles } from "./discover.ts";
export {
  type CommandFile,
  type DatasetCommand,
  type DatasetCommandKind,
  type NeedIdentity,
  type SourceHash,
} from "./dataset_commands.ts";
export {
  type LoadedTargetsFile,
  loadTargetsFile,
  type SourcePosition,
  type TargetsDefinitionsFacts,
  type TargetsFileReadOptions,
  type TargetsValidation,
  validateTargetsFile,
} from "./targets_file.ts";
