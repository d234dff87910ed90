/**
 * JUnit XML from result rows, in the shape CI systems read (Jenkins, GitLab, GitHub test
 * reporters): one `<testsuite>` per dataset, one `<testcase>` per case (`classname` = dataset,
 * `name` = case id, `time` in seconds), `<failure>` for `fail` verdicts (`type="integrity"`, with
 * the findings and their evidence, when the integrity guard flagged the case), `<error>` for rows
 * with `status: error`, `<skipped>` for skipped rows. A `borderline` verdict counts as a pass; its
 * `<system-out>` says so.
 *
 * Text that XML 1.0 cannot hold (NUL and other control characters, lone surrogates, U+FFFE/U+FFFF)
 * is written as a visible escape (`\u0000`), so no detail is lost and the file stays well formed.
 *
 * @module
 */
import type { IntegrityFinding } from "../schema/integrity.ts";
import type { EvaluatorResult, ResultRow } from "../schema/result.ts";

/** Options of {@link renderJunitReport}. */
export interface JunitReportOptions {
  /** `name` of the root `<testsuites>` element (default `agentv`). */
  name?: string;
  /** Most misses listed in a failure's body (default 20). */
  maxMisses?: number;
}

// Characters XML 1.0 forbids (outside #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
// [#x10000-#x10FFFF]), plus lone surrogates: a high surrogate not followed by a low one, or a
// low one not preceded by a high one.
const NOT_XML =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function visible(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Escapes text for an XML 1.0 element body: `&`, `<` and `>` become entities (so `]]>` cannot
 * end anything), and characters XML 1.0 cannot hold become visible `\uNNNN` escapes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeXmlText } from "./junit.ts";
 * assert.equal(escapeXmlText("a < b ]]> \u0000"), "a &lt; b ]]&gt; \\u0000");
 * ```
 */
export function escapeXmlText(text: string): string {
  return text.replace(NOT_XML, visible).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(
    />/g,
    "&gt;",
  );
}

/**
 * Escapes text for a double-quoted XML attribute: as {@link escapeXmlText}, plus `"` and `'`,
 * and tab, line feed and carriage return as character references (an attribute's line breaks
 * would otherwise be normalised to spaces by every parser).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeXmlAttribute } from "./junit.ts";
 * assert.equal(escapeXmlAttribute('say "hi"\n'), "say &quot;hi&quot;&#10;");
 * ```
 */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(
    /\t/g,
    "&#9;",
  ).replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXmlAttribute(String(v))}"`)
    .join("");
}

/** A dataset's name as CI shows it (rows of the original tool may have none). */
function datasetName(dataset: string): string {
  return dataset === "" ? "(no dataset)" : dataset;
}

