/**
 * The `composite` evaluator: runs its member evaluators concurrently and combines them with an
 * aggregator: `weighted_average` (default), a `code_judge` script, or an `llm_judge`.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { CompositeConfig } from "../schema/evaluator.ts";
import { AggregatorOutputSchema, validateReply } from "../schema/judge_reply.ts";
import type { EvaluatorResult } from "../schema/result.ts";
import { lastJsonObject, permitFor } from "./code_judge.ts";
import { evaluatorCommand } from "../dataset/dataset_commands.ts";
import { DEFAULT_AGGREGATOR_TEMPLATE, templateValues } from "./judge_prompt.ts";
import { judgeError } from "./judge_reply.ts";
import { gradeFreeform } from "./llm_judge.ts";
import { childEnv, processBaseEnv } from "../targets/child_env.ts";
import { DRY_RUN_SKIP, skippedOutcome } from "./outcome.ts";
import { tail } from "./script_process.ts";
import { runJudgeScript } from "./judge_sandbox.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";
import { clampScore, scoreToVerdict } from "./verdict.ts";

type Aggregator = CompositeConfig["aggregator"];

/**
 * Runs every member through `context.runEvaluator` (concurrently; `llm_judge` members keep
 * their own prompt and rubrics) and aggregates. Member results are nested under
 * `evaluator_results`. A member that errored makes the composite an error (its score would be
 * a guess); a counted member that forces `fail` (a failed required rubric) forces the
 * composite's verdict too.
 *
 * @example
 * ```ts ignore
 * import { evaluateComposite } from "./composite.ts";
 * const outcome = await evaluateComposite({
 *   type: "composite", name: "gate", weight: 1,
 *   evaluators: [safetyJudge, qualityJudge],
 *   aggregator: { type: "weighted_average", weights: { safety: 0.3, quality: 0.7 } },
 * }, context);
 * ```
 */
export async function evaluateComposite(
  config: CompositeConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const aggregator = config.aggregator;
  const weights = aggregator.type === "weighted_average" ? aggregator.weights ?? {} : {};
  const members = await Promise.all(
    config.evaluators.map(async (member) => {
      const result = await context.runEvaluator(member, context);
      const weight = Object.hasOwn(weights, member.name) ? weights[member.name] : member.weight;
      return { ...result, weight };
    }),
  );
  let outcome: EvaluatorOutcome;
  const ran = members.filter((m) => m.status !== "skipped");
  if (context.dryRun === true && (aggregator.type === "code_judge" || ran.length === 0)) {
    return { ...skippedOutcome(DRY_RUN_SKIP), evaluator_results: members };
  }
  switch (aggregator.type) {
    case "weighted_average":
      outcome = weightedAverage(ran, aggregator);
      break;
    case "code_judge":
      outcome = await codeAggregate(members, { ...config, aggregator }, context);
      break;
    case "llm_judge":
      outcome = await llmAggregate(members, aggregator, context);
      break;
  }
  const failed = members.filter((m) => m.status === "error");
  if (failed.length > 0 && outcome.status === "ok") {
    const why = failed.map((m) => `member '${m.name}' failed: ${m.error ?? m.reasoning ?? "error"}`)
      .join("; ");
    outcome = { ...outcome, status: "error", error: why, misses: [...outcome.misses, why] };
  }
  return { ...outcome, evaluator_results: members };
}

/** Reads `details.forces_fail` of a result. */
function forcesFail(result: EvaluatorResult): string | undefined {
  const d = result.details;
  if (d === null || typeof d !== "object" || Array.isArray(d)) return undefined;
  const reason = (d as Record<string, unknown>).forces_fail;
  return typeof reason === "string" && reason.trim() !== "" ? reason : undefined;
}

/**
 * Weighted average of member scores, following the case rule: members with weight > 0 count
 * (all-zero weights count every member equally); hits and misses of counted members, prefixed
 * with `[member] `; reasoning `member: reasoning` joined by `; `.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { weightedAverage } from "./composite.ts";
 * const m = { type: "llm_judge", status: "ok" as const, verdict: "pass" as const, hits: [], misses: [] };
 * const { score } = weightedAverage([
 *   { ...m, name: "a", score: 1, weight: 0.3 },
 *   { ...m, name: "b", score: 0.5, weight: 0.7 },
 * ], { type: "weighted_average" });
 * assert.equal(score.toFixed(2), "0.65");
 * ```
 */
export function weightedAverage(
  members: readonly EvaluatorResult[],
  aggregator: Extract<Aggregator, { type: "weighted_average" }>,
): EvaluatorOutcome {
  const anyPositive = members.some((m) => m.weight > 0);
  const counted = anyPositive ? members.filter((m) => m.weight > 0) : members;
  const w = (m: EvaluatorResult) => anyPositive ? m.weight : 1;
  const total = counted.reduce((s, m) => s + w(m), 0);
  const score = total > 0
    ? clampScore(counted.reduce((s, m) => s + w(m) * clampScore(m.score), 0) / total)
    : 0;
  const forced = counted.map((m) => [m.name, forcesFail(m)] as const).filter(([, r]) => r);
  const reasons = counted.filter((m) => m.reasoning?.trim()).map((m) =>
    `${m.name}: ${m.reasoning!.trim()}`
  );
  return {
    status: "ok",
    score,
    verdict: forced.length > 0 ? "fail" : scoreToVerdict(score),
    hits: counted.flatMap((m) => m.hits.map((h) => `[${m.name}] ${h}`)),
    misses: counted.flatMap((m) => m.misses.map((h) => `[${m.name}] ${h}`)),
    ...(reasons.length > 0 ? { reasoning: reasons.join("; ") } : {}),
    ...(forced.length > 0
      ? { details: { forces_fail: forced.map(([n, r]) => `[${n}] ${r}`).join("; ") } }
      : {}),
    evaluator_provider_request: {
      aggregator: "weighted_average",
      ...(aggregator.weights !== undefined ? { weights: aggregator.weights } : {}),
    },
  };
}

