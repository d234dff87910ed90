/**
 * The stylesheet of the HTML pages (static text; no web fonts, no images, no `url()`).
 *
 * @module
 */

/** CSS shared by the report and the compare page. */
export const PAGE_CSS = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1d2125; --muted: #667085; --line: #d0d5dd;
  --soft: #f4f5f7; --pass: #1a7f37; --fail: #cf222e; --border: #9a6700; --error: #8250df;
  --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8b949e;
  --line: #30363d; --soft: #161b22; --pass: #3fb950; --fail: #f85149; --border: #d29922;
  --error: #a371f7; --accent: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 24px 48px; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body.has-overlay { overflow: hidden; }
h1 { font-size: 22px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 18px; margin: 0; overflow-wrap: anywhere; }
h3 { font-size: 15px; margin: 18px 0 6px; }
h4 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); }
.muted { color: var(--muted); }
.noscript { padding: 12px; border: 1px solid var(--line); }
.tiles { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.tile { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 96px; }
.tile-value { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.tile-label { color: var(--muted); font-size: 12px; }
.t-pass .tile-value, .t-win .tile-value { color: var(--pass); }
.t-fail .tile-value, .t-loss .tile-value { color: var(--fail); }
.t-borderline .tile-value { color: var(--border); }
.t-error .tile-value { color: var(--error); }
.stats { margin: 8px 0; }
.verdict-line { font-weight: 600; margin: 8px 0; }
.controls { display: flex; flex-wrap: wrap; align-items: end; gap: 8px 12px; margin: 12px 0;
  position: sticky; top: 0; background: var(--bg); padding: 8px 0; z-index: 2;
  border-bottom: 1px solid var(--line); }
.control { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
input, select, button { font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 4px; padding: 4px 8px; }
input[type="search"] { width: 280px; }
input[type="number"] { width: 80px; }
button { cursor: pointer; }
button:disabled { opacity: 0.5; cursor: default; }
.count { margin-left: auto; font-weight: 600; align-self: center; }
table { border-collapse: collapse; width: 100%; }
table.small { width: auto; margin: 6px 0; }
table.figures, table.confusion { width: auto; margin: 8px 0; }
table.figures td:nth-child(n+2), table.confusion td:nth-child(n+2) { text-align: right; font-variant-numeric: tabular-nums; }
.unit, .consistency { margin: 24px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { position: relative; white-space: nowrap; }
th button.sort { border: 0; padding: 0; background: none; font-weight: 600; }
th[aria-sort="ascending"] button.sort::after { content: " \\25B2"; }
th[aria-sort="descending"] button.sort::after { content: " \\25BC"; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.id { overflow-wrap: anywhere; max-width: 320px; }
td.problem { color: var(--muted); max-width: 420px; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.ev-col { display: none; }
.with-evaluator .ev-col { display: table-cell; }
tbody tr[data-row] { cursor: pointer; }
tbody tr[data-row]:hover, tbody tr[data-row]:focus { background: var(--soft); outline: none; }
tr.empty td { color: var(--muted); text-align: center; padding: 24px; }
.pager { display: flex; gap: 8px; align-items: center; margin: 10px 0; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px;
  font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.b-pass, .b-win, .b-clean { color: var(--pass); }
.b-fail, .b-loss, .b-flagged { color: var(--fail); }
.b-borderline { color: var(--border); }
.b-error { color: var(--error); }
.b-skipped, .b-unscored, .b-tie, .b-onlybaseline, .b-onlycandidate { color: var(--muted); }
ul.labels li.disagree { color: var(--fail); }
.delta-pos { color: var(--pass); }
.delta-neg { color: var(--fail); }
.overlay { position: fixed; inset: 0; background: var(--bg); overflow: auto; z-index: 10;
  padding: 0 24px 48px; }
.overlay[hidden] { display: none; }
.overlay-bar { position: sticky; top: 0; background: var(--bg); display: flex; gap: 8px;
  align-items: center; padding: 12px 0; border-bottom: 1px solid var(--line); z-index: 1; }
.spacer { flex: 1; }
.case-title { margin: 12px 0 4px; }
.score.big { font-size: 18px; font-weight: 600; }
dl.meta { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 8px 0; }
dl.meta div { display: flex; gap: 6px; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
pre.block { background: var(--soft); border: 1px solid var(--line); border-radius: 4px;
  padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px;
  overflow: auto; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.error { border-color: var(--error); }
p.missing { color: var(--muted); font-style: italic; margin: 4px 0; }
.evaluator { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.nested { margin-left: 16px; }
ul.hits li::marker { content: "\\2713  "; color: var(--pass); }
ul.misses li::marker { content: "\\2717  "; color: var(--fail); }
ul { margin: 2px 0; padding-left: 22px; }
li { overflow-wrap: anywhere; }
.message { border-left: 3px solid var(--line); padding: 4px 0 4px 12px; margin: 10px 0; }
.role-assistant { border-left-color: var(--accent); }
.role-tool { border-left-color: var(--border); }
.tool-call { border: 1px dashed var(--line); border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
.side { min-width: 0; }
.side h3.side-title { border-bottom: 2px solid var(--line); padding-bottom: 4px; }
.trials { display: flex; gap: 4px; flex-wrap: wrap; margin: 4px 0; }
.trials button[aria-pressed="true"] { border-color: var(--accent); font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; margin: 12px 0; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; }
figure.chart figcaption { font-size: 12px; color: var(--muted); margin-bottom: 4px; }
svg.bars { width: 360px; height: 170px; }
svg.lines { width: 560px; height: 200px; max-width: 100%; }
svg .axis { stroke: var(--muted); stroke-width: 1; }
svg .grid { stroke: var(--line); stroke-width: 1; stroke-dasharray: 3 3; }
svg .bar { fill: var(--accent); }
svg .band { fill: var(--accent); opacity: 0.15; }
svg .line { fill: none; stroke: var(--accent); stroke-width: 2; }
svg .point { fill: var(--bg); stroke: var(--accent); stroke-width: 2; cursor: pointer; }
svg .point-link:hover .point { fill: var(--accent); }
svg .tick { fill: var(--muted); font-size: 10px; }
svg .tick.end { text-anchor: end; }
svg .tick.mid { text-anchor: middle; }
svg .bar.b-pass { fill: var(--pass); }
svg .bar.b-borderline { fill: var(--border); }
svg .bar.b-fail { fill: var(--fail); }
pre.diff span { display: block; }
.diff-add { background: rgba(26, 127, 55, 0.15); }
.diff-del { background: rgba(207, 34, 46, 0.15); }
.diff-hunk { color: var(--accent); }
.diff-file { font-weight: 600; }
.diff-note { color: var(--muted); }
.conversation .message { border-radius: 6px; background: var(--soft); padding: 6px 12px; }
.conversation .role-user { border-left-color: var(--pass); }
.conversation .role-system { border-left-color: var(--muted); }
.file-seg { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; margin: 4px 0; }
.file-seg .file-name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.run-info { border: 1px solid var(--line); border-radius: 6px; padding: 4px 12px; margin: 12px 0; }
.run-info h2 { font-size: 15px; margin: 6px 0; }
.flaky { color: var(--border); font-weight: 600; }
table.passk { width: auto; margin: 6px 0; }
@media (max-width: 900px) { .sides { grid-template-columns: 1fr; } }
`;
