/**
 * The contract between the runner and a target provider.
 *
 * @module
 */
import type { WorkspaceRepo } from "../schema/workspace_repo.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import type { TargetNeed } from "./target_needs.ts";
import type { SandboxPolicy } from "./sandbox_policy.ts";

/** A chat message sent to an HTTP model (text only; guidelines already folded in). */
export interface ChatMessage {
  /** `system`, `user` or `assistant`. */
  role: "system" | "user" | "assistant";
  /** Text content. */
  content: string;
}

/** What the runner asks a target to do for one case attempt. */
export interface TargetRequest {
  /** The case being evaluated. */
  evalCase: EvalCase;
  /** The rendered prompt text (guidelines first), for CLI targets and `{PROMPT}`. */
  prompt: string;
  /** The chat form of the prompt, for HTTP model targets. */
  messages: ChatMessage[];
  /** Guidelines text alone (`{GUIDELINES}`). */
  guidelines: string;
  /** Attempt number, 0-based (`{ATTEMPT}`). */
  attempt: number;
  /**
   * Trial index of the case, 0-based (`--trials`): trials are independent calls, so the cache
   * key includes it. Absent means 0.
   */
  trial?: number;
  /** Folder of the eval file the case came from (default cwd of CLI targets and judges). */
  evalDir: string;
  /**
   * The case's workspace folder (absolute path): a fresh copy of `workspace_template`, or an
   * empty folder, created by the runner for this case alone. Agent targets (`claude-code`,
   * `codex`) run in it; absent when the runner made no workspace (e.g. judge calls), in which
   * case a target falls back to `evalDir`.
   *
   * @example
   * ```ts ignore
   * const cwd = request.cwd ?? request.evalDir;
   * ```
   */
  cwd?: string;
  /**
   * Folders the workspace borrows from (the repository mirror whose objects a `workspace_repo`
   * checkout uses): a sandboxed target may read them, so `git` works in the workspace.
   */
  borrowed?: readonly string[];
  /** The dataset root: an agent's sandbox hides it (hidden checks, other cases' answers). */
  root?: string;
  /**
   * Where an agent target keeps the raw event stream of this case (absolute path,
   * `<root>/.agentv/logs/<run>/<case>.jsonl`); targets that stream nothing ignore it.
   */
  logPath?: string;
  /** Aborted on timeout or interruption; providers must stop promptly. */
  signal: AbortSignal;
  /** Overrides for this call (judges: `model`, `temperature`, `max_tokens`). */
  overrides?: { model?: string; temperature?: number; max_tokens?: number };
  /**
   * Judge calls: the case being graded (`evalCase` is then a stand-in), so the response cache
   * can name it. Absent on calls of the evaluated target.
   */
  judgeOf?: { dataset: string; eval_id: string };
  /**
   * Judge calls of `agentv calibrate --repeat` / `--orders`: which re-ask this is (`repeat 2`,
   * `order 3`). The response cache keys it, so each re-ask is its own entry. Absent on a run's
   * calls.
   */
  variant?: string;
}

/** What a target returns: the trace plus whatever metrics it can report. */
export interface TargetResponse {
  /** Output messages; the candidate answer is the last assistant content. */
  output_messages: OutputMessage[];
  /** Token counts, when the provider reports them. */
  token_usage?: TokenUsage;
  /** Cost in USD, when reported or computed from `pricing`. */
  cost_usd?: number;
  /** Duration reported by the target itself (the runner measures its own too). */
  duration_ms?: number;
  /** The request as sent, secrets redacted (for `--verbose` and results). */
  request?: unknown;
  /** The raw event-stream log an agent target wrote (`request.logPath`), named in the row. */
  log_path?: string;
  /** Agent turns, when the agent reports them. */
  turns?: number;
  /** Set when the response came from the response cache (`--cache`, `--replay`). */
  cached?: boolean;
}

/** A provider failure with enough information to decide on a retry. */
export class TargetError extends Error {
  /** HTTP status, when there was a response. */
  readonly status?: number;
  /** Whether the runner may retry (408/429/5xx, connection errors, timeouts). */
  readonly retryable: boolean;
  /** Server-requested delay before the next attempt (`Retry-After`), in ms. */
  readonly retryAfterMs?: number;
  /** Attempts made before giving up (set by `invokeWithRetry`). */
  readonly attempts?: number;
  /**
   * What the target produced before it failed (an agent's trace so far, its usage and log), so
   * the error row keeps it.
   */
  readonly partial?: TargetResponse;

