/**
 * A project judged by a loopback OpenAI-style judge that follows a script: each case has a true
 * verdict (what people say) and the judge passes it with probability Se when it truly passes and
 * 1 − Sp when it truly fails, decided once per case by a seeded generator (so the confusion matrix
 * is scripted and repeatable); a case listed as `noisy` instead gets a fresh seeded score on every
 * call. The evaluated target is a loopback OpenAI-style model too (so a test can see it is not
 * called again). The run goes through `runEval` with a results file and its run record; the
 * labels file holds what people say.
 */
import { join } from "node:path";
import { createRng } from "../../lib/compare/statistics.ts";
import type { Label } from "../../lib/schema/label.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { type ProviderServer, startProviderServer } from "../_helpers/provider_servers.ts";
import { project, rowsOf } from "../_helpers/run_project.ts";
import type { Tree } from "../_helpers/temp_tree.ts";

/** How the judge errs. */
export interface JudgeScript {
  /** P(judge passes | people pass). */
  se: number;
  /** P(judge fails | people fail). */
  sp: number;
  /** Seed of the judge's choices. */
  seed: number;
  /** Cases whose score is drawn afresh on every call. */
  noisy?: readonly number[];
}

/** A scripted project: its folder, judge, rows, and people's verdicts. */
export interface ScriptedProject extends AsyncDisposable {
  /** The project folder (the dataset root). */
  dir: string;
  /** The judge server. */
  judge: ProviderServer;
  /** The evaluated target's server. */
  target: ProviderServer;
  /** The script the judge follows now (may be changed between runs). */
  script: JudgeScript;
  /** The true verdict of each case (index = case number). */
  truth: boolean[];
  /** Runs every case; returns the results file and its rows. */
  run(name: string): Promise<{ out: string; rows: ResultRow[] }>;
  /** Writes people's labels of `rows` (the truth; `evaluator` null or a name) to `file`. */
  writeLabels(file: string, rows: readonly ResultRow[], evaluator?: string | null): Promise<void>;
}

/** The grade of case `index` under `script` (one draw per call for noisy cases). */
function grade(script: JudgeScript, truth: boolean, index: number, noise: () => number): string {
  let pass: boolean;
  if (script.noisy?.includes(index)) pass = noise() < 0.5;
  else {
    const u = createRng(script.seed * 100_003 + index)();
    pass = truth ? u < script.se : u >= script.sp;
  }
  const score = pass ? 0.9 : 0.1;
  return JSON.stringify({
    score,
    hits: pass ? ["meets the outcome"] : [],
    misses: pass ? [] : ["misses the outcome"],
    reasoning: `case ${index}: ${pass ? "good" : "bad"} answer`,
  });
}

/** A project of `count` cases, `passShare` of them truly passing (seeded). */
export async function scriptedProject(
  count: number,
  script: JudgeScript,
  options: { passShare?: number; truthSeed?: number } = {},
): Promise<ScriptedProject> {
  const rng = createRng(options.truthSeed ?? 11);
  const truth = Array.from({ length: count }, () => rng() < (options.passShare ?? 0.5));
  const noise = createRng(script.seed + 1);
  const state = { script };
  const judge = startProviderServer("openai", {
    fallback: {
      type: "reply",
      text: (request) => {
        const text = JSON.stringify(request.body?.messages ?? "");
        const index = Number(/question c(\d+)\b/.exec(text)?.[1] ?? -1);
        return grade(state.script, truth[index] ?? false, index, noise);
      },
    },
  });
  const target = startProviderServer("openai", { fallback: "an answer" });
  const cases = truth.map((_, i) =>
    `  - id: c${i}\n    expected_outcome: A good answer\n    input: question c${i}\n` +
    "    evaluators:\n      - {name: quality, type: llm_judge}\n"
  ).join("");
  let tree: Tree;
  try {
    tree = await project({
      ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${target.url}
    api_key: sk-target
    model: target-model
    max_retries: 0
    judge_target: judge
  - name: judge
    provider: openai
    base_url: ${judge.url}
    api_key: sk-judge
    model: judge-model
    max_retries: 0
`,
      "evals/qa.yaml": `evalcases:\n${cases}`,
    });
  } catch (e) {
    await judge.close();
    await target.close();
    throw e;
  }
  return {
    dir: tree.dir,
    judge,
    target,
    get script() {
      return state.script;
    },
    set script(next: JudgeScript) {
      state.script = next;
    },
    truth,
    async run(name) {
      const out = join(tree.dir, ".agentv/results", `${name}.jsonl`);
      await runEval({
        files: [join(tree.dir, "evals/qa.yaml")],
        env: {},
        cwd: tree.dir,
        out,
        workers: 8,
        timeoutMs: 30_000,
        keepRows: false,
      });
      return { out, rows: await rowsOf(out) };
    },
    async writeLabels(file, rows, evaluator = null) {
      const lines = rows.map((row): Label => ({
        run_id: row.run_id!,
        dataset: row.dataset,
        eval_id: row.eval_id,
        target: row.target,
        trial: row.trial,
        evaluator,
        label: truth[Number(row.eval_id.slice(1))] ? "pass" : "fail",
        score: null,
        reviewer: "ana",
        note: `ana on ${row.eval_id}`,
        labelled_at: "2026-11-27T10:00:00.000Z",
      }));
      await Deno.writeTextFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n", {
        append: true,
      });
    },
    async [Symbol.asyncDispose]() {
      await judge.close();
      await target.close();
      await tree[Symbol.asyncDispose]();
    },
  };
}
