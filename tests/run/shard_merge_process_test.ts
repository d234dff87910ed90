/**
 * Scale-out end to end: `agentv run --shard i/4` as four real processes started at once on one
 * machine, then `agentv merge`, gives the same cases (each exactly once) and the same scores as
 * one run of the same eval file; and a shard killed with SIGKILL after its first row, then
 * resumed (`--resume`), merges just as well.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { shardOf } from "../../lib/run/plan.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { startProviderServer, type Step } from "../_helpers/provider_servers.ts";
import { cli, project, rowsOf, runUntilKilled } from "../_helpers/run_project.ts";

/** The permissions of `deno task agentv`, the network narrowed to loopback. */
const FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net=127.0.0.1",
  "--allow-run",
  "--unstable-worker-options",
];

const SHARDS = 4;
const CASES = 24;

/**
 * `CASES` cases: the target echoes the input, so case `ci` always passes its first check and
 * passes the second only when i is a multiple of 3 (score 1, else 0.5).
 */
function evalFile(): string {
  let text = "dataset: scale\nevalcases:\n";
  for (let i = 0; i < CASES; i++) {
    text += `  - id: c${i}\n    expected_outcome: echoes\n    input: word-${i}\n` +
      `    evaluators:\n      - {name: own, type: contains, value: word-${i}}\n` +
      `      - {name: third, type: contains, value: "${i % 3 === 0 ? "word" : "nope"}"}\n`;
  }
  return text;
}

/** Whether shard `i` holds a case that scores 0.5 (a fail verdict): its run then exits 1. */
function failing(i: number): boolean {
  return [...Array(CASES).keys()].some((c) =>
    c % 3 !== 0 && shardOf("scale", `c${c}`, SHARDS) === i
  );
}

/** Starts `agentv run evals <args>` as a real process in `dir`. */
function spawnRun(dir: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...FLAGS, join(REPO_ROOT, "main.ts"), "run", "evals", ...args],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Each row's (dataset, id, trial) and score, in that order: what two runs must agree on. */
function scores(rows: readonly ResultRow[]): [string, number][] {
  return rows.map((r) => [`${r.dataset}/${r.eval_id}#${r.trial}`, r.score] as [string, number])
    .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

/** What the eval file's construction says each case scores. */
function expectedScores(): [string, number][] {
  return [...Array(CASES).keys()].map((i) =>
    [`scale/c${i}#0`, i % 3 === 0 ? 1 : 0.5] as [
      string,
      number,
    ]
  ).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

Deno.test("four agentv run --shard i/4 processes in parallel + agentv merge = one run of the same cases", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    echo: true\n",
    "evals/a.yaml": evalFile(),
  });
  const children = [...Array(SHARDS).keys()].map((i) =>
    spawnRun(p.dir, ["--shard", `${i}/${SHARDS}`, "--out", `shards/${i}.jsonl`, "--quiet"])
  );
  const outputs = await Promise.all(children.map((c) => c.output()));
  const decoder = new TextDecoder();
  for (const [i, output] of outputs.entries()) {
    assert.equal(output.code, failing(i) ? 1 : 0, decoder.decode(output.stderr));
  }
  const shardRows = await Promise.all(
    outputs.map((_, i) => rowsOf(join(p.dir, `shards/${i}.jsonl`))),
  );
  // The shards are disjoint, and each case lies in the shard its hash names.
  for (const [i, rows] of shardRows.entries()) {
    for (const row of rows) assert.equal(shardOf(row.dataset, row.eval_id, SHARDS), i, row.eval_id);
  }

  const merged = await cli(
    ["merge", ...outputs.map((_, i) => `shards/${i}.jsonl`), "-o", "all.jsonl"],
    p.dir,
  );
  assert.equal(merged.code, 1, merged.err); // the 0.5 cases fail the gate, as in one run
  assert.equal(merged.err, "");
  const single = await cli(["run", "evals", "--out", "single.jsonl", "--quiet"], p.dir);
  assert.equal(single.code, 1, single.err);

  const mergedRows = await rowsOf(join(p.dir, "all.jsonl"));
  const singleRows = await rowsOf(join(p.dir, "single.jsonl"));
  assert.deepEqual(scores(mergedRows), expectedScores());
  assert.deepEqual(scores(singleRows), expectedScores());
  const record = await readRunRecord(runRecordPath(join(p.dir, "all.jsonl")));
  const singleRecord = await readRunRecord(runRecordPath(join(p.dir, "single.jsonl")));
  assert.equal(record.status, "finished");
  assert.equal(record.merged_from?.length, SHARDS);
  assert.deepEqual(record.datasets, singleRecord.datasets);
  assert.deepEqual(
    [record.summary?.total, record.summary?.verdicts, record.summary?.scores.mean],
    [
      singleRecord.summary?.total,
      singleRecord.summary?.verdicts,
      singleRecord.summary?.scores.mean,
    ],
  );
  assert.deepEqual(record.summary?.histogram, singleRecord.summary?.histogram);
});

