/**
 * Browser code of the results report page: the summary (see `_client_report_summary.ts`), the
 * filters (dataset, result, evaluator, score range, text search), the case table (one line per
 * row, or with trials one per (dataset, case, target) with its pass rate, pass@k, flaky flag and
 * the gate's verdict) and the case overlay (opened from a line or a `#case-N` link). Reads the
 * data block written by `renderHtmlReport`, or takes the same data as an argument
 * (`startReport(data, hooks)`, the local viewer's run page; `hooks.afterSummary(data)` adds an
 * element under the summary, `hooks.caseExtras(row, index)` one under a case's view,
 * `hooks.charts: false` leaves out the summary's charts).
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
function summaryView(data, extend) {
  const rows = data.rows;
  const evaluators = new Map();
  for (const row of rows) {
    for (const r of Array.isArray(row.evaluator_results) ? row.evaluator_results : []) {
      if (!r || r.status !== "ok" || !isNum(r.score)) continue;
      const entry = evaluators.get(String(r.name)) || { sum: 0, n: 0, fails: 0 };
      entry.sum += r.score;
      entry.n++;
      if (r.verdict === "fail") entry.fails++;
      evaluators.set(String(r.name), entry);
    }
  }
  const tiles = el("div", { class: "tiles", id: "summary" }, (data.trial_groups ? groupTiles(data) : rowTiles(data)).concat([
    data.labels && data.labels.labels ? tile("Labelled / disagree", data.labels.labels + " / " + data.labels.disagreements, "labels") : null,
  ]));
  const box = el("div", { class: "summary" }, [reportRunView(data), tiles, trialsLine(data), extend.charts === false ? null : reportCharts(data)]);
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
// The table lists rows, or with trials one entry per (dataset, case, target) holding its rows.
function reportItems(data, rows) {
  if (!data.trial_groups) {
    return { grouped: false, items: rows, members: (r) => [r], result: resultOf, score: (r) => r.score };
  }
  const groups = data.trial_groups.cases.map((g) => Object.assign({}, g, { members: g.rows.map((i) => rows[i]).filter(Boolean) }));
  return { grouped: true, items: groups, members: (g) => g.members, result: (g) => g.verdict, score: (g) => (g.n > 0 ? g.mean : null) };
}
function meanOf(values) {
  const nums = values.filter(isNum);
  return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null;
}
function reportColumns(view, selected) {
  const evScore = (item) => (selected.evaluator ? meanOf(view.members(item).map((r) => evaluatorScore(r, selected.evaluator))) : null);
  const columns = [
    { key: "eval_id", label: "Case", value: (r) => String(r.eval_id), cls: "id" },
    { key: "dataset", label: "Dataset", value: (r) => String(r.dataset === undefined ? "" : r.dataset) },
    { key: "target", label: "Target", value: (r) => String(r.target === undefined ? "" : r.target) },
    { key: "result", label: view.grouped ? "Verdict (gate)" : "Result", value: (r) => RESULT_ORDER[view.result(r)] || 9, cell: (r) => badge(view.result(r)) },
    { key: "score", label: view.grouped ? "Mean score" : "Score", value: (r) => (isNum(view.score(r)) ? view.score(r) : null), cell: (r) => fmtScore(view.score(r)), cls: "num" },
    { key: "evaluator", label: "Evaluator score", value: evScore, cell: (r) => (selected.evaluator ? fmtScore(evScore(r)) : ""), cls: "num ev-col" },
    { key: "duration_ms", label: view.grouped ? "Mean duration" : "Duration", value: (r) => meanOf(view.members(r).map((m) => m.duration_ms)), cell: (r) => fmtMs(meanOf(view.members(r).map((m) => m.duration_ms))), cls: "num" },
    { key: "problem", label: "First miss / error", value: (r) => view.members(r).map(firstProblem).filter(Boolean)[0] || "", cls: "problem" },
  ];
  if (!view.grouped) return columns;
  // pass@k at k = 3 (or the fewest trials a case ran, when fewer): pass@n only says "some passed".
  const ns = view.items.map((g) => g.n).filter((n) => n > 0);
  const k = Math.min(3, ns.length ? Math.min.apply(null, ns) : 1);
  columns.splice(4, 0,
    { key: "passed", label: "Passed", value: (g) => (g.n ? g.pass_rate : null), cell: (g) => g.passed + "/" + g.n, cls: "num" },
    { key: "pass_at_k", label: "pass@" + k, value: (g) => (g.pass_at_k && isNum(g.pass_at_k[k]) ? g.pass_at_k[k] : null), cell: (g) => fmtScore(g.pass_at_k && g.pass_at_k[k]), cls: "num" },
    { key: "flaky", label: "Flaky", value: (g) => (g.flaky ? 0 : 1), cell: (g) => (g.flaky ? el("span", { class: "flaky", text: "\u2691 flaky" }) : ""), cls: "flaky-col" });
  return columns;
}
function reportFilter(view, controls) {
  const text = controls.search.value.trim().toLowerCase();
  const terms = text ? text.split(/\s+/) : [];
  const ds = controls.dataset.value;
  const res = controls.result.value;
  const ev = controls.evaluator.value;
  const lo = controls.min.value === "" ? null : Number(controls.min.value);
  const hi = controls.max.value === "" ? null : Number(controls.max.value);
  if (!(terms.length || ds || res || ev || lo !== null || hi !== null)) return null;
  const scoreOf = ev ? (item) => meanOf(view.members(item).map((r) => evaluatorScore(r, ev))) : view.score;
  return (item) => {
    const members = view.members(item);
    if (ds && String(item.dataset === undefined ? "" : item.dataset) !== ds) return false;
    if (res === "flaky" ? !item.flaky : res && view.result(item) !== res) return false;
    if (ev && !members.some((r) => evaluatorNames(r).indexOf(ev) >= 0)) return false;
    if (lo !== null || hi !== null) {
      const s = scoreOf(item);
      if (!isNum(s) || (lo !== null && s < lo) || (hi !== null && s > hi)) return false;
    }
    if (terms.length) {
      const hay = members.map(haystack).join("\n");
      for (const term of terms) if (hay.indexOf(term) < 0) return false;
    }
    return true;
  };
}
function reportCase(view, rows, index, extend) {
  const item = view.items[index];
  if (!item) return null;
  if (view.grouped) {
    const targets = new Set(view.items.map((g) => String(g.target)));
    return { title: String(item.eval_id) + (targets.size > 1 ? " \u00b7 " + String(item.target) : ""), body: groupView(item, rows, extend.caseExtras) };
  }
  const body = caseView(item);
  if (extend.caseExtras) body.append(extend.caseExtras(item, index));
  return { title: String(item.eval_id) + (isNum(item.trial) && item.trial > 0 ? " #" + item.trial : ""), body: body };
}
function startReport(given, hooks) {
  const data = given || readData();
  const extend = hooks || {};
  if (!extend.caseExtras && data.labels) extend.caseExtras = (row) => recordedLabels(data, row) || document.createDocumentFragment();
  const rows = Array.isArray(data.rows) ? data.rows : [];
  const view = reportItems(data, rows);
  const app = document.getElementById("app");
  document.title = data.title;
  const selected = { evaluator: "" };
  const grid = createGrid({ id: "cases", columns: reportColumns(view, selected), rows: view.items, noun: "case", nouns: "cases", onOpen: (i) => overlay.open(i), pageSize: 100 });
  grid.element.setAttribute("data-grouped", String(view.grouped));
  const overlay = createOverlay((index) => reportCase(view, rows, index, extend));
  overlay.setNeighbours(() => grid.visible());
  const controls = {
    search: el("input", { id: "search", type: "search", placeholder: "Search ids, answers, misses, errors\u2026", "aria-label": "Search", autocomplete: "off" }),
    dataset: selectOf("filter-dataset", "Dataset", "All datasets", uniqueSorted(rows.map((r) => String(r.dataset === undefined ? "" : r.dataset)))),
    result: selectOf("filter-result", "Result", "All results", view.grouped ? ["pass", "borderline", "fail", "skipped", "flaky"] : ["pass", "borderline", "fail", "error", "skipped"]),
    evaluator: selectOf("filter-evaluator", "Evaluator", "All evaluators", uniqueSorted([].concat.apply([], rows.map(evaluatorNames)))),
    min: el("input", { id: "filter-min", type: "number", min: 0, max: 1, step: 0.05, placeholder: "0", "aria-label": "Minimum score" }),
    max: el("input", { id: "filter-max", type: "number", min: 0, max: 1, step: 0.05, placeholder: "1", "aria-label": "Maximum score" }),
  };
  const reset = el("button", { type: "button", id: "filter-reset", text: "Reset" });
  function apply() {
    selected.evaluator = controls.evaluator.value;
    app.classList.toggle("with-evaluator", selected.evaluator !== "");
    grid.setFilter(reportFilter(view, controls));
  }
  for (const control of [controls.search, controls.min, controls.max]) control.addEventListener("input", apply);
  for (const control of [controls.dataset, controls.result, controls.evaluator]) control.addEventListener("change", apply);
  reset.addEventListener("click", () => {
    for (const key of Object.keys(controls)) controls[key].value = "";
    apply();
  });
  const sub = [data.generated_at ? "Generated " + data.generated_at : null, data.source ? "from " + data.source : null].filter(Boolean).join(" ");
  app.append(
    el("header", { class: "top" }, [el("h1", { text: data.title }), sub ? el("p", { class: "muted", text: sub }) : null]),
    summaryView(data, extend),
    extend.afterSummary ? extend.afterSummary(data) : document.createDocumentFragment(),
    el("div", { class: "controls", role: "search" }, [
      labelled("Search", controls.search), labelled("Dataset", controls.dataset), labelled("Result", controls.result),
      labelled("Evaluator", controls.evaluator), labelled("Score \u2265", controls.min), labelled("Score \u2264", controls.max), reset,
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