/** Seconds with millisecond precision, as JUnit's `time` attribute wants them. */
function seconds(ms: number): string {
  return (Math.max(0, Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);
}

function firstLine(text: string, max = 200): string {
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}

function score(n: number): string {
  return Number.isFinite(n) ? String(Math.round(n * 1000) / 1000) : String(n);
}

type Kind = "pass" | "failure" | "error" | "skipped";

function kindOf(row: ResultRow): Kind {
  if (row.status === "error") return "error";
  if (row.status === "skipped") return "skipped";
  return row.verdict === "fail" ? "failure" : "pass";
}

/** Indents the continuation lines of a multi-line text. */
function indent(text: string, pad: string): string {
  return text.replace(/\r?\n/g, "\n" + pad);
}

function evaluatorLines(results: readonly EvaluatorResult[], pad = ""): string[] {
  const lines: string[] = [];
  for (const e of results) {
    const state = e.status === "ok" ? `${score(e.score)} (${e.verdict})` : e.status;
    lines.push(`${pad}- ${e.name} (${e.type}): ${state}${e.error ? `: ${e.error}` : ""}`);
    for (const m of e.misses) lines.push(`${pad}    miss: ${indent(m, pad + "      ")}`);
    if (e.evaluator_results) lines.push(...evaluatorLines(e.evaluator_results, pad + "  "));
  }
  return lines;
}

/** The body of a `<failure>`: score, verdict, misses, reasoning and each evaluator's result. */
function failureBody(row: ResultRow, maxMisses: number): string {
  const lines = [`score: ${score(row.score)} (verdict ${row.verdict})`];
  if (row.misses.length > 0) {
    lines.push("misses:");
    for (const m of row.misses.slice(0, maxMisses)) lines.push(`  - ${indent(m, "    ")}`);
    if (row.misses.length > maxMisses) {
      lines.push(`  … and ${row.misses.length - maxMisses} more`);
    }
  }
  if (row.reasoning) lines.push(`reasoning: ${row.reasoning}`);
  if (row.evaluator_results.length > 0) {
    lines.push("evaluators:", ...evaluatorLines(row.evaluator_results, "  "));
  }
  return lines.join("\n");
}

/** `protected_modified (calc.test.mjs), claim_without_test_run`: each finding's kind and place. */
function integrityKinds(findings: readonly IntegrityFinding[]): string {
  return findings.map((f) => {
    const where = f.path ?? (f.step !== undefined ? `step ${f.step}` : undefined);
    return where === undefined ? f.kind : `${f.kind} (${firstLine(where, 80)})`;
  }).join(", ");
}

/** The integrity findings of a flagged case, each with its whole evidence. */
function integrityBody(findings: readonly IntegrityFinding[]): string {
  const lines = ["integrity findings:"];
  for (const f of findings) {
    lines.push(`  - ${integrityKinds([f])}:`, `      ${indent(f.evidence, "      ")}`);
  }
  return lines.join("\n");
}

/** What `<system-out>` says about a case: target, verdict (borderline counts as a pass), score. */
function caseOutput(row: ResultRow): string {
  const lines = [`target: ${row.target}`, `status: ${row.status}`];
  if (row.status === "ok") {
    lines.push(
      `verdict: ${row.verdict}${row.verdict === "borderline" ? " (counted as a pass)" : ""}`,
      `score: ${score(row.score)}`,
    );
  }
  lines.push(`attempts: ${row.attempts}`);
  return lines.join("\n");
}

/**
 * Testcase names: the case id, made unique inside a dataset by the target (and the trial) when
 * one id appears in several rows (a dataset run against several targets).
 */
function caseNames(rows: readonly ResultRow[]): string[] {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.eval_id, (seen.get(r.eval_id) ?? 0) + 1);
  return rows.map((r) => {
    if ((seen.get(r.eval_id) ?? 0) < 2) return r.eval_id;
    const trial = typeof r.trial === "number" && r.trial > 0 ? ` #${r.trial}` : "";
    return `${r.eval_id} [${r.target}${trial}]`;
  });
}

/** The earliest row time, in the `YYYY-MM-DDTHH:MM:SS` form of the JUnit schema (UTC). */
function suiteTimestamp(rows: readonly ResultRow[]): string | undefined {
  const times = rows.map((r) => Date.parse(r.timestamp)).filter((t) => Number.isFinite(t));
  if (times.length === 0) return undefined;
  return new Date(times.reduce((a, b) => Math.min(a, b))).toISOString().slice(0, 19);
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}

function count(rows: readonly ResultRow[]): Counts {
  const c: Counts = { tests: rows.length, failures: 0, errors: 0, skipped: 0, ms: 0 };
  for (const r of rows) {
    const kind = kindOf(r);
    if (kind === "failure") c.failures++;
    else if (kind === "error") c.errors++;
    else if (kind === "skipped") c.skipped++;
    c.ms += r.duration_ms;
  }
  return c;
}

