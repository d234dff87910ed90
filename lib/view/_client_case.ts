/**
 * Browser code of the viewer's case history (a case's score in every run, the runs that flipped
 * its verdict, two runs' answers side by side with a line diff) and of its compare page (two runs,
 * or the latest runs of several targets, with the statistics of `agentv compare`).
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** The case and compare pages (plain JS text; needs CLIENT_VIEW and CLIENT_CHARTS). */
export const CLIENT_CASE_HISTORY = String.raw`
function caseRunScore(rows) {
  let sum = 0;
  for (const r of rows) sum += isNum(r.score) ? r.score : 0;
  return rows.length ? sum / rows.length : null;
}
function caseRunVerdict(rows) {
  if (rows.length === 1) return rows[0].status === "ok" ? String(rows[0].verdict) : String(rows[0].status);
  const s = caseRunScore(rows);
  return s >= 0.8 ? "pass" : s >= 0.6 ? "borderline" : "fail";
}
function lineDiff(a, b) {
  const x = String(a).split("\n");
  const y = String(b).split("\n");
  if (x.length * y.length > 4000000) return null;
  const n = x.length, m = y.length;
  const lcs = [];
  for (let i = 0; i <= n; i++) lcs.push(new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) { out.push([" ", x[i]]); i++; j++; }
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) { out.push(["+", y[j]]); j++; }
    else { out.push(["-", x[i]]); i++; }
  }
  return out;
}
function diffView(a, b) {
  const ops = lineDiff(a, b);
  if (ops === null) return el("p", { class: "missing", text: "Too long to diff line by line" });
  const pre = el("pre", { class: "block diff", id: "answer-diff" });
  for (const op of ops) pre.append(el("span", { class: op[0] === "+" ? "diff-add" : op[0] === "-" ? "diff-del" : "diff-same", text: op[0] + " " + op[1] + "\n" }));
  return pre;
}
function casePage(app) {
  const key = { dataset: pageParam("dataset"), eval_id: pageParam("eval_id"), target: pageParam("target") };
  api("/api/case", key).then((data) => {
    const runs = data.history.map((h) => ({ run_id: h.run_id, started_at: h.started_at, rows: h.rows, score: caseRunScore(h.rows), verdict: caseRunVerdict(h.rows) }));
    runs.forEach((r, i) => { r.flip = i > 0 && runs[i - 1].verdict !== r.verdict ? runs[i - 1].verdict + "\u2192" + r.verdict : null; });
    app.append(el("header", { class: "top" }, [el("h1", { text: String(key.eval_id) }), el("p", { class: "muted", text: "Dataset " + key.dataset + " on target " + key.target + ": " + runs.length + " run(s)" })]));
    app.append(el("div", { class: "charts" }, [lineChart({ id: "chart-case", title: "Score in each run", max: 1, format: (v) => v.toFixed(2), points: runs.map((r) => ({ value: r.score, run: r.run_id, label: fmtTime(r.started_at), href: href("/run", { id: r.run_id }) })) })]));
    const body = el("tbody");
    for (const r of runs.slice().reverse()) {
      body.append(el("tr", { class: r.flip ? "flipped" : null }, [
        el("td", { text: fmtTime(r.started_at) }),
        el("td", { class: "id" }, [link(String(r.run_id), "/run", { id: r.run_id })]),
        el("td", { class: "num", text: fmtScore(r.score) }),
        el("td", null, [badge(r.verdict)]),
        el("td", { class: "flip", text: r.flip || "" }),
      ]));
    }
    app.append(el("table", { class: "small", id: "case-runs" }, [el("thead", null, [el("tr", null, ["Started (UTC)", "Run", "Score", "Verdict", "Flipped"].map((h) => el("th", { text: h })))]), body]));
    if (runs.length > 0) app.append(sideBySide(runs));
    ready();
  }).catch((e) => failed(app, e));
}
function sideBySide(runs) {
  let lastFlip = -1;
  runs.forEach((r, i) => { if (r.flip) lastFlip = i; });
  const after = lastFlip > 0 ? lastFlip : runs.length - 1;
  const before = Math.max(0, lastFlip > 0 ? lastFlip - 1 : runs.length - 2);
  const pick = (id, chosen) => el("select", { id: id, "aria-label": id }, runs.map((r, i) => el("option", { value: i, text: fmtTime(r.started_at) + " " + r.run_id, selected: i === chosen ? "selected" : null })));
  const left = pick("side-a", before);
  const right = pick("side-b", after);
  const holder = el("div");
  const answer = (r) => (r.rows[0] && typeof r.rows[0].candidate_answer === "string" ? r.rows[0].candidate_answer : pretty(r.rows[0] && r.rows[0].candidate_answer));
  const show = () => {
    const a = runs[Number(left.value)];
    const b = runs[Number(right.value)];
    holder.replaceChildren(
      section("Answer diff", diffView(answer(a), answer(b))),
      el("div", { class: "sides" }, [
        el("div", { class: "side side-a" }, [el("h3", { class: "side-title", text: a.run_id + " (" + fmtScore(a.score) + ")" }), caseView(a.rows[0])]),
        el("div", { class: "side side-b" }, [el("h3", { class: "side-title", text: b.run_id + " (" + fmtScore(b.score) + ")" }), caseView(b.rows[0])]),
      ]),
    );
  };
  left.addEventListener("change", show);
  right.addEventListener("change", show);
  show();
  return section("Side by side", el("div", null, [el("div", { class: "controls" }, [labelled("Left", left), labelled("Right", right)]), holder]));
}
function runOptions(runs, id, chosen) {
  const select = el("select", { id: id, "aria-label": id }, [el("option", { value: "", text: "choose a run" })]);
  for (const r of runs) {
    for (const t of r.targets.length > 1 ? r.targets : [null]) {
      const value = JSON.stringify([r.run_id, t]);
      select.append(el("option", { value: value, text: fmtTime(r.started_at) + " " + r.run_id + (t === null ? "" : " (" + t + ")") + " \u2013 " + listText(r.datasets), selected: value === chosen ? "selected" : null }));
    }
  }
  return select;
}
function comparePicker(app) {
  return api("/api/runs").then((data) => {
    const chosen = (id, target) => (id ? JSON.stringify([id, target || null]) : "");
    const base = runOptions(data.runs, "compare-base", chosen(pageParam("base"), pageParam("base_target")));
    const cand = runOptions(data.runs, "compare-cand", chosen(pageParam("cand"), pageParam("cand_target")));
    const go = el("button", { type: "button", id: "compare-go", text: "Compare" });
    go.addEventListener("click", () => {
      if (!base.value || !cand.value) return;
      const b = JSON.parse(base.value), c = JSON.parse(cand.value);
      location.href = href("/compare", { base: b[0], base_target: b[1], cand: c[0], cand_target: c[1] });
    });
    app.append(el("div", { class: "controls" }, [labelled("Baseline", base), labelled("Candidate", cand), go]));
  });
}
function targetsView(app, data) {
  app.append(el("header", { class: "top" }, [el("h1", { text: "Targets on " + data.dataset }), el("p", { class: "muted", text: "The latest run of each target; the first is the baseline" })]));
  const body = el("tbody");
  const base = data.targets[0];
  for (const t of data.targets) {
    const v = t.versus_baseline;
    body.append(el("tr", null, [
      el("td", { text: String(t.target) }),
      el("td", { class: "id" }, [link(String(t.run_id), "/run", { id: t.run_id })]),
      el("td", { class: "num", text: fmtRate(t.pass_rate) }),
      el("td", { class: "num", text: fmtScore(t.mean_score) }),
      el("td", { class: "num", text: v ? fmtDelta(v.mean_delta) : "baseline" }),
      el("td", null, [v ? link(String(v.verdict), "/compare", { base: base.run_id, base_target: base.target, cand: t.run_id, cand_target: t.target, dataset: data.dataset }) : el("span", { text: "" })]),
      el("td", { class: "muted", text: v ? String(v.verdict_line) : "" }),
    ]));
  }
  app.append(el("table", { class: "small", id: "targets-table" }, [el("thead", null, [el("tr", null, ["Target", "Latest run", "Pass rate", "Mean", "Mean \u0394", "Verdict", "Statistics"].map((h) => el("th", { text: h })))]), body]));
  ready();
}
function comparePage(app) {
  if (pageParam("targets")) {
    api("/api/targets", { dataset: pageParam("dataset"), targets: pageParam("targets") }).then((data) => targetsView(app, data)).catch((e) => failed(app, e));
    return;
  }
  comparePicker(app).then(() => {
    if (!pageParam("base") || !pageParam("cand")) {
      app.append(el("p", { class: "muted", text: "Choose two runs to compare" }));
      return ready();
    }
    return api("/api/compare", { base: pageParam("base"), base_target: pageParam("base_target"), cand: pageParam("cand"), cand_target: pageParam("cand_target"), dataset: pageParam("dataset") }).then((data) => startCompare(data));
  }).catch((e) => failed(app, e));
}
`;
