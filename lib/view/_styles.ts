/**
 * The viewer's CSS, added to the HTML report's (static text; no fonts, images or `url()`).
 *
 * @module
 */

/** CSS of the navigation bar, charts, labels and diffs. */
export const VIEW_CSS = `
.viewnav { display: flex; gap: 16px; align-items: center; padding: 6px 0 10px;
  border-bottom: 1px solid var(--line); margin-bottom: 8px; }
.viewnav a { color: var(--accent); text-decoration: none; }
.viewnav a[aria-current="page"] { font-weight: 600; text-decoration: underline; }
a { color: var(--accent); }
.error-box { border: 1px solid var(--fail); color: var(--fail); padding: 8px 12px; border-radius: 6px; }
.verdict-line.degrading { color: var(--fail); }
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
.run-meta p { display: flex; gap: 12px; flex-wrap: wrap; }
.t-labels .tile-value { color: var(--error); }
ul.labels { list-style: none; padding-left: 0; }
li.label-item { border-left: 3px solid var(--line); padding: 2px 8px; margin: 4px 0; }
li.label-item.disagree { border-left-color: var(--fail); }
.disagree-note { color: var(--fail); font-weight: 600; }
.label-note { white-space: pre-wrap; overflow-wrap: anywhere; }
.small-text { font-size: 11px; }
.label-form { display: flex; flex-wrap: wrap; gap: 8px 12px; margin: 6px 0; }
textarea { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 4px; padding: 4px 8px; width: 100%; max-width: 640px; }
tr.flipped td.flip { color: var(--fail); font-weight: 600; }
pre.diff span { display: block; }
.diff-add { background: rgba(26, 127, 55, 0.15); }
.diff-del { background: rgba(207, 34, 46, 0.15); }
ul.plain { list-style: none; padding-left: 0; }
`;
