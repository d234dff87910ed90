/**
 * Asking a judge for a JSON reply and getting one that validates: lenient extraction (code
 * fences, prose around the JSON), zod validation, and re-asking up to three times in total with
 * the problem explained. A judge that never replies usably yields an explicit failure carrying
 * the reason and an excerpt of the raw reply, never a silent score.
 *
 * @module
 */
import { type ReplyOf, type ReplySchema, validateReply } from "../schema/judge_reply.ts";
import { extractJsonCandidates } from "./answer.ts";
import { JudgeConfigError, missingJudgeError } from "./judge_select.ts";

export { extractJsonCandidates };
import type { TokenUsage } from "../schema/result.ts";
import type {
  EvaluationContext,
  EvaluatorOutcome,
  JudgeClient,
  JudgeReply,
  JudgeRequest,
} from "./types.ts";

/** What the judge calls of one evaluator used, summed over every call (re-asks included). */
export interface JudgeUsage {
  /** Tokens, when at least one call reported them. */
  token_usage?: TokenUsage;
  /** Cost in USD, when at least one call reported or priced it. */
  cost_usd?: number;
}

/**
 * Adds one judge reply's usage to a running total (a new object; `total` is not changed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addJudgeUsage } from "./judge_reply.ts";
 * const one = addJudgeUsage({}, { text: "", request: {}, token_usage: { input: 10, output: 2 } });
 * assert.deepEqual(
 *   addJudgeUsage(one, { text: "", request: {}, token_usage: { input: 5, output: 1 }, cost_usd: 0.5 }),
 *   { token_usage: { input: 15, output: 3 }, cost_usd: 0.5 },
 * );
 * ```
 */
export function addJudgeUsage(total: JudgeUsage, reply: Partial<JudgeReply>): JudgeUsage {
  const out: JudgeUsage = { ...total };
  const t = reply.token_usage;
  if (t !== undefined) {
    const sum: TokenUsage = {
      input: (total.token_usage?.input ?? 0) + t.input,
      output: (total.token_usage?.output ?? 0) + t.output,
    };
    const cached = (total.token_usage?.cached ?? 0) + (t.cached ?? 0);
    if (t.cached !== undefined || total.token_usage?.cached !== undefined) sum.cached = cached;
    out.token_usage = sum;
  }
  if (reply.cost_usd !== undefined) out.cost_usd = (total.cost_usd ?? 0) + reply.cost_usd;
  return out;
}

/** How many judge calls are made at most for one reply. */
export const MAX_JUDGE_ATTEMPTS = 3;

/** Longest raw-reply excerpt kept in errors. */
const EXCERPT_CHARS = 400;

/** A usable judge reply. */
export interface JudgeSuccess<T> {
  /** The reply was usable. */
  ok: true;
  /** The validated reply. */
  value: T;
  /** Judge calls made (1..3). */
  attempts: number;
  /** The redacted request of the call whose reply was used. */
  request: unknown;
  /** What every call made for this reply used (recorded on the evaluator result). */
  usage: JudgeUsage;
}

/** A judge that could not be understood (or reached). */
export interface JudgeFailure {
  /** The reply was not usable. */
  ok: false;
  /** Why, naming the last problem and quoting the raw reply. */
  error: string;
  /** Start of the last raw reply, when there was one. */
  rawExcerpt?: string;
  /** Judge calls made. */
  attempts: number;
  /** The redacted request of the last call, when one was sent. */
  request?: unknown;
  /** What the calls made used. */
  usage: JudgeUsage;
}

/** Options of {@link askJudge}. */
export interface AskJudgeOptions<T extends ReplySchema> {
  /** Schema the JSON reply must satisfy. */
  schema: T;
  /** Aborts the calls. */
  signal: AbortSignal;
  /** Calls at most (default {@link MAX_JUDGE_ATTEMPTS}). */
  maxAttempts?: number;
}

