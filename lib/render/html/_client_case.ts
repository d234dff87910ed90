/**
 * Browser code shared by the HTML pages: DOM helpers and the case view (the input as a
 * conversation, expected outcome and output, answer, the integrity guard's findings with their
 * evidence, evaluators with hits/misses/reasoning, the full trace with tool calls, and the files
 * an agent changed in its workspace with their diff, drawn by `_client_conversation.ts`). Plain
 * JS kept
 * as text (it runs in the page, not in Deno). Every value from the data reaches the DOM through
 * `textContent` or `setAttribute` of a fixed attribute name; no markup is ever parsed.
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** DOM helpers: `el`, `txt`, formatting of scores and JSON values. */
export const CLIENT_UTIL = String.raw`
function el(tag, attrs, children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const value = attrs[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key === "class") node.className = String(value);
      else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, String(value));
    }
  }
  if (children) append(node, children);
  return node;
}
function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}
function isNum(x) {
  return typeof x === "number" && isFinite(x);
}
function fmtScore(x) {
  return isNum(x) ? x.toFixed(2) : "\u2013";
}
function fmtDelta(x) {
  if (!isNum(x)) return "\u2013";
  const s = x.toFixed(2);
  return x > 0 ? "+" + s : s === "-0.00" ? "0.00" : s;
}
function fmtMs(x) {
  if (!isNum(x)) return "\u2013";
  return x < 1000 ? Math.round(x) + " ms" : (x / 1000).toFixed(1) + " s";
}
function pretty(value) {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    const s = JSON.stringify(value, null, 2);
    return s === undefined ? String(value) : s;
  } catch (_e) {
    return String(value);
  }
}
function resultOf(row) {
  if (row.status && row.status !== "ok") return row.status;
  return row.verdict || "unscored";
}
function badge(label) {
  return el("span", { class: "badge b-" + String(label).replace(/[^a-z]/g, ""), text: label });
}
function has(obj, key) {
  return obj !== null && typeof obj === "object" && Object.prototype.hasOwnProperty.call(obj, key);
}
`;

/**
 * The case view: `caseView(row)` returns an element showing everything a row holds (needs
 * CLIENT_UTIL and CLIENT_CONVERSATION).
 */
