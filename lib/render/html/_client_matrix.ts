/**
 * Browser code of the N-way compare page (`agentv compare --format html` of several targets): the
 * verdict, the leaderboard, the pairwise matrix (mean Δ of column over row, Holm-corrected p,
 * significant cells marked), a score–cost scatter drawn as inline SVG with the Pareto front
 * marked, and a table of every case with each target's verdict. Opening a case shows the targets'
 * answers side by side, each against the baseline's with a word-level diff, then each target's
 * full case view. Reads the data block written by `renderMatrixHtml`.
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** The page's own styles, added to the shared stylesheet. */
export const MATRIX_CSS = `
table.leaderboard, table.pairwise { width: auto; margin: 8px 0; }
table.leaderboard td, table.pairwise td { font-variant-numeric: tabular-nums; }
table.leaderboard tr.top td:nth-child(2) { font-weight: 700; }
table.pairwise td.self { color: var(--muted); text-align: center; }
table.pairwise td.sig-better { color: var(--pass); font-weight: 600; }
table.pairwise td.sig-worse { color: var(--fail); font-weight: 600; }
.scatter svg { max-width: 640px; width: 100%; height: auto; border: 1px solid var(--line); }
.scatter .axis { stroke: var(--muted); stroke-width: 1; }
.scatter .point { fill: var(--accent); }
.scatter .point.front { fill: var(--pass); }
.scatter text { fill: var(--fg); font-size: 11px; }
.scatter line.front-line { stroke: var(--pass); stroke-dasharray: 4 3; }
.arms { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 16px; }
.arm { min-width: 0; border-top: 2px solid var(--line); }
.arm.baseline { border-top-color: var(--accent); }
.diff ins { background: rgba(26, 127, 55, 0.18); text-decoration: none; }
.diff del { background: rgba(207, 34, 46, 0.18); }
`;

