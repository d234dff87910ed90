/**
 * Helpers for judged-evaluator tests: temp projects, judge targets, recorded judge prompts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type EvaluatorResult, type ResultRow, runEval } from "../../../mod.ts";
import type { RecordedRequest } from "../../_helpers/provider_servers.ts";
import { tempTree, type Tree } from "../../_helpers/temp_tree.ts";

/** A temp project: `.agentv/targets.yaml` plus files under it; removed on dispose. */
export function project(files: Record<string, string>): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-judged-" });
}

/** The messages text of a recorded judge request (openai or anthropic), by role. */
export function promptOf(request: RecordedRequest): { system: string; user: string } {
  // deno-lint-ignore no-explicit-any
  const body = request.body as any;
  // deno-lint-ignore no-explicit-any
  const text = (c: any): string =>
    typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p.text ?? "").join("") : "";
  // deno-lint-ignore no-explicit-any
  const messages = body.messages as any[];
  const sys = messages.find((m) => m.role === "system");
  const system = sys ? text(sys.content) : text(body.system ?? "");
  const user = messages.filter((m) => m.role === "user").map((m) => text(m.content)).join("\n");
  return { system, user };
}

/** A targets file: a mock `default` answering target and an openai `judge` at `judgeUrl`. */
export function targets(judgeUrl: string, extra: { answer?: string; judge?: string } = {}) {
  return [
    "targets:",
    "  - name: default",
    "    provider: mock",
    "    response: The capital of France is Paris.",
    "    judge_target: judge",
    ...(extra.answer ? [extra.answer] : []),
    "  - name: judge",
    "    provider: openai",
    `    base_url: ${judgeUrl}`,
    "    api_key: sk-judge-key",
    "    model: judge-model",
    "    max_retries: 0",
    ...(extra.judge ? [extra.judge] : []),
    "",
  ].join("\n");
}

/** A dataset with one case `c1` and the given evaluators. */
export function evalFile(evaluators: string, extra = ""): string {
  return [
    "evalcases:",
    "  - id: c1",
    "    expected_outcome: Names Paris",
    "    input: What is the capital of France?",
    "    expected_output: Paris",
    ...(evaluators ? ["    evaluators:", evaluators] : []),
    ...(extra ? [extra] : []),
    "",
  ].join("\n");
}

/** Runs `evals/ds.yaml` (or `file`) under `dir` through `runEval`; returns the rows. */
export async function run(
  dir: string,
  options: {
    judgeTarget?: string;
    env?: Record<string, string>;
    file?: string;
    allowRun?: boolean;
  } = {},
): Promise<ResultRow[]> {
  const { rows } = await runEval({
    files: [join(dir, options.file ?? "evals/ds.yaml")],
    env: options.env ?? {},
    cwd: dir,
    timeoutMs: 10_000,
    ...(options.allowRun ? { allowRun: true } : {}),
    ...(options.judgeTarget ? { judgeTarget: options.judgeTarget } : {}),
  });
  return rows;
}

/** A freeform judge reply. */
export const FREEFORM = JSON.stringify({
  score: 0.9,
  hits: ["names Paris"],
  misses: [],
  reasoning: "ok",
});

/** The evaluator result called `name` in `row`. */
export function evaluator(row: ResultRow, name: string): EvaluatorResult {
  const found = row.evaluator_results.find((e) => e.name === name);
  assert.ok(found, `no evaluator ${name} in ${JSON.stringify(row.evaluator_results)}`);
  return found;
}

/** A rubric judge reply answering each `[id, satisfied]`. */
export function checks(...items: [string, boolean][]): string {
  return JSON.stringify({
    checks: items.map(([id, satisfied]) => ({ id, satisfied, reasoning: `${id} reason` })),
    overall_reasoning: "overall",
  });
}

/** A judge that scores by the `SCORE=x` marker in its prompt and answers rubric checks. */
export function markerJudge(request: RecordedRequest): string {
  const { system, user } = promptOf(request);
  if (system.includes('"checks"')) {
    const ids = [...user.matchAll(/^- \[([^\]]+)\]/gm)].map((m) => m[1]);
    return checks(...ids.map((id) => [id, id !== "no"] as [string, boolean]));
  }
  const score = Number(/SCORE=([0-9.]+)/.exec(user)?.[1] ?? "0.5");
  return JSON.stringify({ score, hits: [`h${score}`], misses: [], reasoning: `r${score}` });
}
