/**
 * Browser code of the results report page: the summary, the filters (dataset, result, evaluator,
 * score range, text search), the case table and the case overlay (opened from a row or a
 * `#case-N` link). Reads the data block written by `renderHtmlReport`, or takes the same data as
 * an argument (`startReport(data, hooks)`, the local viewer's run page; `hooks.afterSummary(data)`
 * adds an element under the summary, `hooks.caseExtras(row, index)` one under a case's view).
 *
 * @module
 */

/** Shared by both pages: reads the data block and opens/closes the case overlay by URL hash. */
export const CLIENT_SHELL = String.raw`
function readData() {
  return JSON.parse(document.getElementById("agentv-data").textContent);
}
function createOverlay(render) {
  const body = el("div", { class: "overlay-body" });
  const title = el("h2", { id: "case-title" });
  const prev = el("button", { type: "button", id: "case-prev", text: "\u2039 Previous" });
  const next = el("button", { type: "button", id: "case-next", text: "Next \u203a" });
  const close = el("button", { type: "button", id: "case-close", text: "Close", "aria-label": "Close the case view" });
  const panel = el("section", { id: "case", class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "case-title", hidden: "hidden" }, [
    el("div", { class: "overlay-bar" }, [title, el("span", { class: "spacer" }), prev, next, close]),
    body,
  ]);
  let current = -1;
  let neighbours = () => [];
  function step(by) {
    const order = neighbours();
    const at = order.indexOf(current);
    const target = order[at + by];
    if (at >= 0 && target !== undefined) location.hash = "case-" + target;
  }
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  close.addEventListener("click", () => { location.hash = "list"; });
  document.addEventListener("keydown", (event) => {
    if (panel.hidden) return;
    if (event.key === "Escape") location.hash = "list";
  });
  function sync() {
    const match = /^#case-(\d+)$/.exec(location.hash);
    const index = match ? Number(match[1]) : -1;
    const shown = index >= 0 ? render(index) : null;
    if (!shown) {
      panel.hidden = true;
      document.body.classList.remove("has-overlay");
      current = -1;
      return;
    }
    current = index;
    title.textContent = shown.title;
    body.replaceChildren(shown.body);
    const order = neighbours();
    const at = order.indexOf(index);
    prev.disabled = at <= 0;
    next.disabled = at < 0 || at >= order.length - 1;
    panel.hidden = false;
    document.body.classList.add("has-overlay");
    panel.scrollTop = 0;
    close.focus();
  }
  window.addEventListener("hashchange", sync);
  return {
    element: panel,
    open(index) { location.hash = "case-" + index; },
    setNeighbours(fn) { neighbours = fn; },
    sync: sync,
  };
}
function selectOf(id, label, allLabel, values) {
  const select = el("select", { id: id, "aria-label": label }, [el("option", { value: "", text: allLabel })]);
  for (const value of values) select.append(el("option", { value: value, text: value }));
  return select;
}
function uniqueSorted(values) {
  return Array.from(new Set(values)).sort((a, b) => collator.compare(a, b));
}
function tile(label, value, cls) {
  return el("div", { class: "tile t-" + cls }, [el("div", { class: "tile-value", text: value }), el("div", { class: "tile-label", text: label })]);
}
function labelled(text, control) {
  return el("label", { class: "control" }, [el("span", { text: text }), control]);
}
`;

