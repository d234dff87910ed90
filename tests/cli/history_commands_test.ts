/**
 * The history commands run in-process on real projects: `agentv trend` (the drift gate: a flat
 * series exits 0, a declining one 1 with --fail-on-degrading), `agentv push` (idempotent by run
 * id), `agentv label import` (JSONL and CSV) and `agentv view` (serves, refuses raw requests that
 * climb or name another host, stops on Ctrl-C).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { openHistoryStore } from "../../lib/store/open_store.ts";
import { readLabels } from "../../lib/results/labels.ts";
import { day, writeRun } from "../_helpers/history_runs.ts";
import { createBufferIO, normalize } from "./_buffer_io.ts";

const FLAT = [0.9, 0.8, 1, 0.7, 0.9, 0.6, 1, 0.8];
const DOWN = [0.3, 0.2, 0.5, 0.1, 0.4, 0.2, 0.5, 0.3];

/** A project with five flat runs of qa on gpt, then `latest`. */
async function project(latest: number[]): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "agentv-history-cli-" });
  const results = join(root, ".agentv", "results");
  for (let i = 0; i < 5; i++) {
    await writeRun(results, { runId: `run-${i}`, startedAt: day(i), scores: FLAT });
  }
  await writeRun(results, { runId: "latest", startedAt: day(9), scores: latest });
  return root;
}

async function cli(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(args, io);
  return { code, out: normalize(io.out(), { root: cwd }), err: normalize(io.err(), { root: cwd }) };
}

Deno.test("agentv trend --fail-on-degrading exits 0 on a flat series and 1 on a declining one", async () => {
  const flat = await project(FLAT);
  const down = await project(DOWN);
  try {
    const ok = await cli(["trend", "--fail-on-degrading"], flat);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /^qa on gpt: 6 run\(s\)$/m);
    assert.match(
      ok.out,
      /^ {2}no significant decline: latest vs the 5 runs before it: mean Δ 0\.000 over 8 cases/m,
    );
    assert.match(
      ok.out,
      /2026-01-10 10:00 +latest +8 +0\.75 \(0\.41–0\.93\) +0\.838 \(0\.740–0\.935\) +\$0\.008 +135 ms/,
    );

    const bad = await cli(["trend", "--fail-on-degrading", "--dataset", "qa", "--last", "3"], down);
    assert.equal(bad.code, 1, bad.out + bad.err);
    assert.match(
      bad.out,
      /^ {2}degrading: latest vs the 3 runs before it: mean Δ -0\.525 over 8 cases/m,
    );
    assert.match(bad.err, /--fail-on-degrading: qa on gpt degrading/);
    // Without the flag the verdict is printed and the exit code stays 0.
    assert.equal((await cli(["trend"], down)).code, 0);

    const json = await cli(["trend", "--json"], down);
    const parsed = JSON.parse(json.out);
    assert.equal(parsed.degrading, true);
    assert.equal(parsed.series[0].points.length, 6);
    assert.equal(parsed.series[0].drift.wilcoxon.p_value, 1 / 256);
  } finally {
    await Deno.remove(flat, { recursive: true });
    await Deno.remove(down, { recursive: true });
  }
});

