/**
 * A Markdown report of result rows, for people (a pull-request comment, a GitHub Actions job
 * summary): a summary table per dataset, the failed and errored cases with their first miss or
 * error, the findings of the integrity guard (with their evidence), and each evaluator's mean
 * score. Cell text is escaped so a `|` or a line break in an
 * answer cannot break a table, HTML in it is shown, not rendered, and links, images, mentions and
 * issue references in it do nothing (`lib/text/markdown_text.ts`).
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";
import { neutralizeMarkdown } from "../text/markdown_text.ts";
import { summarizeResults } from "../results/summary.ts";
import { trialLabel, type TrialsSummary } from "../results/trials.ts";
import type { LabelAgreement } from "../results/label_agreement.ts";

/** Options of {@link renderMarkdownReport}. */
export interface MarkdownReportOptions {
  /** Heading of the report (default `agentv results`). */
  title?: string;
  /** Wall time of the run in ms (default: the sum of the cases' durations). */
  durationMs?: number;
  /** Most failed (and, separately, errored) cases listed (default 50). */
  maxCases?: number;
  /** The results file, named under the heading when given. */
  resultsPath?: string;
  /** Lines shown under the heading as a quote (e.g. that the run was interrupted). */
  notes?: readonly string[];
  /** Human labels of the rows beside agentv's verdicts (a section when any label counts). */
  labels?: LabelAgreement;
}

// C0 controls but tab and line breaks, DEL and C1 controls, bidi overrides and isolates.
// deno-lint-ignore no-control-regex
const INVISIBLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Escapes text for one GitHub-flavoured Markdown table cell: invisible control characters are
 * dropped, the text is made inert (`neutralizeMarkdown`: HTML is shown, not rendered; no link,
 * image, mention, issue reference, code span or emphasis can open; `|` cannot end the cell) and
 * line breaks become `<br>`. Long text is cut to `max` characters (default 300).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeMarkdownCell } from "./markdown.ts";
 * assert.equal(escapeMarkdownCell("a | b\n<i>"), "a \\| b<br>&lt;i&gt;");
 * ```
 */
export function escapeMarkdownCell(text: string, max = 300): string {
  const cut = text.length > max ? text.slice(0, max - 1) + "…" : text;
  return neutralizeMarkdown(cut.replace(INVISIBLE, ""))
    .replace(/\r\n|\r|\n|\u2028|\u2029/g, "<br>");
}

function table(header: string[], rows: string[][]): string {
  const head = `| ${header.join(" | ")} |`;
  const rule = `| ${header.map(() => "---").join(" | ")} |`;
  return [head, rule, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n") + "\n";
}

function fixed(n: number | null, digits = 2): string {
  return n === null ? "–" : n.toFixed(digits);
}

/** A duration for people: `850 ms`, `12.3 s`, `4 min 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

interface Line {
  label: string;
  rows: readonly ResultRow[];
  durationMs?: number;
}

function summaryRow(line: Line): string[] {
  const s = summarizeResults(line.rows);
  const skipped = line.rows.filter((r) => r.status === "skipped").length;
  const duration = line.durationMs ?? line.rows.reduce((a, r) => a + r.duration_ms, 0);
  return [
    line.label,
    String(s.total),
    String(s.verdicts.pass),
    String(s.verdicts.borderline),
    String(s.verdicts.fail),
    String(s.errors.length),
    String(skipped),
    fixed(s.scores.mean),
    formatDuration(duration),
  ];
}

