/**
 * Browser code of the report page's summary and of a case's trials: the run (when, targets and
 * models, agentv version, options, totals of tokens and cost), the tiles (per row, or with trials
 * per case by the gate's verdict, so they agree with the gate), the score histogram and the
 * per-evaluator bars, and the view of one case's trials (pass rate, pass@k and pass^k for every
 * k, flaky, the gate's verdict, then each trial's case view). Reads what `report_data.ts` computed
 * (`data.run`, `data.figures`, `data.trial_groups`).
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** The summary and trials views (plain JS text; needs CLIENT_UTIL, CASE, CHARTS and SHELL). */
export const CLIENT_REPORT_SUMMARY = String.raw`
function fmtCost(x) {
  return isNum(x) ? "$" + (x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2)) : null;
}
function fmtTokens(t) {
  return t && isNum(t.input) && isNum(t.output) ? t.input + " in / " + t.output + " out" : null;
}
function fmtRatio(x) {
  return isNum(x) ? (x * 100).toFixed(0) + "%" : "\u2013";
}
function optionText(value) {
  return value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
}
function reportRunView(data) {
  const run = data.run;
  const f = data.figures;
  if (!run || !f) return null;
  const when = run.started_at ? String(run.started_at) + (run.ended_at ? " \u2192 " + String(run.ended_at) : "") : null;
  const box = el("section", { class: "run-info", id: "run-info" }, [
    el("h2", { text: "Run" }),
    meta([
      ["When", when],
      ["Run", run.run_id],
      ["Status", run.status],
      ["agentv", run.agentv_version],
      ["Datasets", Array.isArray(run.datasets) ? run.datasets.join(", ") : null],
      ["Merged from", isNum(run.merged_from) ? run.merged_from + " shard run(s)" : null],
      ["Tokens", fmtTokens(f.token_usage)],
      ["Cost", fmtCost(f.cost_usd)],
      ["Judge tokens", fmtTokens(f.judge_token_usage)],
      ["Judge cost", fmtCost(f.judge_cost_usd)],
      ["Dry run", f.dry_run ? "yes: every target and judge was a mock" : null],
    ]),
  ]);
  const targets = Array.isArray(run.targets) ? run.targets : [];
  if (targets.length) {
    box.append(el("table", { class: "small", id: "run-targets" }, [
      el("thead", null, [el("tr", null, ["Target", "Provider", "Model"].map((h) => el("th", { text: h })))]),
      el("tbody", null, targets.map((t) => el("tr", null, [el("td", { text: String(t.name) }), el("td", { text: t.provider === null ? "\u2013" : String(t.provider) }), el("td", { text: t.model === null ? "\u2013" : String(t.model) })]))),
    ]));
  }
  if (run.options && Object.keys(run.options).length) {
    const body = el("tbody");
    for (const key of Object.keys(run.options)) body.append(el("tr", null, [el("td", { text: key }), el("td", { text: optionText(run.options[key]) })]));
    box.append(el("details", { id: "run-options" }, [el("summary", { text: "Options (" + Object.keys(run.options).length + ")" }), el("table", { class: "small" }, [body])]));
  }
  return box;
}
function reportCharts(data) {
  const f = data.figures;
  if (!f || data.charts === false) return null;
  const hist = (Array.isArray(f.histogram) ? f.histogram : []).map((b) => ({ label: String(b.range), value: isNum(b.count) ? b.count : 0, cls: b.start >= 0.8 ? "b-pass" : b.start >= 0.6 ? "b-borderline" : "b-fail" }));
  const evaluators = (Array.isArray(f.evaluators) ? f.evaluators : []).filter((e) => isNum(e.mean)).map((e) => ({ label: String(e.name), value: e.mean }));
  return el("div", { class: "charts", id: "report-charts" }, [
    barChart({ id: "report-histogram", title: "Scores (" + f.scored + " scored" + (data.trials ? " trials" : "") + ")", bars: hist }),
    evaluators.length ? barChart({ id: "report-evaluators", title: "Mean score per evaluator", bars: evaluators, max: 1, format: (v) => v.toFixed(2) }) : null,
  ]);
}
function rowTiles(data) {
  const rows = data.rows;
  const counts = { pass: 0, borderline: 0, fail: 0, error: 0, skipped: 0 };
  let sum = 0;
  let scored = 0;
  for (const row of rows) {
    const result = resultOf(row);
    counts[result] = (counts[result] || 0) + 1;
    if (row.status === "ok" && isNum(row.score)) {
      sum += row.score;
      scored++;
    }
  }
  return [
    tile("Cases", rows.length, "total"),
    tile("Pass", counts.pass, "pass"),
    tile("Borderline", counts.borderline, "borderline"),
    tile("Fail", counts.fail, "fail"),
    tile("Error", counts.error, "error"),
    counts.skipped ? tile("Skipped", counts.skipped, "skipped") : null,
    tile("Mean score", scored ? (sum / scored).toFixed(3) : "\u2013", "mean"),
  ];
}
function groupTiles(data) {
  const groups = data.trial_groups.cases;
  const counts = { pass: 0, borderline: 0, fail: 0, skipped: 0 };
  let flaky = 0, errors = 0, trials = 0, sum = 0, ran = 0;
  for (const g of groups) {
    counts[g.verdict] = (counts[g.verdict] || 0) + 1;
    if (g.flaky) flaky++;
    errors += g.errors;
    trials += g.n;
    if (g.n > 0) { sum += g.mean; ran++; }
  }
  return [
    tile("Cases", groups.length, "total"),
    tile("Pass", counts.pass, "pass"),
    tile("Borderline", counts.borderline, "borderline"),
    tile("Fail", counts.fail, "fail"),
    counts.skipped ? tile("Skipped", counts.skipped, "skipped") : null,
    tile("Flaky", flaky, "borderline"),
    tile("Trials", trials, "total"),
    tile("Trial errors", errors, "error"),
    tile("Mean of case means", ran ? (sum / ran).toFixed(3) : "\u2013", "mean"),
  ];
}
function trialsLine(data) {
  if (!data.trial_groups) return null;
  return el("p", { class: "verdict-line", id: "gate-line", text: "Cases are judged over their trials by the gate '" + String(data.trial_groups.gate) + "' (mean: the verdict of the mean score; any, all, rate:X: of the passed trials)" });
}
function groupStatsView(g) {
  const ks = Object.keys(g.pass_at_k || {}).map(Number).sort((a, b) => a - b);
  const box = el("div", { class: "group-stats" }, [
    el("p", { class: "case-title" }, [
      badge(g.verdict), " ",
      el("span", { text: "passed " + g.passed + " of " + g.n + " trial(s) (" + fmtRatio(g.n ? g.pass_rate : null) + "), mean " + fmtScore(g.mean) + (isNum(g.stdev) ? " \u00b1 " + g.stdev.toFixed(2) : "") }),
      g.flaky ? el("span", { class: "flaky", text: " \u2691 flaky" }) : null,
      g.errors ? el("span", { class: "muted", text: " \u00b7 " + g.errors + " error(s)" }) : null,
    ]),
  ]);
  if (ks.length) {
    box.append(el("table", { class: "small passk", id: "pass-at-k" }, [
      el("thead", null, [el("tr", null, [el("th", { text: "k" }), el("th", { text: "pass@k" }), el("th", { text: "pass^k" })])]),
      el("tbody", null, ks.map((k) => el("tr", null, [el("td", { class: "num", text: k }), el("td", { class: "num", text: fmtScore(g.pass_at_k[k]) }), el("td", { class: "num", text: fmtScore(g.pass_hat_k[k]) })]))),
    ]));
  }
  return box;
}
function groupView(g, rows, caseExtras) {
  const box = el("div", { class: "case-group" }, [groupStatsView(g)]);
  const holder = el("div");
  const buttons = g.rows.map((index, i) => {
    const row = rows[index];
    return el("button", { type: "button", "data-trial": i, text: "Trial " + (isNum(row.trial) ? row.trial : i) + " \u00b7 " + resultOf(row), onclick: () => show(i) });
  });
  function show(i) {
    const index = g.rows[i];
    const body = caseView(rows[index]);
    if (caseExtras) body.append(caseExtras(rows[index], index));
    holder.replaceChildren(body);
    for (const b of buttons) b.setAttribute("aria-pressed", String(Number(b.getAttribute("data-trial")) === i));
  }
  box.append(el("div", { class: "trials", role: "group", "aria-label": "Trials", id: "trial-buttons" }, buttons), holder);
  if (buttons.length) show(0);
  return box;
}
`;
