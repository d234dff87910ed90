/**
 * Browser code of the case view's question and workspace parts: a case's input (and expected
 * output) shown as a conversation, one message per speaker with its text, its files (inline text
 * in a fold, or a large file's size and SHA-256) and its tool calls; and a unified diff shown
 * line by line with the syntax of a unified diff (file headers, hunk headers, added, removed and
 * context lines). Plain JS kept as text; every value reaches the DOM through `textContent`.
 *
 * The text avoids backticks and `${` so it can live in a `String.raw` template.
 *
 * @module
 */

/** `conversationView(messages, missing)` and `unifiedDiffView(text)` (needs CLIENT_UTIL, CASE). */
export const CLIENT_CONVERSATION = String.raw`
function fmtBytes(n) {
  if (!isNum(n)) return "";
  return n < 1024 ? n + " B" : n < 1048576 ? (n / 1024).toFixed(1) + " KiB" : (n / 1048576).toFixed(1) + " MiB";
}
function fileSegmentView(seg) {
  const facts = [];
  if (isNum(seg.bytes)) facts.push(fmtBytes(seg.bytes));
  if (typeof seg.sha256 === "string") facts.push("sha256 " + seg.sha256.slice(0, 12) + "\u2026");
  if (seg.guideline === true) facts.push("guideline");
  const box = el("div", { class: "file-seg" }, [
    el("span", { class: "muted", text: "file " }),
    el("strong", { class: "file-name", text: String(seg.value === undefined ? seg.path : seg.value) }),
    facts.length ? el("span", { class: "muted", text: " (" + facts.join(", ") + ")", title: typeof seg.sha256 === "string" ? seg.sha256 : null }) : null,
  ]);
  if (typeof seg.text === "string") {
    box.append(el("details", null, [el("summary", { text: "Content" }), block(seg.text, "file-text")]));
  } else if (isNum(seg.bytes)) {
    box.append(el("p", { class: "missing", text: "Recorded by size and hash only (too large to keep in the results file)" }));
  }
  return box;
}
function segmentView(seg) {
  if (seg !== null && typeof seg === "object" && seg.type === "text" && typeof seg.value === "string") return block(seg.value, "msg-text");
  if (seg !== null && typeof seg === "object" && seg.type === "file") return fileSegmentView(seg);
  return block(pretty(seg));
}
function contentView(content) {
  if (typeof content === "string") return block(content, "msg-text");
  if (Array.isArray(content) && content.every((s) => s !== null && typeof s === "object" && typeof s.type === "string")) {
    return el("div", { class: "segments" }, content.map(segmentView));
  }
  return block(pretty(content));
}
function conversationMessage(message) {
  const m = message !== null && typeof message === "object" && !Array.isArray(message) ? message : { role: "user", content: message };
  const role = String(m.role || "message");
  const box = el("div", { class: "message role-" + role.replace(/[^a-z]/g, ""), "data-role": role }, [
    el("div", { class: "msg-head" }, [el("strong", { text: role }), m.name ? el("span", { class: "muted", text: " " + String(m.name) }) : null]),
  ]);
  if (has(m, "content") && m.content !== null && m.content !== "") box.append(contentView(m.content));
  if (Array.isArray(m.tool_calls)) m.tool_calls.forEach((call, i) => box.append(toolCallView(call, i)));
  return box;
}
function conversationView(messages, missing, cls) {
  if (messages === undefined || messages === null || messages === "" || (Array.isArray(messages) && messages.length === 0)) {
    return el("p", { class: "missing", text: missing });
  }
  const list = Array.isArray(messages) ? messages : [messages];
  return el("div", { class: "conversation" + (cls ? " " + cls : "") }, list.map(conversationMessage));
}
// A unified diff line by line: a hunk header says how many old and new lines follow, so a removed
// line that reads "--- x" inside a hunk is told from the next file's header.
function unifiedDiffView(text, cls) {
  const pre = el("pre", { class: "block diff" + (cls ? " " + cls : "") });
  const lines = String(text).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let oldLeft = 0, newLeft = 0;
  for (const line of lines) {
    let kind = "diff-ctx";
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (oldLeft > 0 || newLeft > 0) {
      const c = line[0];
      if (c === "+") { kind = "diff-add"; newLeft--; }
      else if (c === "-") { kind = "diff-del"; oldLeft--; }
      else if (c === "\\") kind = "diff-note";
      else { oldLeft--; newLeft--; }
    } else if (hunk) {
      kind = "diff-hunk";
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    } else if (/^(diff |index |--- |\+\+\+ |new file mode|deleted file mode|old mode|new mode|similarity |rename |Binary files )/.test(line)) {
      kind = "diff-file";
    } else if (line[0] === "\\") kind = "diff-note";
    pre.append(el("span", { class: kind, text: line + "\n" }));
  }
  return pre;
}
`;
