/**
 * Browser code of the calibration page (`agentv calibrate --format html`): the gate line, per
 * evaluator the confusion matrix, a table of the figures with their intervals and n, and the
 * disagreements with the judge's reasoning and each reviewer's note; then self-consistency and
 * order sensitivity with the unstable answers. Reads the `--json` document embedded by
 * `renderCalibrationHtml`; every value reaches the DOM as text.
 *
 * @module
 */

/** The calibration page (plain JS text; needs CLIENT_UTIL and CLIENT_SHELL). */
export const CLIENT_CALIBRATION = String.raw`
function fig(x) {
  return isNum(x) ? x.toFixed(2) : "\u2013";
}
function ciText(e) {
  return e && e.ci && isNum(e.ci.low) ? fig(e.ci.low) + " \u2013 " + fig(e.ci.high) : "\u2013";
}
function caseText(d) {
  const name = d.dataset ? d.dataset + "/" + d.eval_id : d.eval_id;
  return name + " (" + d.target + (d.trial > 0 ? ", trial " + d.trial : "") + ")";
}
function unitTitle(u) {
  return u.evaluator === null ? "Case verdict" : "Evaluator " + u.evaluator + (u.type ? " (" + u.type + ")" : "");
}
function table(head, rows, cls) {
  return el("table", { class: cls || "figures" }, [
    el("thead", null, [el("tr", null, head.map((h) => el("th", { text: h })))]),
    el("tbody", null, rows.map((r) => el("tr", null, r.map((c) => el("td", { text: c }))))),
  ]);
}
function figureRow(name, e) {
  return [name, fig(e ? e.value : null), ciText(e), e ? String(e.n) : "\u2013"];
}
function disagreementsView(u) {
  const list = Array.isArray(u.disagreements) ? u.disagreements : [];
  if (list.length === 0) return el("p", { class: "muted", text: "No disagreement." });
  const items = list.map((d) => el("li", { class: "disagreement" }, [
    el("div", null, [el("strong", { text: caseText(d) }), " judge ", badge(String(d.judge_verdict)), " " + fig(d.judge_score) + ", people ", badge(String(d.human_verdict))]),
    d.reasoning ? el("div", { class: "reasoning", text: "Judge: " + d.reasoning }) : null,
    el("ul", null, (d.reviewers || []).map((r) => el("li", { text: r.reviewer + ": " + r.label + (isNum(r.score) ? " " + fig(r.score) : "") + (r.note ? " \u2014 " + r.note : "") }))),
  ]));
  return el("details", { open: list.length <= 10 ? "open" : null }, [el("summary", { text: list.length + " disagreement(s)" }), el("ol", null, items)]);
}
function unitView(u) {
  const m = u.confusion || {};
  const rows = [
    figureRow("accuracy", u.accuracy),
    figureRow("sensitivity", u.sensitivity),
    figureRow("specificity", u.specificity),
    figureRow("Cohen's \u03ba", u.kappa),
  ];
  if (u.alpha) {
    rows.push(figureRow("Krippendorff's \u03b1, reviewers", u.alpha.reviewers));
    rows.push(figureRow("Krippendorff's \u03b1, with the judge", u.alpha.with_judge));
  }
  if (u.scores) {
    rows.push(figureRow("Spearman's \u03c1 (scores)", u.scores.spearman));
    rows.push(figureRow("mean |judge \u2212 people| (scores)", u.scores.mad));
  }
  const judges = (u.judge_targets || []).join(", ") || "not recorded";
  return el("section", { class: "unit" }, [
    el("h2", { text: unitTitle(u) }),
    el("p", { class: "muted", text: "Judge " + judges + ((u.models || []).length ? ", model " + u.models.join(", ") : "") + "; " + (u.reviewers || []).length + " reviewer(s); " + u.n + " labelled" + (u.ties ? " (" + u.ties + " split evenly, left out)" : "") }),
    table(["", "people pass", "people fail"], [["judge pass", String(m.tp), String(m.fp)], ["judge fail", String(m.fn), String(m.tn)]], "confusion"),
    table(["figure", "value", "CI", "n"], rows),
    disagreementsView(u),
  ]);
}
function consistencyView(c) {
  if (!c) return null;
  const title = c.kind === "repeat" ? "Self-consistency (each answer judged " + c.k + " times)" : "Order sensitivity (rubric items in " + c.k + " orders)";
  const rows = (c.evaluators || []).map((e) => [e.evaluator, String(e.items), String(e.unstable), fig(e.unstable_share ? e.unstable_share.value : null) + " [" + ciText(e.unstable_share) + "]", fig(e.mean_flip_rate), fig(e.mean_score_sd)]);
  const unstable = (c.items || []).filter((i) => i.unstable);
  return el("section", { class: "consistency" }, [
    el("h2", { text: title }),
    table(["evaluator", "answers", "unstable", "share [CI]", "mean flip rate", "mean score sd"], rows),
    unstable.length === 0 ? el("p", { class: "muted", text: "Every answer got the same verdict each time." }) : el("ul", { class: "unstable" }, unstable.map((i) => el("li", { text: caseText(i) + ", " + i.evaluator + ": pass " + i.verdicts.pass + ", borderline " + i.verdicts.borderline + ", fail " + i.verdicts.fail + "; score sd " + fig(i.score_sd) }))),
  ]);
}
function startCalibration() {
  const data = readData();
  const app = document.getElementById("app");
  const parts = [el("h1", { text: data.title || "agentv calibrate" })];
  if (data.gate) {
    const failures = data.gate.failures || [];
    parts.push(el("p", { class: "verdict-line", id: "gate", text: failures.length === 0 ? "Gate passed" : "Gate failed: " + failures.join("; ") }));
  }
  if (data.labels) {
    parts.push(el("div", { class: "tiles", id: "summary" }, [
      tile("Labels matched", data.labels.matched + " of " + data.labels.latest, "total"),
      tile("Matched nothing", String((data.labels.unmatched || []).length), "fail"),
      tile("Evaluators", String((data.evaluators || []).length), "total"),
    ]));
  } else {
    parts.push(el("p", { class: "muted", text: "No labels: agreement with people was not measured." }));
  }
  for (const u of data.evaluators || []) parts.push(unitView(u));
  const consistency = data.consistency || {};
  parts.push(consistencyView(consistency.repeat), consistencyView(consistency.orders));
  append(app, parts);
}
`;
