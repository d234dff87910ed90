/** Helpers for runner tests: temp dataset folders, in-memory cases, a counting chat server. */
import { join } from "node:path";
import type { LoadedEvalSet } from "../../lib/run/run_eval.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import type { EvaluatorConfig } from "../../lib/schema/evaluator.ts";

/** A temp folder with `.agentv/targets.yaml`; remove it with `await using`. */
export async function tempDataset(targetsYaml: string): Promise<
  { dir: string; targetsFile: string; [Symbol.asyncDispose](): Promise<void> }
> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv-runner-" }));
  await Deno.mkdir(join(dir, ".agentv"));
  const targetsFile = join(dir, ".agentv", "targets.yaml");
  await Deno.writeTextFile(targetsFile, targetsYaml);
  return {
    dir,
    targetsFile,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** A `contains` evaluator config. */
export function contains(value: string, extra: Partial<EvaluatorConfig> = {}): EvaluatorConfig {
  return {
    type: "contains",
    name: "contains",
    weight: 1,
    value,
    mode: "all",
    case_sensitive: true,
    ...extra,
  } as EvaluatorConfig;
}

/** A normalised case with a user question and the given evaluators. */
export function evalCase(
  id: string,
  options: { target?: string; evaluators?: EvaluatorConfig[]; question?: string } = {},
): EvalCase {
  return {
    id,
    dataset: "ds",
    expected_outcome: "answers",
    input: [{ role: "user", content: options.question ?? `question ${id}` }],
    expected_output: [],
    execution: { target: options.target ?? "default" },
    evaluator: "llm_judge",
    evaluators: options.evaluators ?? [contains("ok")],
    guideline_paths: [],
    file_paths: [],
  };
}

/** A loaded set of `cases` living in `dir`. */
export function set(
  dir: string,
  cases: EvalCase[],
  diagnostics: LoadedEvalSet["diagnostics"] = [],
): LoadedEvalSet {
  return {
    file: join(dir, "evals", "ds.yaml"),
    root: dir,
    evalDir: join(dir, "evals"),
    cases,
    diagnostics,
  };
}

/** A Chat Completions server that counts concurrent requests and follows a per-request plan. */
export function chatServer(
  plan: (n: number, body: { messages: { content: string }[] }, headers: Headers) =>
    | { text: string; latencyMs?: number }
    | { status: number; body?: unknown; retryAfter?: string; latencyMs?: number },
) {
  let inFlight = 0;
  let maxInFlight = 0;
  let count = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const n = count++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const body = await req.json();
      const step = plan(n, body, req.headers);
      if (step.latencyMs) {
        await new Promise((r) => {
          const t = setTimeout(r, step.latencyMs);
          req.signal.addEventListener("abort", () => {
            clearTimeout(t);
            r(undefined);
          });
        });
      }
      if ("status" in step) {
        return Response.json(step.body ?? { error: { message: `status ${step.status}` } }, {
          status: step.status,
          headers: step.retryAfter ? { "retry-after": step.retryAfter } : {},
        });
      }
      return Response.json({
        choices: [{ index: 0, message: { role: "assistant", content: step.text } }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      });
    } finally {
      inFlight--;
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    get requests() {
      return count;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