/**
 * Cuts a raw reply to a short, single-paragraph excerpt for error messages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { excerpt } from "./judge_reply.ts";
 * assert.equal(excerpt("I think it is fine."), "I think it is fine.");
 * ```
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}… (${flat.length} chars)`;
}

/**
 * Sends `request` to the judge and returns the first reply that contains a JSON object valid
 * against `options.schema`. An unusable reply is re-asked (up to three calls in total) with the
 * problem appended to the user prompt. A judge that cannot be reached (after the target's own
 * retries) fails at once. Throws only when `signal` is aborted.
 *
 * @example
 * ```ts ignore
 * import { askJudge } from "./judge_reply.ts";
 * import { FreeformReplySchema } from "../schema/judge_reply.ts";
 * const reply = await askJudge(judge, { system, user }, { schema: FreeformReplySchema, signal });
 * if (reply.ok) console.log(reply.value.score);
 * ```
 */
export async function askJudge<T extends ReplySchema>(
  judge: JudgeClient,
  request: JudgeRequest,
  options: AskJudgeOptions<T>,
): Promise<JudgeSuccess<ReplyOf<T>> | JudgeFailure> {
  const maxAttempts = options.maxAttempts ?? MAX_JUDGE_ATTEMPTS;
  let problem = "";
  let raw: string | undefined;
  let lastRequest: unknown;
  let usage: JudgeUsage = {};
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const sent: JudgeRequest = attempt === 1
      ? request
      : { ...request, user: reask(request, problem) };
    let text: string;
    try {
      const reply = await judge.complete(sent, options.signal);
      text = reply.text;
      lastRequest = reply.request;
      usage = addJudgeUsage(usage, reply);
    } catch (e) {
      if (options.signal.aborted) throw e;
      const message = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: `Judge '${judge.target}' could not be reached: ${message}`,
        attempts: attempt,
        usage,
        ...(raw !== undefined ? { rawExcerpt: excerpt(raw) } : {}),
        ...(lastRequest !== undefined ? { request: lastRequest } : {}),
      };
    }
    raw = text;
    const candidates = extractJsonCandidates(text);
    if (candidates.length === 0) {
      problem = text.trim() === "" ? "the reply was empty" : "the reply contained no JSON object";
      continue;
    }
    let firstError = "";
    for (const candidate of candidates) {
      const checked = validateReply(options.schema, candidate);
      if (checked.ok) {
        return { ok: true, value: checked.value, attempts: attempt, request: lastRequest, usage };
      }
      firstError ||= checked.error;
    }
    problem = `the JSON did not match the expected shape (${firstError})`;
  }
  const quoted = excerpt(raw ?? "");
  return {
    ok: false,
    error: `Judge '${judge.target}' gave no usable reply after ${maxAttempts} attempt${
      maxAttempts === 1 ? "" : "s"
    }: ${problem}; raw reply: "${quoted}"`,
    rawExcerpt: quoted,
    attempts: maxAttempts,
    request: lastRequest,
    usage,
  };
}

function reask(request: JudgeRequest, problem: string): string {
  return `${request.user}\n\n[[ ## note ## ]]\nYour previous reply could not be used: ${problem}. ` +
    "Reply again with only the JSON object described in the instructions, no other text.";
}

/** The context's judge, or an error naming how to configure one. */
export function requireJudge(context: EvaluationContext): JudgeClient {
  if (context.judge === undefined) {
    throw context.noJudgeReason !== undefined
      ? new JudgeConfigError(context.noJudgeReason)
      : missingJudgeError(context.targetName);
  }
  return context.judge;
}

/** An error outcome for a judge whose reply could not be used. */
export function judgeFailure(failure: JudgeFailure): EvaluatorOutcome {
  return {
    ...judgeError(failure.error),
    details: {
      judge_attempts: failure.attempts,
      ...(failure.rawExcerpt !== undefined ? { raw_reply_excerpt: failure.rawExcerpt } : {}),
    },
    ...(failure.request !== undefined ? { evaluator_provider_request: failure.request } : {}),
    ...failure.usage,
  };
}

/** An error outcome with a message. */
export function judgeError(message: string): EvaluatorOutcome {
  return {
    status: "error",
    score: 0,
    verdict: "fail",
    hits: [],
    misses: [message],
    reasoning: message,
    error: message,
  };
}
