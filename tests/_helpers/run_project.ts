/**
 * Helpers for whole-run tests: temp projects, the CLI in-process, results files, small suites.
 *
 * @module
 */
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { readResults, type ResultRow, runEval, type RunEvent } from "../../mod.ts";
import { createBufferIO, REPO_ROOT } from "../cli/_buffer_io.ts";
import { tempTree, type Tree } from "./temp_tree.ts";

/** A secret value that must never be written anywhere. */
export const SECRET = "sk-test-SECRET-123";

/** A temp project with `.git` (the dataset root) and the given files. */
export function project(files: Record<string, string>): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-run-", git: true });
}

/** Options of {@link cli}. */
export interface CliOptions {
  /** The environment (default empty). */
  env?: Record<string, string>;
  /** Interrupt (a first Ctrl-C) as soon as the output matches this marker. */
  interruptWhen?: RegExp;
  /** The clock: fixed ms or a function (default `Date.now`). */
  now?: number | (() => number);
}

/** Runs the CLI in-process in `cwd`; returns the exit code and the output. */
export async function cli(args: string[], cwd: string, options: CliOptions = {}) {
  const io = createBufferIO({
    cwd,
    env: options.env ?? {},
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  if (options.interruptWhen !== undefined) {
    // Not awaited: the run itself is awaited below; this only fires on the marker.
    io.waitFor(options.interruptWhen).then(() => io.interrupt());
  }
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** What {@link runUntilSignalled} saw. */
export interface SignalledRun {
  /** Whether the signal was sent (else the process ended before `when` held). */
  signalled: boolean;
  /** Everything it printed on stdout. */
  stdout: string;
  /** Everything it printed on stderr. */
  stderr: string;
  /** How it ended. */
  status: Deno.CommandStatus;
}

/**
 * Starts `agentv <args>` as a real process in `cwd` (`deno run <flags> main.ts`, `-A` unless
 * `flags` says otherwise), reads its stdout, and sends it `signal` once `when(stdout so far)`
 * holds and `beforeSignal` (e.g. waiting for a call to reach the server) has resolved.
 */
export async function runUntilSignalled(
  args: string[],
  cwd: string,
  options: {
    when: (stdout: string) => boolean;
    signal: Deno.Signal;
    beforeSignal?: () => Promise<unknown>;
    flags?: readonly string[];
  },
): Promise<SignalledRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.flags ?? ["-A"]), join(REPO_ROOT, "main.ts"), ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let stdout = "";
  let signalled = false;
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    stdout += chunk;
    if (!signalled && options.when(stdout)) {
      await options.beforeSignal?.();
      child.kill(options.signal);
      signalled = true;
    }
  }
  return { signalled, stdout, stderr: await stderr, status: await child.status };
}

/** What {@link runUntilKilled} saw. */
export interface KilledRun {
  /** Whether the process was killed (else it ended before `rows` rows). */
  killed: boolean;
  /** Everything it printed on stdout. */
  progress: string;
  /** Everything it printed on stderr. */
  stderr: string;
  /** How it ended. */
  status: Deno.CommandStatus;
}

/**
 * {@link runUntilSignalled} with SIGKILL, once `rows` progress lines (`[n/total]`, each printed
 * after its row is written) are out and `beforeKill` has resolved.
 */
export async function runUntilKilled(
  args: string[],
  cwd: string,
  options: { rows: number; beforeKill?: () => Promise<unknown>; flags?: readonly string[] },
): Promise<KilledRun> {
  const run = await runUntilSignalled(args, cwd, {
    when: (stdout) => (stdout.match(/^\[\d+\/\d+\]/gm) ?? []).length >= options.rows,
    signal: "SIGKILL",
    ...(options.beforeKill ? { beforeSignal: options.beforeKill } : {}),
    ...(options.flags ? { flags: options.flags } : {}),
  });
  return { killed: run.signalled, progress: run.stdout, stderr: run.stderr, status: run.status };
}

/** The rows of a results file. */
export async function rowsOf(path: string): Promise<ResultRow[]> {
  return (await readResults(path)).rows;
}

/** Runs eval files (relative to `dir`) through `runEval` and returns the rows in id order. */
export async function lib(
  dir: string,
  files: string[],
  options: {
    target?: string;
    targetsFile?: string;
    timeoutMs?: number;
    allowRun?: boolean;
  } = {},
): Promise<ResultRow[]> {
  const { rows } = await runEval({ files, env: {}, cwd: dir, timeoutMs: 5000, ...options });
  return rows.sort((a, b) => a.eval_id.localeCompare(b.eval_id));
}

/** Rows keyed by `eval_id`. */
export function byId(rows: ResultRow[]): Record<string, ResultRow> {
  return Object.fromEntries(rows.map((r) => [r.eval_id, r]));
}

/** A YAML list of `contains` cases. */
export function containsSuite(dataset: string, cases: [string, string][], extra = ""): string {
  return `dataset: ${dataset}\n${extra}evalcases:\n` +
    cases.map(([id, value]) =>
      `  - id: ${id}\n    expected_outcome: Mentions ${value}\n    input: Say ${value}\n` +
      `    evaluators:\n      - type: contains\n        value: ${JSON.stringify(value)}\n`
    ).join("");
}

/** A targets file with one `default` mock target answering `response`. */
export const mockTargets = (response: string, extra = "") =>
  `targets:\n  - name: default\n    provider: mock\n    response: ${
    JSON.stringify(response)
  }\n${extra}`;

/** Runs one case against `targetsYaml` through `runEval`; returns the result, events and file text. */
export async function runOne(
  targetsYaml: string,
  options: { env?: Record<string, string>; evaluators?: string; fetch?: typeof fetch } = {},
) {
  await using p = await project({
    ".agentv/targets.yaml": targetsYaml,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: says hi
    input:
      - role: system
        content: Be brief.
      - role: user
        content: Say hi
    evaluators:
${options.evaluators ?? "      - type: contains\n        value: hi\n"}`,
  });
  const events: RunEvent[] = [];
  const out = join(p.dir, "o.jsonl");
  const result = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: options.env ?? {},
    cwd: p.dir,
    // The test's own targets (often a loopback server given `${{ VAR }}` values): consented.
    allowRun: true,
    out,
    timeoutMs: 5000,
    onEvent: (e) => events.push(e),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const fileText = await Deno.readTextFile(out);
  return { ...result, events, fileText };
}

/** Retry settings that keep backoff short in tests. */
export const FAST_RETRY = "    retry_initial_delay_ms: 10\n    retry_max_delay_ms: 50\n";

/** Runs one case against a mock target with the given tool calls and answer. */
export async function evaluate(
  answer: string,
  evaluators: string,
  options: { toolCalls?: string; files?: Record<string, string>; extraCase?: string } = {},
) {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ${JSON.stringify(answer)}
${options.toolCalls ? `    tool_calls:\n${options.toolCalls}` : ""}`,
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: question
${options.extraCase ?? ""}    evaluators:
${evaluators}`,
    ...options.files,
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    timeoutMs: 5000,
    // The evaluators under test are the test's own: their scripts may run.
    allowRun: true,
  });
  return rows[0];
}