/** The last message of an OpenAI chat request, as text: the server echoes it back. */
function lastMessage(body: { messages?: { content?: unknown }[] }): string {
  const content = body.messages?.at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

Deno.test("a shard killed (SIGKILL) after its first row, then resumed, merges into the same run", async () => {
  const echo: Step = { type: "reply", text: (r) => lastMessage(r.body) };
  await using server = startProviderServer("openai", { fallback: echo });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: sk-test\n    model: m\n`,
    "evals/a.yaml": evalFile(),
  });
  const sizes = [...Array(SHARDS).keys()].map((i) =>
    [...Array(CASES).keys()].filter((c) => shardOf("scale", `c${c}`, SHARDS) === i).length
  );
  const killed = sizes.indexOf(Math.max(...sizes));
  assert.ok(sizes[killed] >= 2, "the killed shard has a case left after its first");
  const shardArgs = (i: number) => ["--shard", `${i}/${SHARDS}`, "--workers", "1", "--quiet"];
  for (let i = 0; i < SHARDS; i++) {
    if (i === killed) continue;
    await cli(["run", "evals", "--out", `shards/${i}.jsonl`, ...shardArgs(i)], p.dir);
  }

  // The killed shard's first call is answered, its second never is: it is killed while waiting.
  server.enqueue(echo, { type: "hang" });
  const callsBefore = server.requests.length;
  const out = `shards/${killed}.jsonl`;
  // A `[1/n]` progress line is printed once the first row is written; the kill waits for the
  // second call too, so the hanging answer is the one the killed shard waits on.
  const { killed: sent, progress, stderr, status } = await runUntilKilled(
    ["run", "evals", "--out", out, ...shardArgs(killed).slice(0, -1)],
    p.dir,
    { rows: 1, beforeKill: () => server.waitForRequests(callsBefore + 2), flags: FLAGS },
  );
  assert.ok(sent, `no row was written:\n${progress}\n${stderr}`);
  assert.equal(status.success, false);
  assert.equal((await readRunRecord(runRecordPath(join(p.dir, out)))).status, "running");
  assert.equal((await rowsOf(join(p.dir, out))).length, 1);

  // Merging now names the unfinished shard and the cases it never ran.
  const files = [...Array(SHARDS).keys()].map((i) => `shards/${i}.jsonl`);
  const early = await cli(["merge", ...files, "-o", "early.jsonl"], p.dir);
  assert.equal(early.code, 1);
  assert.match(early.err, new RegExp(`shards/${killed}\\.jsonl: the shard run never finished`));
  assert.match(early.err, new RegExp(`${sizes[killed] - 1} case run\\(s\\) of the eval files`));

  const resumed = await cli(["run", "--resume", out, ...shardArgs(killed)], p.dir);
  assert.equal(resumed.code, failing(killed) ? 1 : 0, resumed.err);
  const merged = await cli(["merge", ...files, "-o", "all.jsonl"], p.dir);
  assert.equal(merged.code, 1, merged.err); // the 0.5 cases fail the gate
  assert.equal(merged.err, "");
  const rows = await rowsOf(join(p.dir, "all.jsonl"));
  assert.deepEqual(scores(rows), expectedScores());
  const record = await readRunRecord(runRecordPath(join(p.dir, "all.jsonl")));
  assert.equal(record.status, "finished");
  assert.deepEqual(record.merged_from?.map((m) => m.status), Array(SHARDS).fill("finished"));
  const single = await cli(["run", "evals", "--out", "single.jsonl", "--quiet"], p.dir);
  assert.equal(single.code, 1, single.err);
  assert.deepEqual(scores(await rowsOf(join(p.dir, "single.jsonl"))), expectedScores());
});
