/**
 * Running eval files against a real agent CLI in the end-to-end tests: a fresh project (its
 * targets file and eval files), a private home that is also the agent's temp folder (agents write
 * session notes and error reports there; both go with the home), and `runEval` with trust given,
 * one worker and a generous timeout. The rows come back by case id.
 *
 * @module
 */
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import type { ToolCall } from "../../lib/schema/message.ts";
import { project } from "./run_project.ts";
import { tempTree } from "./temp_tree.ts";

/** A finished run of an agent project; disposing it removes the project and the home. */
export interface AgentRun {
  /** The rows by case id. */
  rows: Record<string, ResultRow>;
  /** The project folder. */
  dir: string;
  /** The agent's home (and temp folder). */
  home: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** What {@link runAgentProject} runs. */
export interface AgentProject {
  /** Names the home folder's prefix (`agentv-<agent>-home-`). */
  agent: string;
  /** The project's `.agentv/targets.yaml`. */
  targets: string;
  /** The eval files and anything else the project holds. */
  files: Record<string, string>;
  /** Files in the agent's home (its settings). */
  homeFiles?: Record<string, string>;
  /** The agent's own variables, beside `PATH`, `HOME` and `TMPDIR`. */
  env?: (home: string) => Record<string, string>;
  workers?: number;
  keepWorkspaces?: boolean;
}

/** Runs the project's `evals/` against its targets, with a private home. */
export async function runAgentProject(options: AgentProject): Promise<AgentRun> {
  const home = await tempTree(options.homeFiles ?? {}, {
    prefix: `agentv-${options.agent}-home-`,
  });
  const p = await project({ ".agentv/targets.yaml": options.targets, ...options.files });
  const dispose = async () => {
    await p[Symbol.asyncDispose]();
    await home[Symbol.asyncDispose]();
  };
  const { rows } = await runEval({
    files: [join(p.dir, "evals")],
    cwd: p.dir,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home.dir,
      TMPDIR: home.dir,
      ...options.env?.(home.dir),
    },
    timeoutMs: 120_000,
    workers: options.workers ?? 1,
    // Agent targets are commands: a dataset's own targets file needs trust.
    allowRun: true,
    ...(options.keepWorkspaces ? { keepWorkspaces: true } : {}),
  }).catch(async (error) => {
    await dispose();
    throw error;
  });
  return {
    rows: Object.fromEntries(rows.map((r) => [r.eval_id, r])),
    dir: p.dir,
    home: home.dir,
    [Symbol.asyncDispose]: dispose,
  };
}

/** The tool calls of a row, in order. */
export function toolCalls(row: ResultRow): ToolCall[] {
  return row.output_messages.flatMap((m) => m.tool_calls ?? []);
}

/**
 * The case every agent CLI's end-to-end test runs: read `greeting.txt` and change it to say
 * hello, world, graded by a `tool_trajectory` over the agent's own tool names (`steps`, in
 * order, with each status) and a `file_changes` check that only the greeting changed.
 */
export function shellAndEditCase(steps: readonly [tool: string, status: "ok" | "error"][]): string {
  return `evalcases:
  - id: edit-greeting
    expected_outcome: The greeting says hello, world
    input: Read greeting.txt, then change it to say hello, world.
    execution:
      workspace_template: ../template
    evaluators:
      - name: steps
        type: tool_trajectory
        mode: in_order
        expected:
${
    steps.map(([tool, status]) => `          - {tool: ${tool}, status: ${status}}\n`).join("")
  }      - name: files
        type: file_changes
        expected:
          - {path: greeting.txt, change: modified, contains: "hello, world"}
        allow_other_changes: false
`;
}
