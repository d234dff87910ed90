/**
 * The viewer's API and guard, called as a plain `(req) => Response` function over a store filled
 * from real results files: one suite, run against SQLite (`view_api_test.ts`) and PostgreSQL
 * (`view_api_postgres_test.ts`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { HistoryStore } from "../../lib/store/history_store.ts";
import { indexResults } from "../../lib/store/index_results.ts";
import { createViewApp, type ViewApp } from "../../lib/view/view_app.ts";
import { readLabels } from "../../lib/results/labels.ts";
import { day, writeRun } from "../_helpers/history_runs.ts";

/** The XSS payloads the HTML report is tested with. */
export const HOSTILE = "</script><img src=x onerror=alert(1)>";
export const HOSTILE_ANSWER = `${HOSTILE}\u2028<script>alert(2)</script>&amp;`;

export const PORT = 8123;
export const TOKEN = "test-token-0123456789";
const ORIGIN = `http://127.0.0.1:${PORT}`;

/** Writes the fixture runs: a flat series, a declining latest run, a second target, a hostile run. */
export async function writeFixtureRuns(dir: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await writeRun(dir, {
      runId: `flat-${i}`,
      startedAt: day(i),
      scores: [1, 0.9, 0.7, 1, 0.5, 0.9],
    });
  }
  await writeRun(dir, { runId: "drop", startedAt: day(6), scores: [0.2, 0.1, 0.3, 0.2, 0.1, 0.4] });
  await writeRun(dir, {
    runId: "other",
    startedAt: day(6),
    target: "claude",
    scores: [1, 1, 0.8, 1, 0.9, 0.9],
  });
  await writeRun(dir, {
    runId: `hostile-${HOSTILE}`,
    startedAt: day(7),
    dataset: `<b>${HOSTILE}</b>`,
    target: `<img src=y onerror=alert(3)>`,
    scores: [0.5, 1],
    answer: () => HOSTILE_ANSWER,
    extra: (i) => ({
      eval_id: `${HOSTILE}-${i}`,
      misses: [HOSTILE],
      workspace: {
        template: null,
        path: null,
        added: [`${HOSTILE}.txt`],
        modified: [],
        deleted: [],
        diff: `+++ b/${HOSTILE}.txt\n+${HOSTILE_ANSWER}\n`,
        diff_truncated: false,
      },
      output_messages: [{
        role: "assistant",
        tool_calls: [{ tool: "<img src=y onerror=alert(4)>", input: { q: HOSTILE } }],
      }, { role: "assistant", content: HOSTILE_ANSWER }],
    }),
  });
}

/** A request to the app as a browser on the viewer's page would send it. */
export function call(
  app: ViewApp,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; token?: "none" } = {},
): Promise<Response> {
  const api = path.startsWith("/api/");
  const headers: Record<string, string> = { host: `127.0.0.1:${PORT}`, ...init.headers };
  let url = `http://127.0.0.1:${PORT}${path}`;
  if (init.token !== "none") {
    if (api) headers["x-agentv-token"] ??= TOKEN;
    else url += `${path.includes("?") ? "&" : "?"}token=${TOKEN}`;
  }
  const req = new Request(url, { method: init.method ?? "GET", headers, body: init.body });
  // A Request normalises `..` away; Deno.serve hands over the target as it was sent.
  Object.defineProperty(req, "url", { value: url });
  return app.handler(req);
}

