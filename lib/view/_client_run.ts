/**
 * Browser code of the viewer's run page: the HTML report's page (tiles, filters, cases, the case
 * view) fed from the API, with charts under the summary (score histogram, per-evaluator means,
 * duration distribution), the human labels beside the automatic verdict (with the count of
 * disagreements), and in each case view the labels given so far, a form to add one, and a link
 * to the case's history.
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** The run page (plain JS text; needs CLIENT_REPORT, CLIENT_VIEW and CLIENT_CHARTS). */
export const CLIENT_RUN = String.raw`
function caseRunKey(x) {
  return JSON.stringify([String(x.run_id), String(x.dataset), String(x.eval_id), String(x.target), Number(x.trial)]);
}
function latestOnly(labels) {
  const last = new Map();
  for (const l of labels) last.set(caseRunKey(l) + "|" + String(l.evaluator) + "|" + String(l.reviewer), l);
  return Array.from(last.values());
}
function verdictFor(row, evaluator) {
  if (evaluator === null) return row.status === "ok" ? row.verdict : "fail";
  for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
    if (r && String(r.name) === evaluator) return r.status === "ok" ? r.verdict : null;
  }
  return null;
}
function disagrees(label, row) {
  const automatic = verdictFor(row, label.evaluator);
  if (label.label === null || automatic === null || automatic === undefined) return null;
  return (label.label === "pass") !== (automatic !== "fail");
}
function agreementOf(labels, rows) {
  const byKey = new Map();
  for (const row of rows) byKey.set(caseRunKey(row), row);
  const out = { labels: 0, compared: 0, disagreements: 0 };
  for (const l of latestOnly(labels)) {
    const row = byKey.get(caseRunKey(l));
    if (!row) continue;
    out.labels++;
    const d = disagrees(l, row);
    if (d !== null) out.compared++;
    if (d) out.disagreements++;
  }
  return out;
}
function runCharts(rows) {
  const scores = rows.filter((r) => r.status === "ok" && isNum(r.score)).map((r) => r.score);
  const hist = histogramBars(scores, 10, 0, 1, (a, b) => a.toFixed(1));
  const means = new Map();
  for (const row of rows) {
    for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
      if (!r || r.status !== "ok" || !isNum(r.score)) continue;
      const e = means.get(String(r.name)) || { sum: 0, n: 0 };
      e.sum += r.score;
      e.n++;
      means.set(String(r.name), e);
    }
  }
  const evaluators = uniqueSorted(Array.from(means.keys())).map((name) => ({ label: name, value: means.get(name).sum / means.get(name).n }));
  const durations = rows.map((r) => r.duration_ms).filter(isNum);
  const lo = durations.length ? Math.min.apply(null, durations) : 0;
  const hi = durations.length ? Math.max.apply(null, durations) : 1;
  return el("div", { class: "charts", id: "run-charts" }, [
    barChart({ id: "chart-histogram", title: "Scores (" + scores.length + " scored)", bars: hist }),
    barChart({ id: "chart-evaluators", title: "Mean score per evaluator", bars: evaluators, max: 1, format: (v) => v.toFixed(2) }),
    barChart({ id: "chart-durations", title: "Durations (" + fmtMs(lo) + " to " + fmtMs(hi) + ")", bars: histogramBars(durations, 10, lo, hi === lo ? lo + 1 : hi, (a) => fmtMs(a)) }),
  ]);
}
function labelLine(l, row) {
  const d = disagrees(l, row);
  const what = (l.label === null ? "" : l.label) + (l.score === null ? "" : (l.label === null ? "" : ", ") + "score " + Number(l.score).toFixed(2));
  return el("li", { class: "label-item" + (d ? " disagree" : "") }, [
    badge(l.label === null ? "score" : l.label), " ",
    el("strong", { text: String(l.reviewer) }), " ",
    el("span", { text: (l.evaluator === null ? "case" : "evaluator " + String(l.evaluator)) + ": " + what }),
    d ? el("span", { class: "disagree-note", text: " \u2260 agentv " + String(verdictFor(row, l.evaluator)) }) : null,
    l.note ? el("div", { class: "label-note", text: String(l.note) }) : null,
    el("div", { class: "muted small-text", text: String(l.labelled_at) }),
  ]);
}
function labelPanel(row, state) {
  const key = caseRunKey(row);
  const list = el("ul", { class: "labels", id: "case-labels" });
  const render = () => {
    const mine = latestOnly(state.labels).filter((l) => caseRunKey(l) === key);
    list.replaceChildren.apply(list, mine.length ? mine.map((l) => labelLine(l, row)) : [el("li", { class: "missing", text: "No label yet" })]);
  };
  render();
  const evaluator = el("select", { id: "label-evaluator", "aria-label": "Labelled part" }, [el("option", { value: "", text: "The case (overall verdict)" })]);
  for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
    if (r && r.name !== undefined) evaluator.append(el("option", { value: String(r.name), text: "Evaluator " + String(r.name) }));
  }
  const verdict = el("select", { id: "label-verdict", "aria-label": "Verdict" }, ["", "pass", "fail"].map((v) => el("option", { value: v, text: v || "no verdict" })));
  const score = el("input", { id: "label-score", type: "number", min: 0, max: 1, step: 0.05, placeholder: "0\u20131", "aria-label": "Score" });
  const note = el("textarea", { id: "label-note", rows: 2, placeholder: "Why (optional)", "aria-label": "Note" });
  const reviewer = el("input", { id: "label-reviewer", type: "text", value: localStorage.getItem("agentv-reviewer") || VIEW.reviewer || "", "aria-label": "Reviewer" });
  const status = el("span", { id: "label-status", class: "muted", "aria-live": "polite" });
  const save = el("button", { type: "button", id: "label-save", text: "Save label" });
  save.addEventListener("click", () => {
    const body = {
      run_id: row.run_id, dataset: row.dataset, eval_id: row.eval_id, target: row.target, trial: row.trial,
      evaluator: evaluator.value === "" ? null : evaluator.value,
      label: verdict.value === "" ? null : verdict.value,
      score: score.value === "" ? null : Number(score.value),
      note: note.value, reviewer: reviewer.value,
    };
    save.disabled = true;
    status.textContent = "Saving\u2026";
    api("/api/labels", {}, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((answer) => {
      localStorage.setItem("agentv-reviewer", reviewer.value);
      state.labels.push(answer.label);
      render();
      state.refresh();
      status.textContent = "Saved";
      status.setAttribute("data-saved", String(state.labels.length));
    }).catch((e) => { status.textContent = String(e.message || e); }).finally(() => { save.disabled = false; });
  });
  const history = link("History of this case across runs", "/case", { dataset: row.dataset, eval_id: row.eval_id, target: row.target }, { id: "case-history-link" });
  return section("Human labels", el("div", { class: "label-panel" }, [
    list,
    el("div", { class: "label-form" }, [labelled("Labels", evaluator), labelled("Verdict", verdict), labelled("Score", score), labelled("Reviewer", reviewer)]),
    labelled("Note", note),
    el("div", { class: "label-actions" }, [save, " ", status]),
    el("p", null, [history]),
  ]), "labels-part");
}
function runPage(app) {
  const id = pageParam("id");
  api("/api/run", { id: id }).then((data) => {
    const rows = data.report.rows;
    const state = { labels: data.labels.slice(), refresh: () => {} };
    const tile = el("div", { class: "tile t-labels", id: "labels-tile" });
    state.refresh = () => {
      const a = agreementOf(state.labels, rows);
      tile.replaceChildren(el("div", { class: "tile-value", text: a.labels + " / " + a.disagreements }), el("div", { class: "tile-label", text: "Labelled / disagree" }));
      tile.setAttribute("data-labels", String(a.labels));
      tile.setAttribute("data-disagreements", String(a.disagreements));
    };
    state.refresh();
    const e = data.entry;
    const info = el("div", { class: "run-meta" }, [
      meta([["Run", e.run_id], ["Status", e.status], ["Started", fmtTime(e.started_at)], ["Duration", fmtMs(e.duration_ms)], ["Cost", fmtUsd(e.cost_usd)], ["agentv", e.agentv_version], ["Source", e.source]]),
      el("p", null, data.groups.map((g) => link("Trend of " + g.dataset + " on " + g.target, "/trend", { dataset: g.dataset, target: g.target }, { class: "trend-link" }))),
    ]);
    startReport(data.report, {
      // The viewer draws its own charts (with durations) under the summary.
      charts: false,
      afterSummary: () => el("div", null, [el("div", { class: "tiles" }, [tile]), info, runCharts(rows)]),
      caseExtras: (row) => labelPanel(row, state),
    });
  }).catch((e) => failed(app, e));
}
`;
