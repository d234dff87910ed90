/**
 * The viewer's JSON API over the history store: each handler takes the request's URL (and body)
 * and answers JSON. Read-only, except `POST /api/labels`, which appends a label to
 * `.agentv/labels.jsonl` and adds it to the store. Every value in an answer is data to be shown
 * as text; the pages never parse it as markup.
 *
 * @module
 */
import { pairRuns } from "../compare/pair.ts";
import { summarizeComparison } from "../compare/summary.ts";
import { comparePageData } from "../render/compare_html.ts";
import { projectRow, reportPageData } from "../render/html/render_html_report.ts";
import { appendLabel } from "../results/labels.ts";
import { compareLabels } from "../results/label_agreement.ts";
import { type Label, LabelSchema } from "../schema/label.ts";
import type { ResultRow } from "../schema/result.ts";
import type { HistoryStore } from "../store/history_store.ts";
import { passRate, seriesTrend } from "../store/trend.ts";

/** What the API works on. */
export interface ViewContext {
  /** The history store. */
  store: HistoryStore;
  /** Where labels are appended (`<root>/.agentv/labels.jsonl`); null: the store only. */
  labelsFile: string | null;
  /** The reviewer a label names when the page sends none. */
  reviewer: string;
  /** The clock (labels' `labelled_at`). */
  now(): number;
  /** Runs before the latest in a trend's drift window. */
  last: number;
}

/** An API failure the caller made: a status and a message. */
export class ApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Creates the error. */
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function param(url: URL, name: string, required = false): string | undefined {
  const value = url.searchParams.get(name) ?? undefined;
  if (required && (value === undefined || value === "")) {
    throw new ApiError(400, `The query needs '${name}'`);
  }
  return value === "" ? undefined : value;
}

async function runs(ctx: ViewContext, url: URL): Promise<unknown> {
  const filter: Record<string, string> = {};
  for (const key of ["dataset", "target", "status", "from", "to"]) {
    const value = param(url, key);
    if (value !== undefined) filter[key] = value;
  }
  const list = await ctx.store.listRuns(filter);
  return { runs: list.map((r) => ({ ...r, pass_rate: passRate(r) })) };
}

async function facets(ctx: ViewContext): Promise<unknown> {
  return { ...(await ctx.store.facets()), series: await ctx.store.seriesKeys() };
}

async function runDetail(ctx: ViewContext, url: URL): Promise<unknown> {
  const id = param(url, "id", true)!;
  const detail = await ctx.store.getRun(id);
  if (detail === undefined) throw new ApiError(404, `No run '${id}' in the history store`);
  const rows = await ctx.store.rows(id);
  const labels = await ctx.store.labels(id);
  const agreement = compareLabels(rows, labels);
  return {
    ...detail,
    entry: { ...detail.entry, pass_rate: passRate(detail.entry) },
    labels,
    agreement: {
      labels: agreement.labels,
      compared: agreement.compared,
      disagreements: agreement.disagreements,
    },
    report: reportPageData(rows, { title: `Run ${id}`, source: detail.entry.source }),
  };
}

async function caseHistory(ctx: ViewContext, url: URL): Promise<unknown> {
  const key = {
    dataset: param(url, "dataset") ?? "",
    eval_id: param(url, "eval_id", true)!,
    target: param(url, "target", true)!,
  };
  const history = await ctx.store.caseHistory(key);
  const labels = (await ctx.store.labels()).filter((l) =>
    l.dataset === key.dataset && l.eval_id === key.eval_id && l.target === key.target
  );
  return {
    key,
    history: history.map((h) => ({ ...h, rows: h.rows.map((r) => projectRow(r)) })),
    labels,
  };
}

async function trend(ctx: ViewContext, url: URL): Promise<unknown> {
  const dataset = param(url, "dataset");
  const target = param(url, "target");
  if (dataset === undefined && target === undefined) {
    return { series: await ctx.store.seriesKeys() };
  }
  if (target === undefined) throw new ApiError(400, "The query needs 'target' with 'dataset'");
  return await seriesTrend(ctx.store, { dataset: dataset ?? "", target }, { last: ctx.last });
}