  /** Creates a target error. */
  constructor(
    message: string,
    options: {
      status?: number;
      retryable?: boolean;
      retryAfterMs?: number;
      cause?: unknown;
      attempts?: number;
      partial?: TargetResponse;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.partial = options.partial;
    this.name = "TargetError";
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.attempts = options.attempts;
  }
}

/** Retry settings of a target (`max_retries`, `retry_*` in targets.yaml). */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** First backoff delay in ms (default 1000). */
  initialDelayMs: number;
  /** Largest backoff delay in ms (default 60000). */
  maxDelayMs: number;
  /** Multiplier per retry (default 2). */
  backoffFactor: number;
  /** HTTP statuses that are retried (default 408, 429, 500, 502, 503, 504). */
  retryStatusCodes: number[];
}

/** What identifies the calls of a target for the response cache (see `Target.callIdentity`). */
export interface CallIdentity {
  /** Whether calls may be cached. */
  cacheable: boolean;
  /** Request-relevant settings (endpoint without credentials, model, parameters), no secret. */
  settings: Readonly<Record<string, unknown>>;
  /**
   * Values that tell calls apart but must never be written, by setting path (`env.MODE`: a `cli`
   * target's `env` mapping; `headers.x-tenant`: a header whose value carries a secret): the
   * cache keys them by a digest under the user's secret, never in clear.
   */
  sealed?: Readonly<Record<string, string>>;
}

/** A resolved, ready-to-call target. */
export interface Target {
  /** Target name from targets.yaml. */
  readonly name: string;
  /** Provider kind (`openai`, `azure`, `anthropic`, `gemini`, `cli`, `mock`). */
  readonly provider: string;
  /** Name of the target that judges this one's answers. */
  readonly judgeTarget?: string;
  /** Cap on concurrent calls to this target. */
  readonly workers?: number;
  /** The URL its calls go to (HTTP providers), named when a call times out. */
  readonly endpoint?: string;
  /** Retry policy for calls to this target. */
  readonly retry: RetryPolicy;
  /**
   * Per-attempt time limit of this target in ms, replacing the runner's `--timeout` (agent
   * targets with `timeout_seconds`: their own limit plus a grace period to kill the agent).
   */
  readonly timeoutMs?: number;
  /** Every secret value this target holds, so outputs can be redacted. */
  readonly secrets: readonly string[];
  /**
   * What it needs consent for (commands it starts, environment values it sends to a host other
   * than its provider's default; see `target_needs.ts`), each with the setting it is written at.
   */
  readonly needs?: readonly TargetNeed[];
  /**
   * What identifies this target's calls for the response cache (computed on first use): its
   * request-relevant settings with secrets and runner-only settings (workers, retries, judge,
   * pricing, healthcheck, timeouts) removed, and whether its calls may be cached at all (`cli`
   * and agent targets only with `cache: true`; any target can say `cache: false`).
   */
  callIdentity?(): CallIdentity;
  /**
   * The target's `pricing` setting in USD per million tokens (cost of responses that report
   * usage, and the worst case of a call under `--budget-usd`); absent when not priced.
   */
  readonly pricing?: { readonly input_per_mtok: number; readonly output_per_mtok: number };
  /**
   * Output token limit sent with every call unless the request overrides it (`max_tokens` /
   * `max_output_tokens`, or the provider's own default when it always sends one); absent when the
   * provider is sent no limit. `--budget-usd` bounds a call's cost with it.
   */
  readonly maxOutputTokens?: number;
  /**
   * Absolute path of the target's `workspace_template` (relative paths are resolved against the
   * targets file's folder): each case runs in a fresh copy of it (see `TargetRequest.cwd`).
   */
  readonly workspaceTemplate?: string;
  /**
   * The target's `workspace_repo` as written, with the targets file's folder its `url` is
   * relative to: each case runs in a checkout of the commit (see `run/workspace_repo.ts`).
   */
  readonly workspaceRepo?: { readonly repo: WorkspaceRepo; readonly baseDir: string };
  /**
   * The sandbox of the commands it starts for a case (an agent or `cli` target's, from its
   * settings and the run's `--sandbox`); a `workspace_repo`'s setup commands run in it too.
   * Absent: they run unsandboxed.
   */
  readonly sandbox?: SandboxPolicy;
  /**
   * Runs once before the first call (CLI healthcheck); absent when not needed. `evalDir` is the
   * eval file's folder (the default working folder of a command healthcheck).
   */
  healthcheck?(signal: AbortSignal, options?: { evalDir?: string }): Promise<void>;
  /** Sends one attempt. Throws {@link TargetError} on failure. */
  invoke(request: TargetRequest): Promise<TargetResponse>;
}