/** Member results keyed by name, without their recorded judge requests (prompt size). */
function resultsByName(
  members: readonly EvaluatorResult[],
  keepRequests: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of members) {
    if (keepRequests) {
      out[m.name] = m;
    } else {
      const { evaluator_provider_request: _dropped, ...rest } = m;
      out[m.name] = rest;
    }
  }
  return out;
}

async function codeAggregate(
  members: readonly EvaluatorResult[],
  composite: CompositeConfig & { aggregator: Extract<Aggregator, { type: "code_judge" }> },
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const aggregator = composite.aggregator;
  const found = evaluatorCommand(composite, { evalDir: context.evalDir });
  if (found === undefined) {
    return judgeError("code_judge aggregator needs `path` or `script` (the command to run)");
  }
  // What runs is the argv of the need the run's consent holds, nothing else.
  const permitted = permitFor(found.need, context);
  if (permitted instanceof Error) return judgeError(permitted.message);
  const argv = permitted.argv;
  const request: Record<string, unknown> = { aggregator: "code_judge", script: argv };
  const fail = (message: string) => ({
    ...judgeError(message),
    evaluator_provider_request: request,
  });
  const cwd = await resolveCwd(aggregator.cwd, context);
  if ("error" in cwd) return fail(cwd.error);
  request.cwd = cwd.path;
  const payload = JSON.stringify({ results: resultsByName(members, true) }, null, 2);
  const run = await runJudgeScript(permitted, {
    cwd: cwd.path,
    stdin: payload,
    timeoutMs: context.timeoutMs,
    signal: context.signal,
    env: context.env !== undefined ? childEnv(context.env) : processBaseEnv(),
    clearEnv: true,
  }, { label: `Code aggregator of '${composite.name}'`, settings: aggregator, context });
  const stderr = run.stderr.trim() === "" ? "" : `: ${tail(run.stderr.trim(), 2000)}`;
  if (run.spawnError !== undefined) {
    return fail(`Code aggregator could not start '${argv[0]}': ${run.spawnError}`);
  }
  if (run.aborted) return fail("interrupted");
  if (run.timedOut) {
    return fail(`Code aggregator timed out after ${context.timeoutMs}ms and was killed${stderr}`);
  }
  if (run.code !== 0) {
    return fail(`Code aggregator exited with code ${run.code}${stderr || " (no stderr)"}`);
  }
  const reply = lastJsonObject(run.stdout);
  const checked = reply === undefined
    ? { ok: false as const, error: "no JSON object on stdout" }
    : validateReply(AggregatorOutputSchema, reply);
  if (!checked.ok) {
    return fail(
      `Code aggregator printed no usable result (${checked.error}); expected ` +
        `{"score": 0..1, "verdict"?, "hits"?, "misses"?, "reasoning"?}; stdout: ${
          tail(run.stdout.trim(), 500)
        }`,
    );
  }
  const out = checked.value;
  const score = clampScore(out.score);
  return {
    status: "ok",
    score,
    verdict: out.verdict ?? scoreToVerdict(score),
    hits: out.hits,
    misses: out.misses,
    ...(out.reasoning !== undefined ? { reasoning: out.reasoning } : {}),
    ...(out.details !== undefined ? { details: out.details } : {}),
    evaluator_provider_request: request,
  };
}

async function llmAggregate(
  members: readonly EvaluatorResult[],
  aggregator: Extract<Aggregator, { type: "llm_judge" }>,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  return await gradeFreeform(aggregator.prompt, {
    defaultTemplate: DEFAULT_AGGREGATOR_TEMPLATE,
    values: {
      ...templateValues(context),
      evaluator_results_json: JSON.stringify(resultsByName(members, false), null, 2),
    },
    ...(aggregator.model !== undefined ? { model: aggregator.model } : {}),
  }, context);
}

/** Resolves an aggregator `cwd` against the eval folder, inside the dataset root. */
async function resolveCwd(
  cwd: string | undefined,
  context: EvaluationContext,
): Promise<{ path: string } | { error: string }> {
  if (cwd === undefined) return { path: context.evalDir };
  const wanted = resolve(context.evalDir, cwd);
  let real: string;
  try {
    real = await Deno.realPath(wanted);
  } catch {
    return { error: `Aggregator cwd '${cwd}' does not exist (resolved to ${wanted})` };
  }
  const root = await Deno.realPath(context.root).catch(() => resolve(context.root));
  const rel = relative(root, real);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    return {
      error: `Aggregator cwd '${cwd}' is outside the dataset root ${root}; use a folder inside it`,
    };
  }
  return { path: real };
}
