/**
 * A two-case project (a passing and a failing case against an openai target whose key is
 * `${{ AGENT_TOKEN }}`) for the tests that run it with many keys and compare the rows.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readResults, type ResultRow, runEval } from "../../mod.ts";
/** The answer the loopback model gives every case. */
export const ANSWER = "The capital is Paris.";

/** A passing and a failing case against an openai target whose key is `${{ AGENT_TOKEN }}`. */
export function files(url: string): Record<string, string> {
  return {
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${url}
    api_key: \${{ AGENT_TOKEN }}
    model: m
`,
    "evals/pass.yaml": `dataset: geo
evalcases:
  - id: capital-pass
    conversation_id: conv-1
    expected_outcome: Names Paris
    input: Capital of France?
    evaluators:
      - name: mentions
        type: contains
        value: Paris
`,
    "evals/fail.yaml": `dataset: geo
evalcases:
  - id: capital-fail
    conversation_id: conv-2
    expected_outcome: Names London
    input: Capital of England?
    evaluators:
      - name: mentions
        type: contains
        value: London
`,
  };
}

/** A row without what changes from run to run (times). */
export function stable(row: ResultRow): unknown {
  const { timestamp, run_id, duration_ms: _d, trace_summary, ...rest } = row;
  assert.match(timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  // Each run has its own id; the redactor never touches it.
  assert.match(run_id ?? "", /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{8}$/);
  const { duration_ms: _t, ...trace } = trace_summary ?? {};
  return { ...rest, trace_summary: trace };
}

/** Runs both cases with `token` as the key; returns the rows by id and the summary. */
export async function runWith(dir: string, token: string, out: string) {
  const { summary } = await runEval({
    files: ["evals/pass.yaml", "evals/fail.yaml"],
    env: { AGENT_TOKEN: token },
    cwd: dir,
    // The dataset's targets file sends ${{ AGENT_TOKEN }} to a loopback server: consent.
    allowRun: true,
    out,
    workers: 1,
    timeoutMs: 60_000,
    keepRows: false,
  });
  const results = await readResults(out);
  assert.deepEqual(results.bad_lines, [], `token ${JSON.stringify(token)}: unreadable lines`);
  assert.equal(results.partial_line, undefined);
  const rows = Object.fromEntries(results.rows.map((r) => [r.eval_id, r]));
  return { rows, summary };
}

/** Every distinct printable-ASCII substring of 1 to `max` characters of `text`. */
export function substrings(text: string, max: number): string[] {
  const out = new Set<string>();
  for (let n = 1; n <= max; n++) {
    for (let i = 0; i + n <= text.length; i++) {
      const s = text.slice(i, i + n);
      if (/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(s)) out.add(s);
    }
  }
  return [...out];
}

/** Values a short key could collide with: agentv's words, literals, digits, punctuation. */
export const NAMED = [
  "k",
  "ok",
  "fail",
  "error",
  "pass",
  "true",
  "false",
  "null",
  "x",
  "none",
  "ollama",
  "skipped",
  "borderline",
  ..."0123456789",
  ...'{}[]:",\\.-_/',
];
