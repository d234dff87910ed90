/**
 * The judge: a target used to grade answers. Calls go through the same retry, backoff and
 * timeout machinery as the evaluated targets; the request recorded on results is redacted.
 *
 * @module
 */
import type { EvalCase } from "../schema/eval_case.ts";
import type { OutputMessage } from "../schema/result.ts";
import { redactText, redactValue } from "../text/redact.ts";
import { invokeWithRetry } from "../targets/retry.ts";
import type { Target, TargetRequest } from "../targets/types.ts";
import type { JudgeCallOf, JudgeClient, JudgeReply, JudgeRequest } from "./types.ts";

/** Options of {@link createJudgeClient}. */
export interface JudgeClientOptions {
  /** Per-attempt timeout in ms. */
  timeoutMs: number;
  /** Sampling temperature sent with every call (default: the judge target's own setting). */
  temperature?: number;
  /** Token limit sent with every call (default: the judge target's own setting). */
  maxTokens?: number;
  /** Model for every call unless a request names one (default: the judge target's model). */
  model?: string;
  /** Working folder for CLI judges (default `.`, the process's folder). */
  evalDir?: string;
  /** Called before each retry of a failed call (for progress output). */
  onRetry?: (info: unknown) => void;
  /**
   * Offer `forCase` (calls then carry the graded case and trial: the response cache keys and
   * labels judge calls with them). Default false.
   */
  perCase?: boolean;
}

/** The request recorded on evaluator results (`evaluator_provider_request`), redacted. */
export interface RecordedJudgeRequest {
  /** System prompt sent. */
  system_prompt: string;
  /** User prompt sent. */
  user_prompt: string;
  /** Model: the override sent, else the one the provider request named (when known). */
  model?: string;
  /** Judge target name. */
  target: string;
  /** Calls to the target for this request (1 + retries). */
  attempts?: number;
}

/**
 * Wraps a resolved target as a {@link JudgeClient}. Each `complete` call sends the system and
 * user prompts (chat form for HTTP models, `system + user` as `{PROMPT}` for CLI judges) through
 * `invokeWithRetry`; a request's `model` overrides the judge's model. The reply text is the last
 * assistant content; the recorded request has every secret of the target replaced by `***`.
 *
 * @example
 * ```ts ignore
 * import { createJudgeClient } from "./judge_client.ts";
 * const judge = createJudgeClient(judgeTarget, { timeoutMs: 60_000 });
 * const reply = await judge.complete({ system: "Reply in JSON", user: "Grade this" }, signal);
 * console.log(reply.text, reply.request);
 * ```
 */
export function createJudgeClient(target: Target, options: JudgeClientOptions): JudgeClient {
  const client = judgeClientFor(target, options, undefined);
  if (!options.perCase) return client;
  return { ...client, forCase: (of) => judgeClientFor(target, options, of) };
}

/** The judge client of `createJudgeClient`, its calls labelled with `of` when given. */
function judgeClientFor(
  target: Target,
  options: JudgeClientOptions,
  of: JudgeCallOf | undefined,
): JudgeClient {
  return {
    target: target.name,
    async complete(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply> {
      const model = request.model ?? options.model;
      const overrides: NonNullable<TargetRequest["overrides"]> = {};
      if (model !== undefined) overrides.model = model;
      if (options.temperature !== undefined) overrides.temperature = options.temperature;
      if (options.maxTokens !== undefined) overrides.max_tokens = options.maxTokens;
      const recorded: RecordedJudgeRequest = {
        system_prompt: request.system,
        user_prompt: request.user,
        ...(model !== undefined ? { model } : {}),
        target: target.name,
      };
      try {
        const { response, attempts } = await invokeWithRetry(target, {
          evalCase: judgeCase(target.name, request),
          prompt: request.system.trim() === ""
            ? request.user
            : `${request.system}\n\n${request.user}`,
          messages: [
            ...(request.system.trim() === ""
              ? []
              : [{ role: "system" as const, content: request.system }]),
            { role: "user", content: request.user },
          ],
          guidelines: "",
          evalDir: options.evalDir ?? ".",
          ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
          ...(of !== undefined
            ? {
              trial: of.trial,
              judgeOf: { dataset: of.dataset, eval_id: of.eval_id },
              ...(of.variant !== undefined ? { variant: of.variant } : {}),
            }
            : {}),
        }, {
          timeoutMs: options.timeoutMs,
          signal,
          ...(options.onRetry ? { onRetry: options.onRetry } : {}),
        });
        const sentModel = model ?? modelOf(response.request);
        return {
          text: replyText(response.output_messages),
          ...(response.token_usage !== undefined ? { token_usage: response.token_usage } : {}),
          ...(response.cost_usd !== undefined ? { cost_usd: response.cost_usd } : {}),
          request: redactValue({
            ...recorded,
            ...(sentModel !== undefined ? { model: sentModel } : {}),
            target: target.name,
            attempts,
          }, target.secrets),
        };
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        throw new Error(redactText(message, target.secrets), { cause: e });
      }
    },
  };
}

/** The model named in a provider's recorded request body, when there is one. */
function modelOf(request: unknown): string | undefined {
  const body = (request as { body?: { model?: unknown } } | undefined)?.body;
  return typeof body?.model === "string" ? body.model : undefined;
}

/** The last assistant content of a reply (objects as JSON), or `""`. */
function replyText(messages: readonly OutputMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant" || m.content === undefined || m.content === null) continue;
    return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  }
  return "";
}

/** A stand-in case for providers that read the case (CLI `{EVAL_ID}`). */
function judgeCase(targetName: string, request: JudgeRequest): EvalCase {
  return {
    id: "judge",
    dataset: "judge",
    expected_outcome: "",
    input: [
      ...(request.system.trim() === ""
        ? []
        : [{ role: "system" as const, content: request.system }]),
      { role: "user", content: request.user },
    ],
    expected_output: [],
    execution: { target: targetName },
    evaluator: "llm_judge",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
  };
}

export { JudgeConfigError, missingJudgeError, selectJudgeTarget } from "./judge_select.ts";
export type { SelectJudgeOptions } from "./judge_select.ts";