Deno.test("agentv trend names what the store holds when a filter matches nothing", async () => {
  const root = await project(FLAT);
  try {
    const none = await cli(["trend", "--dataset", "qq"], root);
    assert.equal(none.code, 2);
    assert.match(none.err, /No series matches dataset 'qq'/);
    assert.match(none.err, /did you mean --dataset qa\?; the store holds: qa on gpt/);
    const usage = await cli(["trend", "--last", "0"], root);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /--last must be a whole number from 1 to 10000, got '0'/);
    const help = await cli(["trend", "--help"], root);
    assert.match(help.out, /one-sided Wilcoxon signed-rank test/);
    assert.match(help.out, /Assumptions: cases are independent/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("agentv push stores a run once, by its run id, and reports lines it left out", async () => {
  const root = await project(FLAT);
  try {
    const results = join(root, ".agentv", "results");
    const store = join(root, "team.sqlite");
    const first = await cli(["push", results, "--store", store], root);
    assert.equal(first.code, 0, first.err);
    assert.match(
      first.out,
      /^pushed run latest \(8 row\(s\)\) from \.agentv\/results\/latest\.jsonl$/m,
    );
    const again = await cli(["push", join(results, "latest.jsonl"), "--store", store], root);
    assert.match(again.out, /^updated run latest \(8 row\(s\)\)/m);
    const bad = join(root, "bad.jsonl");
    const good = (await Deno.readTextFile(join(results, "run-0.jsonl"))).split("\n")[0]
      .replaceAll('"run-0"', '"bad-run"');
    await Deno.writeTextFile(bad, `${good}\n{"not": "a row"}\n`);
    const partial = await cli(["push", bad, "--store", store], root);
    assert.equal(partial.code, 1);
    assert.match(partial.err, /bad\.jsonl:2:1: error: Invalid result row/);
    const opened = await openHistoryStore({ store, root });
    try {
      assert.equal((await opened.listRuns()).length, 7);
      assert.equal((await opened.rows("bad-run")).length, 1);
    } finally {
      await opened.close();
    }
    const missing = await cli(["push", "nope.jsonl", "--store", store], root);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /The results file 'nope\.jsonl' does not exist/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("agentv label import adds JSONL and CSV labels once, and locates lines that are not labels", async () => {
  const root = await project(FLAT);
  try {
    const label = {
      run_id: "latest",
      dataset: "qa",
      eval_id: "case-0",
      target: "gpt",
      trial: 0,
      evaluator: null,
      label: "fail",
      score: null,
      reviewer: "ana",
      note: "wrong",
      labelled_at: "2026-02-01T10:00:00Z",
    };
    await Deno.writeTextFile(join(root, "in.jsonl"), `${JSON.stringify(label)}\n{"run_id": 1}\n`);
    const jsonl = await cli(["label", "import", "in.jsonl"], root);
    assert.equal(jsonl.code, 1);
    assert.match(jsonl.err, /in\.jsonl:2:1: error: Line 2: not a label/);
    assert.match(jsonl.out, /^Imported 1 label\(s\) into \.agentv\/labels\.jsonl and the store$/m);
    const csv = [
      "run_id,dataset,eval_id,target,trial,evaluator,label,score,reviewer,note,labelled_at",
      "latest,qa,case-0,gpt,0,,fail,,ana,wrong,2026-02-01T10:00:00Z",
      'latest,qa,case-1,gpt,0,judge,,0.4,bo,"too short, missing ""why""",2026-02-01T11:00:00Z',
    ].join("\r\n");
    await Deno.writeTextFile(join(root, "in.csv"), csv);
    const fromCsv = await cli(["label", "import", "in.csv"], root);
    assert.equal(fromCsv.code, 0, fromCsv.err);
    assert.match(fromCsv.out, /Imported 1 label\(s\) .* \(1 already there\)/);
    const { labels } = await readLabels(join(root, ".agentv", "labels.jsonl"));
    assert.deepEqual(labels.map((l) => [l.eval_id, l.evaluator, l.score, l.note]), [
      ["case-0", null, null, "wrong"],
      ["case-1", "judge", 0.4, 'too short, missing "why"'],
    ]);
    const store = await openHistoryStore({ root });
    try {
      assert.equal((await store.labels("latest")).length, 2);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Sends a raw HTTP request (as a browser never would) and returns the status. */
async function rawStatus(port: number, target: string, host: string): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    );
    let text = "";
    const buffer = new Uint8Array(4096);
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    return Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
  } finally {
    conn.close();
  }
}

Deno.test("agentv view serves on 127.0.0.1, refuses raw requests that climb or name another host, stops on Ctrl-C", async () => {
  const root = await project(FLAT);
  const io = createBufferIO({ cwd: root });
  const exit = runCli(["view"], io);
  try {
    await Promise.race([io.waitFor(/Open http:\/\/127\.0\.0\.1:\d+\/\?token=/), exit]);
    const url = new URL(/Open (\S+)/.exec(io.out())![1]);
    const port = Number(url.port);
    const token = url.searchParams.get("token")!;
    assert.match(io.out(), /^agentv view: 6 run\(s\) in \.agentv\/history\.sqlite$/m);
    assert.match(io.err(), /Indexed 6 new or changed results file\(s\), 0 unchanged/);
    const host = `127.0.0.1:${port}`;
    assert.equal(await rawStatus(port, `/?token=${token}`, host), 200);
    assert.equal(await rawStatus(port, `/../../etc/passwd?token=${token}`, host), 400);
    assert.equal(await rawStatus(port, `/run/..%2f..%2fetc?token=${token}`, host), 400);
    assert.equal(await rawStatus(port, `/?token=${token}`, `attacker.example:${port}`), 421);
    assert.equal(await rawStatus(port, `/`, host), 401);
  } finally {
    io.interrupt();
    assert.equal(await exit, 0, io.err());
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("agentv view refuses a bad port before it opens anything", async () => {
  const root = await Deno.makeTempDir();
  try {
    const bad = await cli(["view", "--port", "99999"], root);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--port must be a port from 0 to 65535, got '99999'/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