export const CLIENT_CASE = String.raw`
function block(text, cls) {
  return el("pre", { class: "block" + (cls ? " " + cls : ""), text: text });
}
function valueBlock(value, missing) {
  if (value === undefined || value === null || value === "") {
    return el("p", { class: "missing", text: missing });
  }
  return block(pretty(value));
}
function section(title, body, cls) {
  return el("section", { class: "part" + (cls ? " " + cls : "") }, [el("h3", { text: title }), body]);
}
function list(items, cls) {
  if (!Array.isArray(items) || items.length === 0) return null;
  return el("ul", { class: cls }, items.map((item) => el("li", { text: pretty(item) })));
}
function meta(pairs) {
  const dl = el("dl", { class: "meta" });
  for (const pair of pairs) {
    if (pair[1] === undefined || pair[1] === null || pair[1] === "") continue;
    dl.append(el("div", null, [el("dt", { text: pair[0] }), el("dd", { text: String(pair[1]) })]));
  }
  return dl;
}
function evaluatorCard(value) {
  const result = value !== null && typeof value === "object" ? value : { name: pretty(value) };
  const head = el("div", { class: "ev-head" }, [
    el("strong", { text: String(result.name === undefined ? "(unnamed)" : result.name) }),
    " ",
    el("span", { class: "muted", text: result.type ? String(result.type) : "" }),
    " ",
    badge(result.status && result.status !== "ok" ? result.status : (result.verdict || "unscored")),
    " ",
    el("span", { class: "score", text: "score " + fmtScore(result.score) }),
    isNum(result.weight) ? el("span", { class: "muted", text: " \u00b7 weight " + result.weight }) : null,
    result.token_usage && isNum(result.token_usage.input)
      ? el("span", { class: "muted", text: " \u00b7 judge tokens " + result.token_usage.input + " in / " + result.token_usage.output + " out" })
      : null,
    isNum(result.cost_usd) ? el("span", { class: "muted", text: " \u00b7 $" + result.cost_usd.toFixed(4) }) : null,
  ]);
  const card = el("div", { class: "evaluator" }, [head]);
  const hits = list(result.hits, "hits");
  const misses = list(result.misses, "misses");
  if (hits) card.append(el("h4", { text: "Hits" }), hits);
  if (misses) card.append(el("h4", { text: "Misses" }), misses);
  if (result.reasoning) card.append(el("h4", { text: "Reasoning" }), block(String(result.reasoning)));
  if (result.error) card.append(el("h4", { text: "Error" }), block(String(result.error), "error"));
  if (result.details !== undefined && result.details !== null) {
    card.append(el("details", null, [el("summary", { text: "Details" }), block(pretty(result.details))]));
  }
  if (Array.isArray(result.evaluator_results) && result.evaluator_results.length > 0) {
    card.append(el("div", { class: "nested" }, result.evaluator_results.map(evaluatorCard)));
  }
  return card;
}
function toolCallView(call, index) {
  const info = [];
  if (call && call.id) info.push("id " + call.id);
  if (call && isNum(call.duration_ms)) info.push(fmtMs(call.duration_ms));
  const name = call && call.tool !== undefined ? String(call.tool) : "(unnamed tool)";
  const box = el("div", { class: "tool-call" }, [
    el("div", { class: "tool-head" }, [
      el("span", { class: "muted", text: "tool call " + (index + 1) + " " }),
      el("strong", { class: "tool-name", text: name }),
      info.length ? el("span", { class: "muted", text: " (" + info.join(", ") + ")" }) : null,
    ]),
  ]);
  box.append(el("h4", { text: "Input" }), has(call, "input") ? block(pretty(call.input), "tool-input") : el("p", { class: "missing", text: "No input recorded" }));
  box.append(el("h4", { text: "Output" }), has(call, "output") ? block(pretty(call.output), "tool-output") : el("p", { class: "missing", text: "No output recorded" }));
  return box;
}
const MESSAGE_KEYS = ["role", "name", "content", "tool_calls", "timestamp"];
function messageView(message, index) {
  const m = message !== null && typeof message === "object" ? message : { content: message };
  const box = el("div", { class: "message role-" + String(m.role || "").replace(/[^a-z]/g, "") }, [
    el("div", { class: "msg-head" }, [
      el("span", { class: "muted", text: "#" + (index + 1) + " " }),
      el("strong", { text: String(m.role || "message") }),
      m.name ? el("span", { text: " " + String(m.name) }) : null,
      m.timestamp ? el("span", { class: "muted", text: " " + String(m.timestamp) }) : null,
    ]),
  ]);
  if (has(m, "content") && m.content !== null && m.content !== "") box.append(block(pretty(m.content)));
  if (Array.isArray(m.tool_calls)) m.tool_calls.forEach((call, i) => box.append(toolCallView(call, i)));
  const extra = {};
  let extras = 0;
  for (const key of Object.keys(m)) {
    if (MESSAGE_KEYS.indexOf(key) >= 0) continue;
    extra[key] = m[key];
    extras++;
  }
  if (extras > 0) box.append(el("details", null, [el("summary", { text: "Other fields" }), block(pretty(extra))]));
  return box;
}
function traceView(row) {
  const messages = Array.isArray(row.output_messages) ? row.output_messages : [];
  if (messages.length === 0) return el("p", { class: "missing", text: "No trace recorded" });
  const box = el("div", { class: "trace" });
  messages.forEach((message, i) => box.append(messageView(message, i)));
  return box;
}
function integrityView(integrity) {
  if (integrity === null || typeof integrity !== "object" || !integrity.status) return null;
  const findings = Array.isArray(integrity.findings) ? integrity.findings : [];
  const box = el("div", null, [badge(String(integrity.status))]);
  if (findings.length === 0) {
    box.append(el("p", { class: "muted", text: integrity.status === "skipped" ? "Not checked (integrity: off)" : "Nothing found" }));
  }
  for (const f of findings) {
    const where = f && f.path !== undefined ? String(f.path) : f && isNum(f.step) ? "step " + f.step : "";
    box.append(el("div", { class: "finding" }, [
      el("h4", { text: String(f && f.kind) + (where ? " · " + where : "") }),
      block(pretty(f && f.evidence), "finding-evidence"),
    ]));
  }
  return box;
}
function caseView(row) {
  const tokens = row.token_usage && isNum(row.token_usage.input)
    ? row.token_usage.input + " in / " + row.token_usage.output + " out"
    : null;
  const box = el("div", { class: "case-body" }, [
    el("div", { class: "case-title" }, [badge(resultOf(row)), " ", el("span", { class: "score big", text: fmtScore(row.score) })]),
    meta([
      ["Dataset", row.dataset],
      ["Target", row.target],
      ["Status", row.status],
      ["Verdict", row.verdict],
      ["Duration", isNum(row.duration_ms) ? fmtMs(row.duration_ms) : null],
      ["Attempts", row.attempts],
      ["Tokens", tokens],
      ["Run", row.run_id],
      ["Trial", row.trial],
      ["Conversation", row.conversation_id],
      ["Finished", row.timestamp],
    ]),
  ]);
  if (row.error) box.append(section("Error", block(String(row.error), "error"), "error-part"));
  box.append(section("Input", conversationView(row.input, "Input not recorded in the results file", "input-conversation"), "input-part"));
  box.append(section("Expected outcome", valueBlock(row.expected_outcome, "Expected outcome not recorded in the results file"), "expected-part"));
  if (row.expected_output !== undefined && row.expected_output !== null) {
    box.append(section("Expected output", conversationView(row.expected_output, "No expected output", "expected-conversation"), "expected-output-part"));
  }
  const answer = typeof row.candidate_answer === "string" ? row.candidate_answer : pretty(row.candidate_answer);
  box.append(section("Answer", block(answer), "answer"));
  const integrity = integrityView(row.integrity);
  if (integrity) box.append(section("Integrity", integrity, "integrity-part"));
  const results = Array.isArray(row.evaluator_results) ? row.evaluator_results : [];
  if (results.length > 0) {
    box.append(section("Evaluators", el("div", null, results.map(evaluatorCard))));
  } else {
    const overall = el("div", { class: "evaluator" });
    const hits = list(row.hits, "hits");
    const misses = list(row.misses, "misses");
    if (hits) overall.append(el("h4", { text: "Hits" }), hits);
    if (misses) overall.append(el("h4", { text: "Misses" }), misses);
    if (row.reasoning) overall.append(el("h4", { text: "Reasoning" }), block(String(row.reasoning)));
    if (!hits && !misses && !row.reasoning) overall.append(el("p", { class: "missing", text: "No evaluator results recorded" }));
    box.append(section("Evaluators", overall));
  }
  box.append(section("Trace", traceView(row), "trace-part"));
  const ws = row.workspace;
  if (ws !== null && typeof ws === "object" && typeof ws.diff === "string") {
    const files = [];
    for (const kind of ["added", "modified", "deleted"]) {
      if (Array.isArray(ws[kind]) && ws[kind].length) files.push(kind + ": " + ws[kind].map(String).join(", "));
    }
    box.append(section("Workspace changes", el("div", null, [
      ws.repo && typeof ws.repo === "object" ? el("p", { class: "muted", text: "Checked out from " + String(ws.repo.url) + " at " + String(ws.repo.commit) }) : null,
      files.length ? el("p", { class: "muted", text: files.join("; ") }) : el("p", { class: "missing", text: "No file changed" }),
      ws.diff ? unifiedDiffView(ws.diff, "workspace-diff") : null,
      ws.diff_truncated ? el("p", { class: "muted", text: "The diff was cut at its size cap" }) : null,
    ]), "workspace-part"));
  }
  return box;
}
`;
