/**
 * A whole run of a few cases, each scored by the module judge of its own, through `runEval` with
 * a results file: the rows as written, the run record, and the evaluator result of each case.
 */
import { join } from "node:path";
import { type ResultRow, runEval } from "../../mod.ts";
import { project, rowsOf } from "../_helpers/run_project.ts";

/** One case: its id and the YAML of its evaluators list. */
export interface JudgedCase {
  id: string;
  evaluators: string;
}

/** What {@link runJudgedCases} saw. */
export interface JudgedRun {
  /** Rows read back from the results file, by case id. */
  rows: Record<string, ResultRow>;
  /** The run record's status (`finished`, `running`, …). */
  status: string;
  /** The dataset root (gone once the call returned). */
  root: string;
}

/** Runs `cases` over a mock target in a fresh project holding `files`. */
export async function runJudgedCases(
  cases: JudgedCase[],
  files: Record<string, string>,
  options: {
    env?: Record<string, string>;
    timeoutMs?: number;
    /** Called with the project folder once its files are written. */
    beforeRun?: (root: string) => Promise<void>;
  } = {},
): Promise<JudgedRun> {
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    response: answer\n",
    "evals/a.yaml": "evalcases:\n" +
      cases.map((c) =>
        `  - id: ${c.id}\n    expected_outcome: x\n    input: question\n    evaluators:\n${c.evaluators}`
      ).join(""),
    ...files,
  });
  await options.beforeRun?.(p.dir);
  const out = join(p.dir, "out.jsonl");
  await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: options.env ?? {},
    cwd: p.dir,
    out,
    workers: 2,
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  const rows = Object.fromEntries((await rowsOf(out)).map((r) => [r.eval_id, r]));
  const record = JSON.parse(await Deno.readTextFile(`${out}.run.json`));
  return { rows, status: record.status, root: p.dir };
}

/** The YAML of one module judge evaluator. */
export function moduleJudge(module: string, extra = ""): string {
  return `      - name: judge\n        type: code_judge\n        module: ${module}\n` +
    `        timeout_seconds: 60\n${extra}`;
}