/** One side of a comparison: a run's rows, of one target (needed when the run has several). */
async function side(
  ctx: ViewContext,
  runId: string,
  target: string | undefined,
  dataset: string | undefined,
): Promise<{ rows: ResultRow[]; label: string }> {
  const detail = await ctx.store.getRun(runId);
  if (detail === undefined) throw new ApiError(404, `No run '${runId}' in the history store`);
  if (target === undefined && detail.entry.targets.length > 1) {
    throw new ApiError(
      400,
      `Run '${runId}' ran ${detail.entry.targets.length} targets (${
        detail.entry.targets.join(", ")
      }); choose one to compare`,
    );
  }
  const only: { dataset?: string; target?: string } = {};
  if (target !== undefined) only.target = target;
  if (dataset !== undefined) only.dataset = dataset;
  const rows = await ctx.store.rows(runId, only);
  return { rows, label: target === undefined ? runId : `${runId} (${target})` };
}

async function compare(ctx: ViewContext, url: URL): Promise<unknown> {
  const dataset = param(url, "dataset");
  const base = await side(ctx, param(url, "base", true)!, param(url, "base_target"), dataset);
  const cand = await side(ctx, param(url, "cand", true)!, param(url, "cand_target"), dataset);
  const pairing = pairRuns(base.rows, cand.rows);
  const summary = summarizeComparison(pairing);
  return comparePageData(pairing, summary, {
    labels: { baseline: base.label, candidate: cand.label },
  });
}

async function targets(ctx: ViewContext, url: URL): Promise<unknown> {
  const dataset = param(url, "dataset") ?? "";
  const names = (param(url, "targets", true) ?? "").split(",").filter((t) => t !== "");
  if (names.length < 2 || names.length > 20) {
    throw new ApiError(400, "Compare 2 to 20 targets: targets=a,b");
  }
  const latest = [];
  for (const target of names) {
    const series = await ctx.store.series({ dataset, target });
    const point = series.at(-1);
    if (point === undefined) throw new ApiError(404, `No run of '${dataset}' on '${target}'`);
    latest.push({ point, rows: await ctx.store.rows(point.run_id, { dataset, target }) });
  }
  const [baseline] = latest;
  return {
    dataset,
    targets: latest.map(({ point, rows }, i) => {
      const summary = i === 0 ? null : summarizeComparison(pairRuns(baseline.rows, rows));
      return {
        ...point,
        pass_rate: passRate(point),
        versus_baseline: summary === null ? null : {
          pairs: summary.pairs,
          mean_delta: summary.mean_delta,
          interval: summary.interval,
          wilcoxon_p: summary.wilcoxon.p_value,
          verdict: summary.verdict,
          verdict_line: summary.verdict_line,
        },
      };
    }),
  };
}

/** The largest label body accepted. */
const MAX_LABEL_BYTES = 64 * 1024;

async function addLabel(ctx: ViewContext, req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.length > MAX_LABEL_BYTES) throw new ApiError(413, "A label is at most 64 KiB");
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, "A label is a JSON object");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "A label is a JSON object");
  }
  const reviewer = typeof body.reviewer === "string" && body.reviewer.trim() !== ""
    ? body.reviewer.trim()
    : ctx.reviewer;
  const parsed = LabelSchema.safeParse({
    ...body,
    reviewer,
    note: typeof body.note === "string" ? body.note : "",
    labelled_at: new Date(ctx.now()).toISOString(),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(400, `Not a label: ${issue.path.join(".")}: ${issue.message}`);
  }
  const label: Label = parsed.data;
  const rows = await ctx.store.rows(label.run_id, { dataset: label.dataset, target: label.target });
  const row = rows.find((r) => r.eval_id === label.eval_id && r.trial === label.trial);
  if (row === undefined) throw new ApiError(404, "No such case run in the history store");
  if (label.evaluator !== null && !row.evaluator_results.some((r) => r.name === label.evaluator)) {
    throw new ApiError(400, `The case run has no evaluator '${label.evaluator}'`);
  }
  if (ctx.labelsFile !== null) await appendLabel(ctx.labelsFile, label);
  await ctx.store.addLabels([label]);
  return { label };
}

/** The API's routes: path → handler. */
export const API_ROUTES: Record<
  string,
  (ctx: ViewContext, url: URL, req: Request) => Promise<unknown>
> = {
  "/api/runs": (ctx, url) => runs(ctx, url),
  "/api/facets": (ctx) => facets(ctx),
  "/api/run": (ctx, url) => runDetail(ctx, url),
  "/api/case": (ctx, url) => caseHistory(ctx, url),
  "/api/trend": (ctx, url) => trend(ctx, url),
  "/api/compare": (ctx, url) => compare(ctx, url),
  "/api/targets": (ctx, url) => targets(ctx, url),
  "/api/labels": (ctx, _url, req) => addLabel(ctx, req),
};
