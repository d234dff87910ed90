/**
 * Browser code of the compare page: the verdict line and statistics, a table of every case with
 * both scores and the Δ (filterable by outcome, flip, dataset and text), and a side-by-side case
 * view (baseline | candidate, each with its trials) with the per-evaluator Δ. Reads the data block
 * written by `renderCompareHtml`.
 *
 * @module
 */

/** The compare page (plain JS text; needs CLIENT_UTIL, CLIENT_CASE, CLIENT_GRID, CLIENT_SHELL). */
export const CLIENT_COMPARE = String.raw`
function deltaCell(value) {
  return el("span", { class: isNum(value) && value > 0 ? "delta-pos" : isNum(value) && value < 0 ? "delta-neg" : null, text: fmtDelta(value) });
}
function outcomeOf(c) {
  return c.kind === "pair" ? c.outcome : c.kind === "only_baseline" ? "only baseline" : "only candidate";
}
function verdictChange(c) {
  if (c.kind !== "pair") return c.kind === "only_baseline" ? String(c.baseline_verdict) : String(c.candidate_verdict);
  return c.flip ? String(c.flip) : String(c.baseline_verdict) + " (same)";
}
const HAYSTACKS = new WeakMap();
function compareHaystack(c) {
  let text = HAYSTACKS.get(c);
  if (text === undefined) {
    const parts = [c.eval_id, c.dataset, c.flip];
    for (const row of c.baseline.concat(c.candidate)) parts.push(row.candidate_answer, row.error, Array.isArray(row.misses) ? row.misses.join("\n") : "");
    text = parts.map((p) => (p === undefined || p === null ? "" : pretty(p))).join("\n").toLowerCase();
    HAYSTACKS.set(c, text);
  }
  return text;
}
function num(x, digits) {
  return isNum(x) ? x.toFixed(digits === undefined ? 3 : digits) : "\u2013";
}
function fmtP(p) {
  if (!isNum(p)) return "\u2013";
  return p < 0.0001 ? "< 0.0001" : String(Number(p.toPrecision(4)));
}
function compareSummaryView(data) {
  const s = data.summary || {};
  const box = el("div", { class: "summary" });
  if (s.verdict_line) box.append(el("p", { class: "verdict-line", id: "verdict-line", text: String(s.verdict_line) }));
  box.append(el("div", { class: "tiles", id: "summary" }, [
    tile("Paired cases", isNum(s.pairs) ? s.pairs : "\u2013", "total"),
    tile("Wins", isNum(s.wins) ? s.wins : "\u2013", "win"),
    tile("Losses", isNum(s.losses) ? s.losses : "\u2013", "loss"),
    tile("Ties (|\u0394| \u2264 " + num(s.delta, 2) + ")", isNum(s.ties) ? s.ties : "\u2013", "tie"),
    tile("Flips (pass\u2192fail)", (Array.isArray(s.flips) ? s.flips.length : "\u2013") + " (" + (isNum(s.pass_to_fail) ? s.pass_to_fail : 0) + ")", "fail"),
    tile("Only baseline", isNum(s.only_baseline) ? s.only_baseline : "\u2013", "only"),
    tile("Only candidate", isNum(s.only_candidate) ? s.only_candidate : "\u2013", "only"),
    tile("Mean score", num(s.baseline_mean) + " \u2192 " + num(s.candidate_mean), "mean"),
    tile("Mean \u0394", fmtDelta(s.mean_delta), "mean"),
    tile("Median \u0394", fmtDelta(s.median_delta), "mean"),
  ]));
  const stats = [];
  if (s.interval && isNum(s.interval.low)) {
    stats.push(["Bootstrap " + Math.round((s.interval.confidence || 0.95) * 100) + "% CI of the mean \u0394", fmtDelta(s.interval.low) + " to " + fmtDelta(s.interval.high) + " (" + s.interval.resamples + " resamples, seed " + s.interval.seed + ")"]);
  }
  if (s.wilcoxon) stats.push(["Wilcoxon signed-rank p", fmtP(s.wilcoxon.p_value) + " (" + s.wilcoxon.method + ", n = " + s.wilcoxon.n + ")"]);
  if (s.sign_test) stats.push(["Sign test p", fmtP(s.sign_test.p_value) + " (+" + s.sign_test.positive + " / \u2212" + s.sign_test.negative + " / 0: " + s.sign_test.zero + ")"]);
  if (stats.length) box.append(el("div", { class: "stats" }, [meta(stats)]));
  if (Array.isArray(s.evaluators) && s.evaluators.length > 0) {
    const body = el("tbody");
    for (const e of s.evaluators) {
      body.append(el("tr", null, [el("td", { text: String(e.name) }), el("td", { class: "num", text: e.pairs }), el("td", { class: "num", text: num(e.baseline_mean) }), el("td", { class: "num", text: num(e.candidate_mean) }), el("td", { class: "num" }, [deltaCell(e.mean_delta)])]));
    }
    box.append(el("details", { class: "evaluator-means" }, [
      el("summary", { text: "Per-evaluator \u0394 (" + s.evaluators.length + ")" }),
      el("table", { class: "small" }, [el("thead", null, [el("tr", null, ["Evaluator", "Pairs", "Baseline", "Candidate", "\u0394"].map((h) => el("th", { text: h })))]), body]),
    ]));
  }
  return box;
}
function sideView(label, rows, cls) {
  const side = el("div", { class: "side " + cls }, [el("h3", { class: "side-title", text: label })]);
  if (rows.length === 0) {
    side.append(el("p", { class: "missing", text: "This case is not in this run" }));
    return side;
  }
  const holder = el("div");
  const show = (i) => {
    holder.replaceChildren(caseView(rows[i]));
    for (const b of buttons) b.setAttribute("aria-pressed", String(Number(b.getAttribute("data-trial")) === i));
  };
  const buttons = rows.length > 1
    ? rows.map((row, i) => el("button", { type: "button", "data-trial": i, text: "Trial " + (isNum(row.trial) ? row.trial : i + 1), onclick: () => show(i) }))
    : [];
  if (buttons.length) side.append(el("div", { class: "trials", role: "group", "aria-label": "Trials" }, buttons));
  side.append(holder);
  show(0);
  return side;
}
function pairView(c, labels) {
  const box = el("div", { class: "pair-body" });
  const line = [
    el("span", { text: labels.baseline + " " + fmtScore(c.baseline_score) + " \u2192 " + labels.candidate + " " + fmtScore(c.candidate_score) + "  " }),
  ];
  if (c.kind === "pair") line.push(el("strong", null, ["\u0394 ", deltaCell(c.delta)]), " ", badge(c.outcome));
  else line.push(badge(outcomeOf(c)));
  if (c.flip) line.push(" ", el("strong", { class: "flip", text: String(c.flip) }));
  box.append(el("p", { class: "case-title" }, line));
  box.append(meta([["Dataset", c.dataset]]));
  if (Array.isArray(c.evaluators) && c.evaluators.length > 0) {
    const body = el("tbody");
    for (const e of c.evaluators) {
      body.append(el("tr", null, [el("td", { text: String(e.name) }), el("td", { class: "num", text: fmtScore(e.baseline_score) }), el("td", { class: "num", text: fmtScore(e.candidate_score) }), el("td", { class: "num" }, [deltaCell(e.delta)])]));
    }
    box.append(section("Evaluator \u0394", el("table", { class: "small", id: "pair-evaluators" }, [el("thead", null, [el("tr", null, ["Evaluator", labels.baseline, labels.candidate, "\u0394"].map((h) => el("th", { text: h })))]), body])));
  }
  box.append(el("div", { class: "sides" }, [
    sideView("Baseline: " + labels.baseline, c.baseline, "side-baseline"),
    sideView("Candidate: " + labels.candidate, c.candidate, "side-candidate"),
  ]));
  return box;
}
const OUTCOMES = ["loss", "win", "tie", "flip", "pass\u2192fail", "only baseline", "only candidate"];
function startCompare(given) {
  const data = given || readData();
  const cases = Array.isArray(data.cases) ? data.cases : [];
  const labels = { baseline: String(data.labels.baseline), candidate: String(data.labels.candidate) };
  const app = document.getElementById("app");
  document.title = data.title;
  const columns = [
    { key: "eval_id", label: "Case", value: (c) => String(c.eval_id), cls: "id" },
    { key: "dataset", label: "Dataset", value: (c) => String(c.dataset) },
    { key: "baseline", label: "Baseline", value: (c) => (isNum(c.baseline_score) ? c.baseline_score : null), cell: (c) => fmtScore(c.baseline_score), cls: "num" },
    { key: "candidate", label: "Candidate", value: (c) => (isNum(c.candidate_score) ? c.candidate_score : null), cell: (c) => fmtScore(c.candidate_score), cls: "num" },
    { key: "delta", label: "\u0394", value: (c) => (isNum(c.delta) ? c.delta : null), cell: (c) => deltaCell(c.delta), cls: "num delta" },
    { key: "outcome", label: "Outcome", value: outcomeOf, cell: (c) => badge(outcomeOf(c)) },
    { key: "verdicts", label: "Verdict", value: verdictChange },
  ];
  const grid = createGrid({ id: "pairs", columns: columns, rows: cases, noun: "case", nouns: "cases", onOpen: (i) => overlay.open(i), pageSize: 100, sort: { key: "delta", dir: 1 } });
  const overlay = createOverlay((index) => {
    const c = cases[index];
    return c ? { title: String(c.eval_id), body: pairView(c, labels) } : null;
  });
  overlay.setNeighbours(() => grid.visible());
  const search = el("input", { id: "search", type: "search", placeholder: "Search ids, answers, misses\u2026", "aria-label": "Search", autocomplete: "off" });
  const dataset = selectOf("filter-dataset", "Dataset", "All datasets", uniqueSorted(cases.map((c) => String(c.dataset))));
  const outcome = selectOf("filter-outcome", "Outcome", "All outcomes", OUTCOMES);
  function apply() {
    const text = search.value.trim().toLowerCase();
    const terms = text ? text.split(/\s+/) : [];
    const ds = dataset.value;
    const out = outcome.value;
    grid.setFilter(terms.length || ds || out ? (c) => {
      if (ds && String(c.dataset) !== ds) return false;
      if (out === "flip" && !c.flip) return false;
      if (out === "pass\u2192fail" && c.flip !== "pass\u2192fail") return false;
      if (out && out !== "flip" && out !== "pass\u2192fail" && outcomeOf(c) !== out) return false;
      if (terms.length) {
        const hay = compareHaystack(c);
        for (const term of terms) if (hay.indexOf(term) < 0) return false;
      }
      return true;
    } : null);
  }
  search.addEventListener("input", apply);
  dataset.addEventListener("change", apply);
  outcome.addEventListener("change", apply);
  const sub = [labels.baseline + " \u2192 " + labels.candidate, data.generated_at ? "generated " + data.generated_at : null].filter(Boolean).join(", ");
  app.append(
    el("header", { class: "top" }, [el("h1", { text: data.title }), el("p", { class: "muted", text: sub })]),
    compareSummaryView(data),
    el("div", { class: "controls", role: "search" }, [labelled("Search", search), labelled("Dataset", dataset), labelled("Outcome", outcome), grid.countElement]),
    grid.element,
    overlay.element,
  );
  overlay.sync();
  document.body.setAttribute("data-ready", "true");
}
`;