/** Per-case trial statistics (cases that ran more than once), flaky cases marked. */
function trialsSection(trials: TrialsSummary, max: number): string {
  const cases = trials.cases.filter((c) => c.n > 1);
  const flaky = (c: { passed: number; n: number }) => c.passed > 0 && c.passed < c.n;
  return listCases(
    "Cases with several trials",
    ["Dataset", "Case", "Passed", "Mean ± sd", "pass@1", "pass@n", "pass^n", "Flaky"],
    cases,
    max,
    (c) => [
      escapeMarkdownCell(c.dataset),
      escapeMarkdownCell(c.eval_id),
      `${c.passed}/${c.n}`,
      `${fixed(c.mean)} ± ${fixed(c.stdev)}`,
      fixed(c.pass_at_k[1] ?? null),
      fixed(c.pass_at_k[c.n] ?? null),
      fixed(c.pass_hat_k[c.n] ?? null),
      flaky(c) ? "yes" : "",
    ],
  );
}

/** A row's case id, escaped, and agentv's own ` #i` for trial i > 0. */
/** A row's case as a cell: its id (`id #i` for a later trial), `[target]` when several ran. */
function trialCell(row: ResultRow, targets = false): string {
  const label = trialLabel({ eval_id: escapeMarkdownCell(row.eval_id), trial: row.trial });
  return targets ? `${label} [${escapeMarkdownCell(row.target)}]` : label;
}

function firstMiss(row: ResultRow): string {
  const own = row.misses[0];
  if (own !== undefined) return own;
  for (const e of row.evaluator_results) {
    if (e.misses[0] !== undefined) return e.misses[0];
  }
  return row.reasoning ?? "";
}

function listCases<T>(
  title: string,
  header: string[],
  rows: readonly T[],
  max: number,
  cells: (r: T) => string[],
): string {
  if (rows.length === 0) return "";
  const shown = rows.slice(0, max);
  const more = rows.length > max ? `\n…and ${rows.length - max} more (see the results file)\n` : "";
  return `\n### ${title} (${rows.length})\n\n` + table(header, shown.map(cells)) + more;
}

/**
 * Renders result rows as a Markdown report. Counts follow the run summary: `pass`, `borderline`
 * and `fail` count scored rows (`status: ok`); error and skipped rows are counted apart; the mean
 * score is over scored rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderMarkdownReport } from "./markdown.ts";
 * import type { ResultRow } from "../schema/result.ts";
 *
 * const row: ResultRow = {
 *   run_id: null, trial: 0, timestamp: "2026-01-21T10:00:00.000Z", eval_id: "refund",
 *   dataset: "support", conversation_id: null, target: "default", status: "ok", score: 0.25,
 *   verdict: "fail", hits: [], misses: ["No refund offered"], reasoning: null,
 *   candidate_answer: "No.", evaluator_results: [], trace_summary: null, output_messages: [],
 *   token_usage: null, duration_ms: 1500, attempts: 1, error: null,
 * };
 * const md = renderMarkdownReport([row]);
 * assert.match(md, /\| support \| refund \| 0\.25 \| No refund offered \|/);
 * ```
 */