function testcase(row: ResultRow, name: string, maxMisses: number): string {
  const open = `    <testcase${
    attrs({ name, classname: datasetName(row.dataset), time: seconds(row.duration_ms) })
  }>\n`;
  const kind = kindOf(row);
  let body = "";
  if (kind === "failure" && row.integrity?.status === "flagged") {
    const message = `integrity flagged: ${integrityKinds(row.integrity.findings)}`;
    body = `      <failure${attrs({ message, type: "integrity" })}>${
      escapeXmlText(`${integrityBody(row.integrity.findings)}\n${failureBody(row, maxMisses)}`)
    }</failure>\n`;
  } else if (kind === "failure") {
    const message = `score ${score(row.score)} (fail)${
      row.misses[0] !== undefined ? `: ${firstLine(row.misses[0])}` : ""
    }`;
    body = `      <failure${attrs({ message, type: "fail" })}>${
      escapeXmlText(failureBody(row, maxMisses))
    }</failure>\n`;
  } else if (kind === "error") {
    const error = row.error ?? "unknown error";
    body = `      <error${attrs({ message: firstLine(error), type: "error" })}>${
      escapeXmlText(`${error}\nattempts: ${row.attempts}`)
    }</error>\n`;
  } else if (kind === "skipped") {
    const why = row.error ?? row.reasoning ?? undefined;
    body = `      <skipped${
      attrs({ message: why === undefined ? undefined : firstLine(why) })
    }/>\n`;
  }
  return open + body + `      <system-out>${escapeXmlText(caseOutput(row))}</system-out>\n` +
    `    </testcase>\n`;
}

/**
 * Renders result rows as a JUnit XML document (UTF-8, XML 1.0). Datasets keep their first-seen
 * order, cases their row order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderJunitReport } from "./junit.ts";
 * import type { ResultRow } from "../schema/result.ts";
 *
 * const row: ResultRow = {
 *   run_id: null, trial: 0, timestamp: "2026-01-21T10:00:00.000Z", eval_id: "refund",
 *   dataset: "support", conversation_id: null, target: "default", status: "ok", score: 0.25,
 *   verdict: "fail", hits: [], misses: ["No refund offered"], reasoning: null,
 *   candidate_answer: "No.", evaluator_results: [], trace_summary: null, output_messages: [],
 *   token_usage: null, duration_ms: 1500, attempts: 1, error: null,
 * };
 * const xml = renderJunitReport([row]);
 * assert.match(xml, /<testcase name="refund" classname="support" time="1.500">/);
 * assert.match(xml, /<failure message="score 0.25 \(fail\): No refund offered" type="fail">/);
 * ```
 */
export function renderJunitReport(
  rows: readonly ResultRow[],
  options: JunitReportOptions = {},
): string {
  const maxMisses = options.maxMisses ?? 20;
  const byDataset = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const list = byDataset.get(r.dataset);
    if (list) list.push(r);
    else byDataset.set(r.dataset, [r]);
  }
  const total = count(rows);
  const suites: string[] = [];
  let id = 0;
  for (const [dataset, list] of byDataset) {
    const c = count(list);
    const targets = [...new Set(list.map((r) => r.target))];
    const borderline = list.filter((r) => r.status === "ok" && r.verdict === "borderline").length;
    const names = caseNames(list);
    suites.push(
      `  <testsuite${
        attrs({
          name: datasetName(dataset),
          tests: c.tests,
          failures: c.failures,
          errors: c.errors,
          skipped: c.skipped,
          time: seconds(c.ms),
          timestamp: suiteTimestamp(list),
          id: id++,
        })
      }>\n` +
        `    <properties>\n` +
        targets.map((t) => `      <property${attrs({ name: "target", value: t })}/>\n`).join("") +
        `      <property${
          attrs({ name: "borderline", value: `${borderline} (counted as passes)` })
        }/>\n` +
        `    </properties>\n` +
        list.map((r, i) => testcase(r, names[i] ?? r.eval_id, maxMisses)).join("") +
        `  </testsuite>\n`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites${
      attrs({
        name: options.name ?? "agentv",
        tests: total.tests,
        failures: total.failures,
        errors: total.errors,
        skipped: total.skipped,
        time: seconds(total.ms),
      })
    }>\n` + suites.join("") + `</testsuites>\n`;
}