/** The report page itself. */
export const CLIENT_REPORT = String.raw`
function evaluatorNames(row) {
  const out = [];
  for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
    if (r && r.name !== undefined) out.push(String(r.name));
  }
  return out;
}
function evaluatorScore(row, name) {
  for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
    if (r && String(r.name) === name) return r.status === "ok" || r.status === undefined ? r.score : null;
  }
  return undefined;
}
function firstProblem(row) {
  if (row.error) return String(row.error);
  if (Array.isArray(row.misses) && row.misses.length > 0) return pretty(row.misses[0]);
  return "";
}
const HAYSTACKS = new WeakMap();
function haystack(row) {
  let text = HAYSTACKS.get(row);
  if (text === undefined) {
    const parts = [row.eval_id, row.dataset, row.target, row.candidate_answer, row.error, row.reasoning];
    if (Array.isArray(row.misses)) parts.push(row.misses.join("\n"));
    if (Array.isArray(row.hits)) parts.push(row.hits.join("\n"));
    parts.push(evaluatorNames(row).join("\n"));
    text = parts.map((p) => (p === undefined || p === null ? "" : pretty(p))).join("\n").toLowerCase();
    HAYSTACKS.set(row, text);
  }
  return text;
}
function summaryView(data) {
  const rows = data.rows;
  const counts = { pass: 0, borderline: 0, fail: 0, error: 0, skipped: 0 };
  let sum = 0;
  let scored = 0;
  const evaluators = new Map();
  for (const row of rows) {
    const result = resultOf(row);
    counts[result] = (counts[result] || 0) + 1;
    if (row.status === "ok" && isNum(row.score)) {
      sum += row.score;
      scored++;
    }
    for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
      if (!r || r.status !== "ok" || !isNum(r.score)) continue;
      const entry = evaluators.get(String(r.name)) || { sum: 0, n: 0, fails: 0 };
      entry.sum += r.score;
      entry.n++;
      if (r.verdict === "fail") entry.fails++;
      evaluators.set(String(r.name), entry);
    }
  }
  const tiles = el("div", { class: "tiles", id: "summary" }, [
    tile("Cases", rows.length, "total"),
    tile("Pass", counts.pass, "pass"),
    tile("Borderline", counts.borderline, "borderline"),
    tile("Fail", counts.fail, "fail"),
    tile("Error", counts.error, "error"),
    counts.skipped ? tile("Skipped", counts.skipped, "skipped") : null,
    tile("Mean score", scored ? (sum / scored).toFixed(3) : "\u2013", "mean"),
    data.labels && data.labels.labels ? tile("Labelled / disagree", data.labels.labels + " / " + data.labels.disagreements, "labels") : null,
  ]);
  const box = el("div", { class: "summary" }, [tiles]);
  if (evaluators.size > 0) {
    const body = el("tbody");
    for (const name of uniqueSorted(Array.from(evaluators.keys()))) {
      const e = evaluators.get(name);
      body.append(el("tr", null, [el("td", { text: name }), el("td", { class: "num", text: e.n }), el("td", { class: "num", text: (e.sum / e.n).toFixed(3) }), el("td", { class: "num", text: e.fails })]));
    }
    box.append(el("details", { class: "evaluator-means" }, [
      el("summary", { text: "Per-evaluator means (" + evaluators.size + ")" }),
      el("table", { class: "small" }, [el("thead", null, [el("tr", null, [el("th", { text: "Evaluator" }), el("th", { text: "Scored" }), el("th", { text: "Mean" }), el("th", { text: "Fail" })])]), body]),
    ]));
  }
  return box;
}
function labelsOfRow(data, row) {
  if (!data.labels || !Array.isArray(data.labels.items)) return [];
  return data.labels.items.filter((i) => i && i.label && i.label.run_id === row.run_id && i.label.dataset === row.dataset && i.label.eval_id === row.eval_id && i.label.target === row.target && i.label.trial === row.trial);
}
function recordedLabels(data, row) {
  const items = labelsOfRow(data, row);
  if (items.length === 0) return null;
  return section("Human labels", el("ul", { class: "labels" }, items.map((i) => el("li", { class: i.disagrees ? "disagree" : null, text:
    String(i.label.reviewer) + " (" + (i.label.evaluator === null ? "case" : "evaluator " + String(i.label.evaluator)) + "): " +
    (i.label.label === null ? "" : String(i.label.label)) + (i.label.score === null ? "" : " score " + fmtScore(i.label.score)) +
    (i.disagrees ? " \u2260 agentv " + String(i.automatic) : "") + (i.label.note ? " \u2013 " + String(i.label.note) : "") }))));
}
function startReport(given, hooks) {
  const data = given || readData();
  const extend = hooks || {};
  if (!extend.caseExtras && data.labels) extend.caseExtras = (row) => recordedLabels(data, row) || document.createDocumentFragment();
  const rows = Array.isArray(data.rows) ? data.rows : [];
  const app = document.getElementById("app");
  document.title = data.title;
  const selected = { evaluator: "" };
  const columns = [
    { key: "eval_id", label: "Case", value: (r) => String(r.eval_id), cls: "id" },
    { key: "dataset", label: "Dataset", value: (r) => String(r.dataset === undefined ? "" : r.dataset) },
    { key: "target", label: "Target", value: (r) => String(r.target === undefined ? "" : r.target) },
    { key: "result", label: "Result", value: (r) => RESULT_ORDER[resultOf(r)] || 9, cell: (r) => badge(resultOf(r)) },
    { key: "score", label: "Score", value: (r) => (isNum(r.score) ? r.score : null), cell: (r) => fmtScore(r.score), cls: "num" },
    { key: "evaluator", label: "Evaluator score", value: (r) => (selected.evaluator ? evaluatorScore(r, selected.evaluator) : null), cell: (r) => (selected.evaluator ? fmtScore(evaluatorScore(r, selected.evaluator)) : ""), cls: "num ev-col" },
    { key: "duration_ms", label: "Duration", value: (r) => (isNum(r.duration_ms) ? r.duration_ms : null), cell: (r) => fmtMs(r.duration_ms), cls: "num" },
    { key: "problem", label: "First miss / error", value: firstProblem, cls: "problem" },
  ];
  if (data.trials) columns.splice(3, 0, { key: "trial", label: "Trial", value: (r) => (isNum(r.trial) ? r.trial : null), cls: "num" });
  const grid = createGrid({ id: "cases", columns: columns, rows: rows, noun: "case", nouns: "cases", onOpen: (i) => overlay.open(i), pageSize: 100 });
  const overlay = createOverlay((index) => {
    const row = rows[index];
    if (!row) return null;
    const body = caseView(row);
    if (extend.caseExtras) body.append(extend.caseExtras(row, index));
    return { title: String(row.eval_id) + (isNum(row.trial) && row.trial > 0 ? " #" + row.trial : ""), body: body };
  });
  overlay.setNeighbours(() => grid.visible());
  const search = el("input", { id: "search", type: "search", placeholder: "Search ids, answers, misses, errors\u2026", "aria-label": "Search", autocomplete: "off" });
  const dataset = selectOf("filter-dataset", "Dataset", "All datasets", uniqueSorted(rows.map((r) => String(r.dataset === undefined ? "" : r.dataset))));
  const result = selectOf("filter-result", "Result", "All results", ["pass", "borderline", "fail", "error", "skipped"]);
  const evaluator = selectOf("filter-evaluator", "Evaluator", "All evaluators", uniqueSorted([].concat.apply([], rows.map(evaluatorNames))));
  const min = el("input", { id: "filter-min", type: "number", min: 0, max: 1, step: 0.05, placeholder: "0", "aria-label": "Minimum score" });
  const max = el("input", { id: "filter-max", type: "number", min: 0, max: 1, step: 0.05, placeholder: "1", "aria-label": "Maximum score" });
  const reset = el("button", { type: "button", id: "filter-reset", text: "Reset" });
  function apply() {
    const text = search.value.trim().toLowerCase();
    const terms = text ? text.split(/\s+/) : [];
    const ds = dataset.value;
    const res = result.value;
    const ev = evaluator.value;
    const lo = min.value === "" ? null : Number(min.value);
    const hi = max.value === "" ? null : Number(max.value);
    selected.evaluator = ev;
    app.classList.toggle("with-evaluator", ev !== "");
    const scoreOf = ev ? (r) => evaluatorScore(r, ev) : (r) => r.score;
    const active = terms.length || ds || res || ev || lo !== null || hi !== null;
    grid.setFilter(active ? (row) => {
      if (ds && String(row.dataset === undefined ? "" : row.dataset) !== ds) return false;
      if (res && resultOf(row) !== res) return false;
      if (ev && evaluatorNames(row).indexOf(ev) < 0) return false;
      if (lo !== null || hi !== null) {
        const s = scoreOf(row);
        if (!isNum(s) || (lo !== null && s < lo) || (hi !== null && s > hi)) return false;
      }
      if (terms.length) {
        const hay = haystack(row);
        for (const term of terms) if (hay.indexOf(term) < 0) return false;
      }
      return true;
    } : null);
  }
  for (const control of [search, min, max]) control.addEventListener("input", apply);
  for (const control of [dataset, result, evaluator]) control.addEventListener("change", apply);
  reset.addEventListener("click", () => {
    search.value = min.value = max.value = dataset.value = result.value = evaluator.value = "";
    apply();
  });
  const sub = [data.generated_at ? "Generated " + data.generated_at : null, data.source ? "from " + data.source : null].filter(Boolean).join(" ");
  app.append(
    el("header", { class: "top" }, [el("h1", { text: data.title }), sub ? el("p", { class: "muted", text: sub }) : null]),
    summaryView(data),
    extend.afterSummary ? extend.afterSummary(data) : document.createDocumentFragment(),
    el("div", { class: "controls", role: "search" }, [
      labelled("Search", search), labelled("Dataset", dataset), labelled("Result", result),
      labelled("Evaluator", evaluator), labelled("Score \u2265", min), labelled("Score \u2264", max), reset,
      grid.countElement,
    ]),
    grid.element,
    overlay.element,
  );
  overlay.sync();
  document.body.setAttribute("data-ready", "true");
}
const RESULT_ORDER = { fail: 0, error: 1, borderline: 2, skipped: 3, unscored: 4, pass: 5 };
`;
