/**
 * Browser code of the charts of the HTML report and the local viewer: small inline SVG drawn by
 * agentv itself (no charting library, nothing fetched): bars (a histogram, per-evaluator means)
 * and lines over time with a confidence band, whose points are links. Every label reaches the SVG
 * through `textContent`.
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** The chart functions (plain JS text; needs CLIENT_UTIL). */
export const CLIENT_CHARTS = String.raw`
const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const key of Object.keys(attrs || {})) {
    const value = attrs[key];
    if (value === undefined || value === null) continue;
    if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children || []) if (child) node.append(child);
  return node;
}
function chartBox(title, svg, id) {
  return el("figure", { class: "chart", id: id || null }, [el("figcaption", { text: title }), svg]);
}
function niceMax(x) {
  if (!(x > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 2.5, 5, 10]) if (x <= m * p) return m * p;
  return 10 * p;
}
function barChart(options) {
  const bars = options.bars;
  const w = 360, h = 170, left = 40, bottom = 34, top = 8;
  const max = options.max !== undefined ? options.max : niceMax(Math.max(0, ...bars.map((b) => b.value)));
  const plotW = w - left - 8, plotH = h - top - bottom;
  const step = bars.length ? plotW / bars.length : plotW;
  const svg = svgEl("svg", { viewBox: "0 0 " + w + " " + h, class: "bars", role: "img", "aria-label": options.title });
  svg.append(svgEl("line", { x1: left, y1: top + plotH, x2: w - 8, y2: top + plotH, class: "axis" }));
  svg.append(svgEl("text", { x: left - 4, y: top + 8, class: "tick end", text: options.format ? options.format(max) : String(max) }));
  svg.append(svgEl("text", { x: left - 4, y: top + plotH, class: "tick end", text: "0" }));
  bars.forEach((bar, i) => {
    const bh = max > 0 ? (bar.value / max) * plotH : 0;
    const x = left + i * step + step * 0.12;
    const rect = svgEl("rect", { x: x.toFixed(1), y: (top + plotH - bh).toFixed(1), width: (step * 0.76).toFixed(1), height: bh.toFixed(1), class: "bar" + (bar.cls ? " " + bar.cls : ""), "data-value": bar.value }, [
      svgEl("title", { text: bar.label + ": " + (options.format ? options.format(bar.value) : bar.value) }),
    ]);
    svg.append(rect);
    if (bars.length <= 6 || i % 2 === 0) {
      svg.append(svgEl("text", { x: (x + step * 0.38).toFixed(1), y: h - bottom + 14, class: "tick mid", text: bar.label.length > 10 ? bar.label.slice(0, 9) + "\u2026" : bar.label }));
    }
  });
  return chartBox(options.title, svg, options.id);
}
function histogramBars(values, bins, lo, hi, label) {
  const counts = new Array(bins).fill(0);
  const span = hi - lo || 1;
  for (const v of values) {
    if (!isNum(v)) continue;
    counts[Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / span) * bins)))]++;
  }
  return counts.map((count, i) => ({ value: count, label: label(lo + (span * i) / bins, lo + (span * (i + 1)) / bins) }));
}
function lineChart(options) {
  const points = options.points;
  const w = 560, h = 200, left = 44, right = 12, top = 10, bottom = 26;
  const plotW = w - left - right, plotH = h - top - bottom;
  const values = [];
  for (const p of points) {
    if (isNum(p.value)) values.push(p.value);
    if (p.band) values.push(p.band[1]);
  }
  const max = options.max !== undefined ? options.max : niceMax(Math.max(0, ...values));
  const x = (i) => left + (points.length <= 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (v) => top + plotH - (max > 0 ? (v / max) * plotH : 0);
  const svg = svgEl("svg", { viewBox: "0 0 " + w + " " + h, class: "lines", role: "img", "aria-label": options.title });
  for (const t of [0, 0.5, 1]) {
    svg.append(svgEl("line", { x1: left, y1: y(max * t).toFixed(1), x2: w - right, y2: y(max * t).toFixed(1), class: t === 0 ? "axis" : "grid" }));
    svg.append(svgEl("text", { x: left - 4, y: (y(max * t) + 4).toFixed(1), class: "tick end", text: options.format ? options.format(max * t) : String(max * t) }));
  }
  const banded = points.map((p, i) => (p.band ? [i, p.band] : null)).filter(Boolean);
  if (banded.length > 1) {
    const upper = banded.map((b) => x(b[0]).toFixed(1) + "," + y(b[1][1]).toFixed(1));
    const lower = banded.slice().reverse().map((b) => x(b[0]).toFixed(1) + "," + y(b[1][0]).toFixed(1));
    svg.append(svgEl("polygon", { points: upper.concat(lower).join(" "), class: "band" }));
  }
  const line = points.map((p, i) => (isNum(p.value) ? x(i).toFixed(1) + "," + y(p.value).toFixed(1) : null)).filter(Boolean);
  if (line.length > 1) svg.append(svgEl("polyline", { points: line.join(" "), class: "line" }));
  points.forEach((p, i) => {
    if (!isNum(p.value)) return;
    const dot = svgEl("circle", { cx: x(i).toFixed(1), cy: y(p.value).toFixed(1), r: 4, class: "point", "data-run": p.run }, [
      svgEl("title", { text: p.label + ": " + (options.format ? options.format(p.value) : p.value) }),
    ]);
    svg.append(p.href ? svgEl("a", { href: p.href, class: "point-link" }, [dot]) : dot);
  });
  if (points.length) {
    svg.append(svgEl("text", { x: left, y: h - 6, class: "tick", text: points[0].label }));
    if (points.length > 1) svg.append(svgEl("text", { x: w - right, y: h - 6, class: "tick end", text: points[points.length - 1].label }));
  }
  return chartBox(options.title, svg, options.id);
}
`;
