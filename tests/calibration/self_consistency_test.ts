/**
 * `agentv calibrate --repeat K` and `--orders K` against loopback judges: the stored answers are
 * judged again (no target call), the one case with seeded noise, and only it, is named unstable;
 * cache keys keep the repeats apart (a second calibrate with the cache asks nothing); a judge that
 * favours the first rubric item listed is caught by the rubric orders.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, project } from "../_helpers/run_project.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { scriptedProject } from "./_scripted_judge.ts";

const CACHE_KEY = "calibrate-test-cache-secret-0123456789abcdef";

interface Unstable {
  eval_id: string;
  unstable: boolean;
  samples: number;
  flip_rate: number;
  verdicts: Record<string, number>;
}

Deno.test("--repeat 5: only the case whose judge is noisy is named unstable; the target is not called", async () => {
  await using p = await scriptedProject(10, { se: 0.9, sp: 0.8, seed: 21, noisy: [3] });
  const { out } = await p.run("run");
  const runCalls = p.judge.requests.length;
  assert.equal(runCalls, 10);
  assert.equal(p.target.requests.length, 10);
  const { code, out: stdout, err } = await cli(
    ["calibrate", out, "--repeat", "5", "--json"],
    p.dir,
  );
  assert.equal(code, 0, err);
  // 10 answers × 5 re-asks, all to the judge; the target is not called again.
  assert.equal(p.judge.requests.length, runCalls + 50);
  assert.equal(p.target.requests.length, 10);
  const { repeat } = JSON.parse(stdout).consistency;
  assert.equal(repeat.kind, "repeat");
  assert.equal(repeat.k, 5);
  const items = repeat.items as Unstable[];
  assert.equal(items.length, 10);
  assert.deepEqual(items.filter((i) => i.unstable).map((i) => i.eval_id), ["c3"]);
  const noisy = items.find((i) => i.eval_id === "c3")!;
  assert.equal(noisy.samples, 5);
  // Flip rate: the share of the 5 verdicts that differ from the most common one.
  const most = Math.max(noisy.verdicts.pass, noisy.verdicts.fail);
  assert.equal(noisy.flip_rate, (5 - most) / 5);
  for (const steady of items.filter((i) => i.eval_id !== "c3")) assert.equal(steady.flip_rate, 0);
  const [quality] = repeat.evaluators;
  assert.deepEqual([quality.evaluator, quality.items, quality.unstable], ["quality", 10, 1]);
  assert.equal(quality.unstable_share.value, 0.1);
  // The text names the unstable answer.
  const text = await cli(["calibrate", out, "--repeat", "3"], p.dir);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /No labels: agreement with people was not measured/);
  assert.match(text.out, /Self-consistency: each answer judged 3 times/);
});

Deno.test("--repeat with the cache: each re-ask has its own entry; calibrating again asks nothing", async () => {
  await using p = await scriptedProject(4, { se: 1, sp: 1, seed: 2, noisy: [1] });
  const { out } = await p.run("run");
  const env = { AGENTV_CACHE_KEY: CACHE_KEY };
  const args = ["calibrate", out, "--repeat", "4", "--cache", "readwrite", "--json"];
  const first = await cli(args, p.dir, { env });
  assert.equal(first.code, 0, first.err);
  const afterFirst = p.judge.requests.length;
  // 4 answers × 4 re-asks: 16 distinct entries (the same prompt, told apart by the re-ask).
  assert.equal(afterFirst, 4 + 16);
  const second = await cli(args, p.dir, { env });
  assert.equal(second.code, 0, second.err);
  assert.equal(p.judge.requests.length, afterFirst, "every re-ask answered from the cache");
  const items = (out: string) =>
    JSON.parse(out).consistency.repeat.items.map((i: { eval_id: string; scores: number[] }) => [
      i.eval_id,
      i.scores,
    ]);
  assert.deepEqual(items(second.out), items(first.out));
});

/** A rubric judge that marks item `a` satisfied only when it is listed first, for case `c1`. */
function primacyJudge() {
  return startProviderServer("openai", {
    fallback: {
      type: "reply",
      text: (request) => {
        const prompt = String(request.body.messages.at(-1).content);
        const ids = [...prompt.matchAll(/^- \[(\w+)\]/gm)].map((m) => m[1]);
        const biased = /question c1\b/.test(prompt);
        return JSON.stringify({
          checks: ids.map((id) => ({
            id,
            satisfied: !biased || id !== "a" || ids[0] === "a",
            reasoning: "checked",
          })),
          overall_reasoning: "done",
        });
      },
    },
  });
}

Deno.test("--orders 3: a judge swayed by the order of the rubric items is named; a steady one is not", async () => {
  await using judge = primacyJudge();
  const cases = [0, 1, 2].map((i) =>
    `  - id: c${i}\n    expected_outcome: Good\n    input: question c${i}\n    evaluators:\n` +
    "      - name: rubric\n        type: rubric\n        rubrics:\n" +
    "          - {id: a, description: Is accurate, required: false}\n" +
    "          - {id: b, description: Is brief, required: false}\n" +
    "          - {id: c, description: Is civil, required: false}\n"
  ).join("");
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: x\n" +
      "    judge_target: judge\n  - name: judge\n    provider: openai\n" +
      `    base_url: ${judge.url}\n    api_key: sk-judge\n    model: m\n    max_retries: 0\n`,
    "evals/qa.yaml": `evalcases:\n${cases}`,
  });
  const out = join(p.dir, "run.jsonl");
  await runEval({ files: [join(p.dir, "evals/qa.yaml")], env: {}, cwd: p.dir, out });
  const { code, out: stdout, err } = await cli(
    ["calibrate", out, "--orders", "3", "--json"],
    p.dir,
  );
  assert.equal(code, 0, err);
  const { orders } = JSON.parse(stdout).consistency;
  assert.equal(orders.kind, "order");
  const unstable = (orders.items as Unstable[]).filter((i) => i.unstable).map((i) => i.eval_id);
  assert.deepEqual(unstable, ["c1"]);
  // The written order lists a first (1.0, pass); the two shuffles that do not score 2/3.
  const c1 = (orders.items as (Unstable & { scores: number[] })[]).find((i) => i.eval_id === "c1")!;
  assert.equal(c1.scores[0], 1);
  assert.ok(c1.scores.slice(1).some((s) => Math.abs(s - 2 / 3) < 1e-9), String(c1.scores));
  // Each order is its own prompt: 3 answers × 3 orders after the run's 3 calls.
  assert.equal(judge.requests.length, 3 + 9);
});

Deno.test("--repeat says why it cannot re-ask: no run record, or eval files changed since the run", async () => {
  await using p = await scriptedProject(2, { se: 1, sp: 1, seed: 4 });
  const { out } = await p.run("run");
  await Deno.writeTextFile(join(p.dir, "evals/qa.yaml"), "\n# edited\n", { append: true });
  const changed = await cli(["calibrate", out, "--repeat", "2"], p.dir);
  assert.equal(changed.code, 2);
  assert.match(
    changed.err,
    /Cannot re-ask the judge: the eval file evals\/qa\.yaml changed since the run/,
  );
  await Deno.remove(`${out}.run.json`);
  const bare = await cli(["calibrate", out, "--repeat", "2"], p.dir);
  assert.equal(bare.code, 2);
  assert.match(bare.err, /has no run record/);
});
