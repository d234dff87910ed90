/**
 * The viewer's CSS, added to the HTML report's (static text; no fonts, images or `url()`).
 *
 * @module
 */

/** CSS of the navigation bar and labels (charts and diffs are styled by the report's CSS). */
export const VIEW_CSS = `
.viewnav { display: flex; gap: 16px; align-items: center; padding: 6px 0 10px;
  border-bottom: 1px solid var(--line); margin-bottom: 8px; }
.viewnav a { color: var(--accent); text-decoration: none; }
.viewnav a[aria-current="page"] { font-weight: 600; text-decoration: underline; }
a { color: var(--accent); }
.error-box { border: 1px solid var(--fail); color: var(--fail); padding: 8px 12px; border-radius: 6px; }
.verdict-line.degrading { color: var(--fail); }
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
ul.plain { list-style: none; padding-left: 0; }
`;