async function getJson(app: ViewApp, path: string): Promise<Record<string, unknown>> {
  const res = await call(app, path);
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

function postLabel(app: ViewApp, body: unknown, headers: Record<string, string> = {}) {
  return call(app, "/api/labels", {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** Runs the API and guard suite over `store` (empty), writing files under `dir`. */
export async function viewContract(
  t: Deno.TestContext,
  store: HistoryStore,
  dir: string,
): Promise<void> {
  const results = join(dir, "results");
  const labelsFile = join(dir, "labels.jsonl");
  await writeFixtureRuns(results);
  const report = await indexResults(store, [results]);
  assert.equal(report.indexed, 8);
  const app = createViewApp({
    store,
    port: PORT,
    token: TOKEN,
    labelsFile,
    reviewer: "ana",
    now: () => Date.UTC(2026, 1, 1, 12),
  });

  await t.step("the run list filters by dataset, target, status and date", async () => {
    const all = await getJson(app, "/api/runs");
    assert.equal((all.runs as unknown[]).length, 8);
    const claude = await getJson(app, `/api/runs?${q({ target: "claude" })}`);
    assert.deepEqual((claude.runs as { run_id: string }[]).map((r) => r.run_id), ["other"]);
    const dated = await getJson(
      app,
      `/api/runs?${q({ dataset: "qa", from: day(4).slice(0, 10) })}`,
    );
    assert.deepEqual((dated.runs as { run_id: string }[]).map((r) => r.run_id).sort(), [
      "drop",
      "flat-4",
      "other",
    ]);
    const first = (all.runs as { pass_rate: number; run_id: string }[]).find((r) =>
      r.run_id === "flat-0"
    )!;
    assert.equal(first.pass_rate, 4 / 6);
    const facets = await getJson(app, "/api/facets");
    assert.deepEqual(facets.statuses, ["finished"]);
  });

  await t.step("a run comes with its rows, groups and labels", async () => {
    const run = await getJson(app, `/api/run?${q({ id: "flat-0" })}`);
    const rows = (run.report as { rows: { eval_id: string }[] }).rows;
    assert.deepEqual(rows.map((r) => r.eval_id), [0, 1, 2, 3, 4, 5].map((i) => `case-${i}`));
    assert.equal((run.groups as unknown[]).length, 1);
    assert.deepEqual(run.labels, []);
    const missing = await call(app, `/api/run?${q({ id: "nope" })}`);
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error, /No run 'nope'/);
  });

  await t.step("a label is appended to the labels file and the store, and counted", async () => {
    const res = await postLabel(app, {
      run_id: "flat-0",
      dataset: "qa",
      eval_id: "case-0",
      target: "gpt",
      trial: 0,
      evaluator: null,
      label: "fail",
      score: null,
      note: `wrong ${HOSTILE}`,
    });
    assert.equal(res.status, 200, await res.clone().text());
    const { label } = await res.json();
    assert.equal(label.reviewer, "ana");
    assert.equal(label.labelled_at, "2026-02-01T12:00:00.000Z");
    const file = await readLabels(labelsFile);
    assert.deepEqual(file.labels, [label]);
    assert.deepEqual(await store.labels("flat-0"), [label]);
    const run = await getJson(app, `/api/run?${q({ id: "flat-0" })}`);
    assert.deepEqual(run.agreement, { labels: 1, compared: 1, disagreements: 1 });
    const evaluatorLabel = await postLabel(app, {
      run_id: "flat-0",
      dataset: "qa",
      eval_id: "case-2",
      target: "gpt",
      trial: 0,
      evaluator: "judge",
      label: null,
      score: 0.7,
      reviewer: "bo",
    });
    assert.equal(evaluatorLabel.status, 200);
    assert.equal((await readLabels(labelsFile)).labels.length, 2);
  });

  await t.step("a label that names nothing, or is not a label, is refused", async () => {
    const base = {
      run_id: "flat-0",
      dataset: "qa",
      eval_id: "case-0",
      target: "gpt",
      trial: 0,
      evaluator: null,
    };
    const cases: [unknown, number, RegExp][] = [
      [{ ...base, label: null, score: null }, 400, /a label needs/],
      [{ ...base, label: "maybe", score: null }, 400, /label/],
      [{ ...base, eval_id: "case-99", label: "pass", score: null }, 404, /No such case run/],
      [{ ...base, evaluator: "nobody", label: "pass", score: null }, 400, /no evaluator 'nobody'/],
      [[1, 2], 400, /JSON object/],
    ];
    for (const [body, status, message] of cases) {
      const res = await postLabel(app, body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.match((await res.json()).error, message);
    }
    assert.equal((await readLabels(labelsFile)).labels.length, 2);
  });

  await t.step("a case's history lists its runs in order", async () => {
    const history = await getJson(
      app,
      `/api/case?${q({ dataset: "qa", eval_id: "case-0", target: "gpt" })}`,
    );
    const runs = (history.history as { run_id: string }[]).map((h) => h.run_id);
    assert.deepEqual(runs, ["flat-0", "flat-1", "flat-2", "flat-3", "flat-4", "drop"]);
    assert.equal((history.labels as unknown[]).length, 1);
  });

  await t.step("a trend has a point per run and the drift verdict", async () => {
    const series = await getJson(app, "/api/trend");
    assert.equal((series.series as unknown[]).length, 3);
    const trend = await getJson(app, `/api/trend?${q({ dataset: "qa", target: "gpt" })}`);
    assert.equal((trend.points as unknown[]).length, 6);
    assert.equal((trend.drift as { verdict: string }).verdict, "degrading");
  });

  await t.step("two runs compare with the statistics of agentv compare", async () => {
    const data = await getJson(app, `/api/compare?${q({ base: "flat-4", cand: "drop" })}`);
    const summary = data.summary as { pairs: number; verdict: string; losses: number };
    assert.deepEqual([summary.pairs, summary.losses], [6, 6]);
    assert.equal((data.cases as unknown[]).length, 6);
    const targets = await getJson(
      app,
      `/api/targets?${q({ dataset: "qa", targets: "gpt,claude" })}`,
    );
    const list = targets.targets as { target: string; versus_baseline: unknown }[];
    assert.deepEqual(list.map((t) => t.target), ["gpt", "claude"]);
    assert.equal(list[0].versus_baseline, null);
    const bad = await call(app, `/api/targets?${q({ dataset: "qa", targets: "gpt" })}`);
    assert.equal(bad.status, 400);
  });

  await t.step("hostile text comes back as the same text, in JSON only", async () => {
    const runId = `hostile-${HOSTILE}`;
    const res = await call(app, `/api/run?${q({ id: runId })}`);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    const run = await res.json();
    assert.equal(run.entry.run_id, runId);
    assert.equal(run.report.rows[0].candidate_answer, HOSTILE_ANSWER);
    assert.equal(run.report.rows[0].dataset, `<b>${HOSTILE}</b>`);
  });

  await t.step("requests without the token, with another Host or with .. are refused", async () => {
    const refused: [string, Parameters<typeof call>[2], number][] = [
      ["/api/runs", { token: "none" }, 401],
      ["/api/runs", { headers: { "x-agentv-token": "wrong" } }, 401],
      [`/api/runs?token=${TOKEN}`, { token: "none" }, 401], // the API wants the header
      ["/", { token: "none" }, 401],
      ["/run?token=wrong", { token: "none" }, 401],
      ["/api/runs", { headers: { host: "evil.example:8123" } }, 421],
      ["/api/runs", { headers: { host: `127.0.0.1:${PORT + 1}` } }, 421],
      ["/api/runs", { headers: { host: "" } }, 421],
      ["/%2e%2e/%2e%2e/etc/passwd", {}, 400],
      ["/api/..%2fruns", {}, 400],
      ["/api/%252e%252e/runs", {}, 400],
      ["/run%5c..%5c", {}, 400],
      ["/api/runs", { method: "PUT" }, 405],
      ["/api/runs", { method: "DELETE" }, 405],
      ["/api/labels", {}, 405],
      ["/nothing-here", {}, 404],
    ];
    for (const [path, init, status] of refused) {
      const res = await call(app, path, init);
      assert.equal(res.status, status, `${init?.method ?? "GET"} ${path} ${JSON.stringify(init)}`);
      await res.body?.cancel();
    }
  });

  await t.step("a label from another origin or not as JSON is refused", async () => {
    const body = {
      run_id: "flat-0",
      dataset: "qa",
      eval_id: "case-1",
      target: "gpt",
      trial: 0,
      evaluator: null,
      label: "pass",
      score: null,
    };
    const attempts: [Record<string, string>, number][] = [
      [{ origin: "http://evil.example" }, 403],
      [{ origin: `http://127.0.0.1:${PORT + 1}` }, 403],
      [{ origin: "null" }, 403],
      [{ "sec-fetch-site": "cross-site" }, 403],
      [{ "content-type": "text/plain" }, 415],
      [{ "x-agentv-token": "wrong" }, 401],
    ];
    for (const [headers, status] of attempts) {
      const res = await postLabel(app, body, headers);
      assert.equal(res.status, status, JSON.stringify(headers));
      await res.body?.cancel();
    }
    const noOrigin = await call(app, "/api/labels", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(noOrigin.status, 403);
    await noOrigin.body?.cancel();
    assert.equal((await readLabels(labelsFile)).labels.length, 2);
  });

  await t.step("every answer forbids framing, caching and sniffing", async () => {
    for (const path of ["/", "/api/runs", "/nothing-here"]) {
      const res = await call(app, path);
      assert.equal(res.headers.get("x-frame-options"), "DENY");
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
      await res.body?.cancel();
    }
    const page = await (await call(app, "/run?id=x")).text();
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1] ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
}
