/**
 * The second stage: targets, one file per provider over `fetch` or a subprocess, a static
 * registry, retries, and the prompt a target receives.
 *
 * @module
 */
export { buildChatMessages, renderGuidelines, renderPrompt } from "./render_prompt.ts";
export { CommandPermit, ConsentGrant, ConsentNotGivenError, type GrantedNeed } from "./consent.ts";
export { type TargetNeed } from "./target_needs.ts";
export { type Endpoint, type SandboxPolicy } from "./sandbox_policy.ts";
export { createTarget, type CreateTargetOptions } from "./registry.ts";
export {
  type CallIdentity,
  type ChatMessage,
  type RetryPolicy,
  type Target,
  type TargetRequest,
  type TargetResponse,
} from "./types.ts";
export { TargetError } from "./types.ts";
export { type AgentStreamParser, type AgentToolStep, type AgentTrace } from "./agent_trace.ts";
export { type ClaudeStreamParserOptions, createClaudeStreamParser } from "./claude_stream.ts";
export { type CodexStreamParserOptions, createCodexStreamParser } from "./codex_stream.ts";
export { createGeminiCliStreamParser } from "./gemini_cli_stream.ts";
export { createCopilotStreamParser } from "./copilot_stream.ts";
export { createOpencodeStreamParser } from "./opencode_stream.ts";
export { createPiStreamParser, type PiStreamParserOptions } from "./pi_stream.ts";
