/**
 * Browser code of the viewer shared by its pages (the token, links, API calls, the navigation
 * bar), the run list and the trends. Every page reads the token from its own URL and sends it in
 * the `X-Agentv-Token` header of each API call; every link it builds carries it.
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** Shared code and the runs and trend pages (plain JS text). */
export const CLIENT_VIEW = String.raw`
const VIEW = readData();
const TOKEN = new URLSearchParams(location.search).get("token") || "";
function queryOf(params) {
  const q = new URLSearchParams();
  for (const key of Object.keys(params || {})) {
    const value = params[key];
    if (value !== undefined && value !== null && value !== "") q.set(key, String(value));
  }
  return q;
}
function href(path, params) {
  const q = queryOf(params);
  q.set("token", TOKEN);
  return path + "?" + q.toString();
}
function pageParam(name) {
  return new URLSearchParams(location.search).get(name) || "";
}
async function api(path, params, init) {
  const q = queryOf(params).toString();
  const options = Object.assign({}, init || {});
  options.headers = Object.assign({ "X-Agentv-Token": TOKEN }, options.headers || {});
  const response = await fetch(path + (q ? "?" + q : ""), options);
  let body = null;
  try {
    body = await response.json();
  } catch (_e) {
    body = { error: "The viewer answered " + response.status };
  }
  if (!response.ok) throw new Error(body && body.error ? String(body.error) : "HTTP " + response.status);
  return body;
}
function link(text, path, params, attrs) {
  return el("a", Object.assign({ href: href(path, params), text: text }, attrs || {}));
}
function navBar(current) {
  const item = (name, label, path) => link(label, path, {}, { class: "nav-" + name, "aria-current": current === name ? "page" : null });
  return el("nav", { class: "viewnav", "aria-label": "Viewer" }, [el("strong", { text: "agentv view" }), item("runs", "Runs", "/"), item("trends", "Trends", "/trend"), item("compare", "Compare", "/compare")]);
}
function ready() {
  document.body.setAttribute("data-ready", "true");
}
function failed(app, error) {
  app.append(el("p", { class: "error-box", role: "alert", id: "view-error", text: String((error && error.message) || error) }));
  ready();
}
function fmtRate(x) {
  return isNum(x) ? (x * 100).toFixed(1) + "%" : "\u2013";
}
function fmtUsd(x) {
  return isNum(x) ? "$" + (x < 0.01 && x > 0 ? x.toFixed(6).replace(/0+$/, "") : x.toFixed(2)) : "\u2013";
}
function fmtTime(iso) {
  return typeof iso === "string" ? iso.slice(0, 16).replace("T", " ") : "\u2013";
}
function fmtInterval(i, digits, scale) {
  if (!i) return "";
  const s = scale || 1;
  return " (" + (i.low * s).toFixed(digits) + "\u2013" + (i.high * s).toFixed(digits) + ")";
}
function listText(values) {
  return Array.isArray(values) ? values.map(String).join(", ") : "";
}
function runsPage(app) {
  app.append(el("header", { class: "top" }, [el("h1", { text: "Runs" })]));
  const holder = el("div");
  api("/api/facets").then((facets) => {
    const dataset = selectOf("filter-dataset", "Dataset", "All datasets", facets.datasets);
    const target = selectOf("filter-target", "Target", "All targets", facets.targets);
    const status = selectOf("filter-status", "Status", "All statuses", facets.statuses);
    const from = el("input", { id: "filter-from", type: "date", "aria-label": "From" });
    const to = el("input", { id: "filter-to", type: "date", "aria-label": "To" });
    const count = el("span", { class: "count" });
    let generation = 0;
    async function load() {
      const mine = ++generation;
      const data = await api("/api/runs", { dataset: dataset.value, target: target.value, status: status.value, from: from.value, to: to.value });
      if (mine !== generation) return;
      const runs = data.runs;
      const grid = createGrid({
        id: "runs",
        rows: runs,
        noun: "run",
        nouns: "runs",
        pageSize: 100,
        onOpen: (i) => { location.href = href("/run", { id: runs[i].run_id }); },
        columns: [
          { key: "started_at", label: "Started (UTC)", value: (r) => String(r.started_at), cell: (r) => fmtTime(r.started_at) },
          { key: "run_id", label: "Run", value: (r) => String(r.run_id), cell: (r) => link(String(r.run_id), "/run", { id: r.run_id }, { class: "run-link" }), cls: "id" },
          { key: "datasets", label: "Datasets", value: (r) => listText(r.datasets) },
          { key: "targets", label: "Targets", value: (r) => listText(r.targets) },
          { key: "status", label: "Status", value: (r) => String(r.status), cell: (r) => badge(String(r.status)) },
          { key: "rows", label: "Cases", value: (r) => r.rows, cls: "num" },
          { key: "pass_rate", label: "Pass rate", value: (r) => r.pass_rate, cell: (r) => fmtRate(r.pass_rate), cls: "num" },
          { key: "mean_score", label: "Mean", value: (r) => r.mean_score, cell: (r) => fmtScore(r.mean_score), cls: "num" },
          { key: "cost_usd", label: "Cost", value: (r) => r.cost_usd, cell: (r) => fmtUsd(r.cost_usd), cls: "num" },
          { key: "duration_ms", label: "Duration", value: (r) => r.duration_ms, cell: (r) => fmtMs(r.duration_ms), cls: "num" },
          { key: "agentv_version", label: "agentv", value: (r) => (r.agentv_version === null ? "" : String(r.agentv_version)) },
        ],
      });
      count.replaceChildren(grid.countElement);
      holder.replaceChildren(grid.element);
      ready();
    }
    const reload = () => { document.body.removeAttribute("data-ready"); load().catch((e) => failed(app, e)); };
    for (const control of [dataset, target, status, from, to]) control.addEventListener("change", reload);
    app.append(el("div", { class: "controls", role: "search" }, [
      labelled("Dataset", dataset), labelled("Target", target), labelled("Status", status),
      labelled("From", from), labelled("To", to), count,
    ]), holder);
    return load();
  }).catch((e) => failed(app, e));
}
function trendIndex(app, data) {
  app.append(el("header", { class: "top" }, [el("h1", { text: "Trends" }), el("p", { class: "muted", text: "One series per dataset and target" })]));
  const body = el("tbody");
  for (const s of data.series) {
    body.append(el("tr", null, [
      el("td", null, [link(String(s.dataset) + " on " + String(s.target), "/trend", { dataset: s.dataset, target: s.target }, { class: "series-link" })]),
      el("td", { class: "num", text: s.runs }),
      el("td", { text: fmtTime(s.latest) }),
    ]));
  }
  const datasets = uniqueSorted(data.series.map((s) => String(s.dataset)));
  const compare = el("ul", { class: "plain" }, datasets.map((d) => {
    const targets = data.series.filter((s) => s.dataset === d).map((s) => String(s.target));
    return targets.length > 1 ? el("li", null, [link("Compare the targets of " + d, "/compare", { dataset: d, targets: targets.join(",") })]) : null;
  }));
  app.append(el("table", { class: "small", id: "series" }, [el("thead", null, [el("tr", null, ["Series", "Runs", "Latest (UTC)"].map((h) => el("th", { text: h })))]), body]), compare);
  ready();
}
function trendPage(app) {
  const dataset = pageParam("dataset");
  const target = pageParam("target");
  api("/api/trend", { dataset: dataset, target: target }).then((data) => {
    if (data.series) return trendIndex(app, data);
    app.append(el("header", { class: "top" }, [el("h1", { text: String(data.dataset) + " on " + String(data.target) }), el("p", { class: "muted", text: data.points.length + " run(s)" })]));
    if (data.drift) app.append(el("p", { class: "verdict-line" + (data.drift.degrading ? " degrading" : ""), id: "drift-line", text: String(data.drift.line) }));
    const point = (p, value, band) => ({ value: value, band: band, run: p.run_id, label: fmtTime(p.started_at), href: href("/run", { id: p.run_id }) });
    const charts = el("div", { class: "charts" }, [
      lineChart({ id: "chart-pass-rate", title: "Pass rate (95% Wilson interval)", max: 1, format: (v) => Math.round(v * 100) + "%", points: data.points.map((p) => point(p, p.pass_rate, p.pass_interval ? [p.pass_interval.low, p.pass_interval.high] : null)) }),
      lineChart({ id: "chart-mean", title: "Mean score (95% interval)", max: 1, format: (v) => v.toFixed(2), points: data.points.map((p) => point(p, p.mean_score, p.mean_interval ? [p.mean_interval.low, p.mean_interval.high] : null)) }),
      lineChart({ id: "chart-cost", title: "Cost per run", format: fmtUsd, points: data.points.map((p) => point(p, p.cost_usd, null)) }),
      lineChart({ id: "chart-latency", title: "Mean latency", format: fmtMs, points: data.points.map((p) => point(p, p.duration_mean_ms, null)) }),
    ]);
    const body = el("tbody");
    for (const p of data.points.slice().reverse()) {
      body.append(el("tr", null, [
        el("td", { text: fmtTime(p.started_at) }),
        el("td", { class: "id" }, [link(String(p.run_id), "/run", { id: p.run_id })]),
        el("td", { class: "num", text: p.scored + p.errors }),
        el("td", { class: "num", text: fmtRate(p.pass_rate) + fmtInterval(p.pass_interval, 1, 100) }),
        el("td", { class: "num", text: fmtScore(p.mean_score) + fmtInterval(p.mean_interval, 2) }),
        el("td", { class: "num", text: fmtUsd(p.cost_usd) }),
        el("td", { class: "num", text: fmtMs(p.duration_mean_ms) }),
      ]));
    }
    app.append(charts, el("table", { class: "small", id: "trend-points" }, [el("thead", null, [el("tr", null, ["Started (UTC)", "Run", "Cases", "Pass rate", "Mean", "Cost", "Latency"].map((h) => el("th", { text: h })))]), body]));
    ready();
  }).catch((e) => failed(app, e));
}
function startView() {
  const app = document.getElementById("app");
  const pages = { runs: runsPage, run: runPage, case: casePage, trends: trendPage, compare: comparePage };
  app.append(navBar(VIEW.page));
  (pages[VIEW.page] || runsPage)(app);
}
`;