export function renderMarkdownReport(
  rows: readonly ResultRow[],
  options: MarkdownReportOptions = {},
): string {
  const max = options.maxCases ?? 50;
  const parts: string[] = [`## ${options.title ?? "agentv results"}\n`];
  for (const note of options.notes ?? []) {
    parts.push(`\n> ${escapeMarkdownCell(note, 500)}\n`);
  }
  if (options.resultsPath !== undefined) {
    parts.push(`\nResults: \`${options.resultsPath.replace(/`/g, "'")}\`\n`);
  }
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  const lines: Line[] = datasets.map((d) => ({
    label: d === "" ? "(no dataset)" : escapeMarkdownCell(d),
    rows: rows.filter((r) => r.dataset === d),
  }));
  if (datasets.length !== 1) {
    lines.push({
      label: "**all**",
      rows,
      ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
    });
  } else if (lines[0] && options.durationMs !== undefined) {
    lines[0].durationMs = options.durationMs;
  }
  // A run of several targets (`--target a,b,c`): a line per target too, and cases name theirs.
  const targets = [...new Set(rows.map((r) => r.target))];
  const several = targets.length > 1;
  if (several) {
    for (const t of targets) {
      lines.push({
        label: `target ${escapeMarkdownCell(t)}`,
        rows: rows.filter((r) => r.target === t),
      });
    }
  }
  parts.push(
    "\n" + table(
      [
        "Dataset",
        "Cases",
        "Pass",
        "Borderline",
        "Fail",
        "Error",
        "Skipped",
        "Mean score",
        "Duration",
      ],
      lines.map(summaryRow),
    ),
  );
  const failed = rows.filter((r) => r.status === "ok" && r.verdict === "fail");
  parts.push(
    listCases(
      "Failed cases",
      ["Dataset", "Case", "Score", "First miss"],
      failed,
      max,
      (r) => [
        escapeMarkdownCell(r.dataset),
        trialCell(r, several),
        r.score.toFixed(2),
        escapeMarkdownCell(firstMiss(r)),
      ],
    ),
  );
  parts.push(integritySection(rows, max));
  const errored = rows.filter((r) => r.status === "error");
  parts.push(
    listCases(
      "Errors",
      ["Dataset", "Case", "Attempts", "Error"],
      errored,
      max,
      (r) => [
        escapeMarkdownCell(r.dataset),
        trialCell(r, several),
        String(r.attempts),
        escapeMarkdownCell(r.error ?? "unknown error"),
      ],
    ),
  );
  const summary = summarizeResults(rows);
  if (summary.trials) parts.push(trialsSection(summary.trials, max));
  const evaluators = summary.evaluators;
  if (evaluators.length > 0) {
    parts.push(
      "\n### Evaluators\n\n" + table(
        ["Evaluator", "Type", "Mean score", "Scored", "Errors"],
        evaluators.map((e) => [
          escapeMarkdownCell(e.name),
          escapeMarkdownCell(e.type),
          fixed(e.mean),
          String(e.count),
          String(e.errors),
        ]),
      ),
    );
  }
  if (options.labels !== undefined) parts.push(labelsSection(options.labels, max));
  return parts.filter((p) => p !== "").join("");
}

/** One table row per finding of the cases the integrity guard flagged. */
function integritySection(rows: readonly ResultRow[], max: number): string {
  const findings = rows.filter((r) => r.integrity?.status === "flagged").flatMap((r) =>
    r.integrity!.findings.map((f) => ({ row: r, finding: f }))
  );
  return listCases(
    "Integrity findings",
    ["Dataset", "Case", "Finding", "Where", "Evidence"],
    findings,
    max,
    ({ row, finding }) => [
      escapeMarkdownCell(row.dataset),
      trialCell(row),
      finding.kind,
      finding.path !== undefined
        ? escapeMarkdownCell(finding.path)
        : finding.step !== undefined
        ? `step ${finding.step}`
        : "",
      escapeMarkdownCell(finding.evidence, 600),
    ],
  );
}

/** The human labels: how many, how many disagree with agentv, and those that do. */
function labelsSection(agreement: LabelAgreement, max: number): string {
  if (agreement.labels === 0) return "";
  const head = `\n### Human labels (${agreement.labels})\n\n${agreement.compared} compared with ` +
    `agentv's verdict (a borderline verdict counts as a pass), ${agreement.disagreements} disagree.\n`;
  const disagreeing = agreement.items.filter((i) => i.disagrees === true);
  return head + listCases(
    "Disagreements",
    ["Case", "Target", "Part", "agentv", "Label", "Reviewer", "Note"],
    disagreeing,
    max,
    ({ label, automatic }) => [
      trialLabel({ eval_id: escapeMarkdownCell(label.eval_id), trial: label.trial }),
      escapeMarkdownCell(label.target),
      label.evaluator === null ? "case" : escapeMarkdownCell(label.evaluator),
      automatic ?? "–",
      label.label ?? "–",
      escapeMarkdownCell(label.reviewer),
      escapeMarkdownCell(label.note),
    ],
  ).replace(/^\n/, "\n");
}