/** The word diff, the views and `startMatrix` (plain JS; needs CLIENT_UTIL, CASE, GRID, SHELL). */
export const CLIENT_MATRIX = String.raw`
const DIFF_CELLS = 4000000;
function wordTokens(text) {
  return String(text).split(/(\s+)/).filter((t) => t !== "");
}
// Word-level diff of two texts: [{ op: "same" | "del" | "ins", text }], by the longest common
// subsequence of their words (after the common head and tail are set aside); null when the middle
// parts are too long to compare (more than DIFF_CELLS cells).
function wordDiff(a, b) {
  const x = wordTokens(a), y = wordTokens(b);
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail), ys = y.slice(head, y.length - tail);
  const n = xs.length, m = ys.length;
  if ((n + 1) * (m + 1) > DIFF_CELLS) return null;
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = xs[i] === ys[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out = [];
  const push = (op, text) => {
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text; else out.push({ op: op, text: text });
  };
  if (head > 0) push("same", x.slice(0, head).join(""));
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (xs[i] === ys[j]) { push("same", xs[i]); i++; j++; }
    else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) { push("del", xs[i]); i++; }
    else { push("ins", ys[j]); j++; }
  }
  while (i < n) push("del", xs[i++]);
  while (j < m) push("ins", ys[j++]);
  if (tail > 0) push("same", x.slice(x.length - tail).join(""));
  return out;
}
function answerText(row) {
  if (!row) return "";
  return typeof row.candidate_answer === "string" ? row.candidate_answer : pretty(row.candidate_answer);
}
function diffView(base, text) {
  const parts = wordDiff(base, text);
  if (parts === null) return el("div", null, [el("p", { class: "muted", text: "Too long for a word diff" }), block(text)]);
  const pre = el("pre", { class: "block diff" });
  for (const part of parts) {
    if (part.op === "same") pre.append(document.createTextNode(part.text));
    else pre.append(el(part.op, { text: part.text }));
  }
  return pre;
}
function fmtNum(x, digits) {
  return isNum(x) ? x.toFixed(digits) : "\u2013";
}
function fmtPct(x) {
  return isNum(x) ? Math.round(x * 100) + "%" : "\u2013";
}
function fmtP(p) {
  if (!isNum(p)) return "\u2013";
  return p < 0.0001 ? "< 0.0001" : String(Number(p.toPrecision(4)));
}
function fmtUsd(x) {
  if (!isNum(x)) return "\u2013";
  return "$" + (x >= 0.01 ? x.toFixed(4) : x.toPrecision(2));
}
function leaderboardView(data) {
  const front = (label) => [data.pareto.cost.indexOf(label) >= 0 ? "cost" : null, data.pareto.latency.indexOf(label) >= 0 ? "latency" : null].filter(Boolean).join(", ");
  const k = data.leaderboard.map((s) => s.k).find(isNum);
  const heads = ["#", "Target", "Cases", "Mean", "95% CI", "Pass", "95% CI"].concat(isNum(k) ? ["pass@" + k, "pass^" + k] : [], ["Cost/case", "Tokens/case", "p50", "p95", "Pareto"]);
  const body = el("tbody");
  for (const s of data.leaderboard) {
    const cells = [
      el("td", { class: "num", text: s.rank }),
      el("td", { text: s.label + (s.label === data.baseline ? " (baseline)" : "") }),
      el("td", { class: "num", text: s.cases }),
      el("td", { class: "num", text: fmtNum(s.mean, 3) }),
      el("td", { class: "num", text: s.mean_ci ? fmtNum(s.mean_ci.low, 3) + "\u2013" + fmtNum(s.mean_ci.high, 3) : "\u2013" }),
      el("td", { class: "num", text: fmtPct(s.pass_rate) + " (" + s.passed + "/" + s.cases + ")" }),
      el("td", { class: "num", text: s.pass_rate_ci ? fmtPct(s.pass_rate_ci.low) + "\u2013" + fmtPct(s.pass_rate_ci.high) : "\u2013" }),
    ];
    if (isNum(k)) cells.push(el("td", { class: "num", text: fmtNum(s.pass_at_k, 3) }), el("td", { class: "num", text: fmtNum(s.pass_hat_k, 3) }));
    cells.push(
      el("td", { class: "num", text: fmtUsd(s.cost_per_case) }),
      el("td", { class: "num", text: isNum(s.tokens_per_case) ? Math.round(s.tokens_per_case) : "\u2013" }),
      el("td", { class: "num", text: fmtMs(s.latency_p50_ms) }),
      el("td", { class: "num", text: fmtMs(s.latency_p95_ms) }),
      el("td", { text: front(s.label) || "\u2013" }),
    );
    body.append(el("tr", { "data-label": s.label, class: data.top.indexOf(s.label) >= 0 ? "top" : null }, cells));
  }
  return el("section", null, [
    el("h2", { text: "Leaderboard" }),
    el("p", { class: "muted", text: "Best mean score first. 95% intervals: seeded bootstrap of the mean over cases (" + data.resamples + " resamples, seed " + data.seed + "), Wilson of the pass rate. Bold: not significantly beaten by any other target." }),
    el("table", { class: "leaderboard", id: "leaderboard" }, [el("thead", null, [el("tr", null, heads.map((h) => el("th", { text: h })))]), body]),
  ]);
}
function pairwiseView(data) {
  const order = data.leaderboard.map((s) => s.label);
  const find = (a, b) => data.pairs.find((p) => (p.baseline === a && p.candidate === b) || (p.baseline === b && p.candidate === a));
  const body = el("tbody");
  for (const rowLabel of order) {
    const cells = [el("th", { scope: "row", text: rowLabel })];
    for (const colLabel of order) {
      if (rowLabel === colLabel) { cells.push(el("td", { class: "self", text: "\u2013" })); continue; }
      const p = find(rowLabel, colLabel);
      if (!p || !isNum(p.mean_delta)) { cells.push(el("td", { text: "no case in common" })); continue; }
      const delta = p.candidate === colLabel ? p.mean_delta : -p.mean_delta;
      const cls = p.better === colLabel ? "sig-better" : p.better === rowLabel ? "sig-worse" : null;
      cells.push(el("td", { class: cls, "data-pair": rowLabel + "\u0000" + colLabel, title: "Wilcoxon p " + fmtP(p.p) + ", sign test p " + fmtP(p.sign_p) + ", " + p.cases + " cases" }, [
        fmtDelta(delta) + (p.significant ? " \u2605" : ""),
        el("br"),
        el("span", { class: "muted", text: "p = " + fmtP(p.p_holm) }),
      ]));
    }
    body.append(el("tr", null, cells));
  }
  return el("section", null, [
    el("h2", { text: "Pairwise" }),
    el("p", { class: "muted", text: "Each cell: mean \u0394 of the column's target over the row's, on the cases both ran, and the Wilcoxon p Holm-corrected for " + data.pairs.length + " pairs. \u2605 significant: the paired bootstrap interval excludes 0 and the corrected p < " + data.alpha + "." }),
    el("table", { class: "pairwise", id: "pairwise" }, [el("thead", null, [el("tr", null, [el("th")].concat(order.map((l) => el("th", { scope: "col", text: l }))))]), body]),
  ]);
}
const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, children) {
  const node = document.createElementNS(SVG, tag);
  for (const key of Object.keys(attrs || {})) {
    if (key === "text") node.textContent = String(attrs[key]);
    else node.setAttribute(key, String(attrs[key]));
  }
  for (const child of children || []) node.append(child);
  return node;
}
function scatterView(data) {
  const byCost = data.leaderboard.some((s) => isNum(s.cost_per_case));
  const xOf = (s) => (byCost ? s.cost_per_case : s.latency_p50_ms);
  const points = data.leaderboard.filter((s) => isNum(xOf(s)) && isNum(s.mean));
  const front = byCost ? data.pareto.cost : data.pareto.latency;
  const W = 640, H = 360, L = 56, R = 24, T = 16, B = 44;
  const xs = points.map(xOf), ys = points.map((s) => s.mean);
  const xMax = Math.max.apply(null, xs.concat([0])) * 1.1 || 1;
  const yMin = Math.min(0, Math.min.apply(null, ys.concat([1]))), yMax = 1;
  const px = (x) => L + (x / xMax) * (W - L - R);
  const py = (y) => T + (1 - (y - yMin) / (yMax - yMin)) * (H - T - B);
  const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "Mean score against " + (byCost ? "cost per case" : "p50 latency") });
  svg.append(
    svgEl("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }),
    svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }),
    svgEl("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", text: byCost ? "cost per case (USD)" : "p50 latency (ms)" }),
    svgEl("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", transform: "rotate(-90 14 " + (T + H - B) / 2 + ")", text: "mean score" }),
    svgEl("text", { x: L - 6, y: py(1) + 4, "text-anchor": "end", text: "1" }),
    svgEl("text", { x: L - 6, y: py(yMin) + 4, "text-anchor": "end", text: String(yMin) }),
    svgEl("text", { x: W - R, y: H - B + 16, "text-anchor": "end", text: byCost ? fmtUsd(xMax) : fmtMs(xMax) }),
  );
  const onFront = points.filter((s) => front.indexOf(s.label) >= 0).sort((a, b) => xOf(a) - xOf(b));
  for (let i = 1; i < onFront.length; i++) {
    svg.append(svgEl("line", { class: "front-line", x1: px(xOf(onFront[i - 1])), y1: py(onFront[i - 1].mean), x2: px(xOf(onFront[i])), y2: py(onFront[i].mean) }));
  }
  for (const s of points) {
    const x = px(xOf(s)), y = py(s.mean);
    svg.append(
      svgEl("circle", { class: "point" + (front.indexOf(s.label) >= 0 ? " front" : ""), cx: x, cy: y, r: 5, "data-label": s.label }, [svgEl("title", { text: s.label + ": mean " + fmtNum(s.mean, 3) + ", " + (byCost ? fmtUsd(xOf(s)) + " per case" : fmtMs(xOf(s))) })]),
      svgEl("text", { x: x + 8, y: y - 6, text: s.label }),
    );
  }
  const missing = data.leaderboard.length - points.length;
  return el("section", { class: "scatter", id: "scatter" }, [
    el("h2", { text: byCost ? "Score against cost" : "Score against latency" }),
    el("p", { class: "muted", text: "Green: on the Pareto front (no other target has a higher mean score and a lower " + (byCost ? "cost" : "latency") + ")." + (missing > 0 ? " " + missing + " target(s) report no " + (byCost ? "cost" : "latency") + " and are not drawn." : "") }),
    svg,
  ]);
}
function armView(c, label, baseline, labels) {
  const a = c.arms[label];
  const box = el("div", { class: "arm" + (label === baseline ? " baseline" : "") }, [el("h3", { class: "side-title", text: label + (label === baseline ? " (baseline)" : "") })]);
  if (!a) {
    box.append(el("p", { class: "missing", text: "This target did not run this case" }));
    return box;
  }
  box.append(el("p", { class: "case-title" }, [badge(a.verdict), " ", el("span", { class: "score big", text: fmtScore(a.score) }), a.trials > 1 ? el("span", { class: "muted", text: " over " + a.trials + " trials" }) : null]));
  const base = c.arms[baseline];
  const holder = el("div");
  const show = (i) => {
    const row = a.rows[i];
    const text = answerText(row);
    const answer = label === baseline || !base ? block(text) : diffView(answerText(base.rows[Math.min(i, base.rows.length - 1)]), text);
    holder.replaceChildren(section(label === baseline || !base ? "Answer" : "Answer (word diff against " + baseline + ")", answer, "answer"), el("details", null, [el("summary", { text: "Everything this target's row holds" }), caseView(row)]));
    for (const b of buttons) b.setAttribute("aria-pressed", String(Number(b.getAttribute("data-trial")) === i));
  };
  const buttons = a.rows.length > 1 ? a.rows.map((row, i) => el("button", { type: "button", "data-trial": i, text: "Trial " + (isNum(row.trial) ? row.trial : i), onclick: () => show(i) })) : [];
  if (buttons.length) box.append(el("div", { class: "trials", role: "group", "aria-label": "Trials" }, buttons));
  box.append(holder);
  show(0);
  return box;
}
function startMatrix() {
  const data = readData();
  const labels = data.arms.map((a) => a.label);
  const cases = Array.isArray(data.cases) ? data.cases : [];
  document.title = data.title;
  const app = document.getElementById("app");
  const differs = (c) => new Set(labels.map((l) => (c.arms[l] ? c.arms[l].verdict : "not run"))).size > 1;
  const columns = [
    { key: "eval_id", label: "Case", value: (c) => String(c.eval_id), cls: "id" },
    { key: "dataset", label: "Dataset", value: (c) => String(c.dataset) },
  ].concat(labels.map((l) => ({
    key: "arm-" + l,
    label: l,
    value: (c) => (c.arms[l] ? c.arms[l].score : null),
    cell: (c) => (c.arms[l] ? el("span", null, [badge(c.arms[l].verdict), " " + fmtScore(c.arms[l].score)]) : "not run"),
    cls: "num",
  })));
  const grid = createGrid({ id: "cases", columns: columns, rows: cases, noun: "case", nouns: "cases", onOpen: (i) => overlay.open(i), pageSize: 100 });
  const overlay = createOverlay((index) => {
    const c = cases[index];
    if (!c) return null;
    return { title: String(c.eval_id), body: el("div", { class: "matrix-case" }, [meta([["Dataset", c.dataset]]), el("div", { class: "arms" }, labels.map((l) => armView(c, l, data.baseline, labels)))]) };
  });
  overlay.setNeighbours(() => grid.visible());
  const search = el("input", { id: "search", type: "search", placeholder: "Search case ids", "aria-label": "Search", autocomplete: "off" });
  const only = selectOf("filter-differ", "Cases", "All cases", ["Verdicts differ"]);
  function apply() {
    const terms = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const wantDiffer = only.value !== "";
    grid.setFilter(terms.length || wantDiffer ? (c) => {
      if (wantDiffer && !differs(c)) return false;
      const hay = (String(c.eval_id) + " " + String(c.dataset)).toLowerCase();
      for (const t of terms) if (hay.indexOf(t) < 0) return false;
      return true;
    } : null);
  }
  search.addEventListener("input", apply);
  only.addEventListener("change", apply);
  app.append(
    el("header", { class: "top" }, [el("h1", { text: data.title }), el("p", { class: "muted", text: labels.length + " targets, " + cases.length + " cases; baseline " + data.baseline + (data.generated_at ? "; generated " + data.generated_at : "") })]),
    el("p", { class: "verdict-line", id: "verdict-line", text: data.verdict_line }),
    leaderboardView(data),
    pairwiseView(data),
    scatterView(data),
    el("h2", { text: "Cases" }),
    el("div", { class: "controls", role: "search" }, [labelled("Search", search), labelled("Cases", only), grid.countElement]),
    grid.element,
    overlay.element,
  );
  overlay.sync();
  document.body.setAttribute("data-ready", "true");
}
`;
