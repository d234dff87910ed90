/**
 * Browser code of the sortable, filterable, paged table both HTML pages use. Only one page of
 * rows is in the DOM at a time, so 10,000 cases (or many more) stay fast: filtering and sorting
 * work on an index array, and a page is built once with a document fragment.
 *
 * `createGrid({ id, columns, rows, onOpen, pageSize, sort })` returns `{ element, countElement,
 * setFilter(predicate), visible() }`. A column is `{ key, label, value(row), cell(row)?, cls? }`:
 * `value` gives the sort key (number or string), `cell` the text or element shown.
 *
 * @module
 */

/** The grid component (plain JS text; needs CLIENT_UTIL). */
export const CLIENT_GRID = String.raw`
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
function compareValues(a, b) {
  const na = a === undefined || a === null || (typeof a === "number" && !isFinite(a));
  const nb = b === undefined || b === null || (typeof b === "number" && !isFinite(b));
  if (na || nb) return na === nb ? 0 : na ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}
function createGrid(options) {
  const rows = options.rows;
  const columns = options.columns;
  const state = {
    order: rows.map((_r, i) => i),
    shown: null,
    sortKey: options.sort ? options.sort.key : null,
    sortDir: options.sort ? options.sort.dir : 1,
    page: 0,
    pageSize: options.pageSize || 100,
    predicate: null,
  };
  const headCells = [];
  const headRow = el("tr");
  for (const column of columns) {
    const button = el("button", { type: "button", class: "sort", text: column.label, "data-key": column.key });
    button.addEventListener("click", () => sortBy(column.key));
    const th = el("th", { scope: "col", class: column.cls || null }, [button]);
    headCells.push({ column: column, th: th });
    headRow.append(th);
  }
  const tbody = el("tbody");
  const table = el("table", { class: "grid", id: options.id }, [el("thead", null, [headRow]), tbody]);
  const countElement = el("span", { class: "count", id: options.id + "-count", "aria-live": "polite" });
  const pageLabel = el("span", { class: "page-label" });
  const first = el("button", { type: "button", text: "\u00ab First" });
  const prev = el("button", { type: "button", text: "\u2039 Prev" });
  const next = el("button", { type: "button", text: "Next \u203a" });
  const last = el("button", { type: "button", text: "Last \u00bb" });
  const sizeSelect = el("select", { "aria-label": "Rows per page" },
    [50, 100, 250, 500].map((n) => el("option", { value: n, text: n + " per page", selected: n === state.pageSize ? "selected" : null })));
  first.addEventListener("click", () => goTo(0));
  prev.addEventListener("click", () => goTo(state.page - 1));
  next.addEventListener("click", () => goTo(state.page + 1));
  last.addEventListener("click", () => goTo(Infinity));
  sizeSelect.addEventListener("change", () => {
    state.pageSize = Number(sizeSelect.value) || 100;
    goTo(0);
  });
  const pager = el("nav", { class: "pager", "aria-label": "Pages" }, [first, prev, pageLabel, next, last, sizeSelect]);
  const element = el("div", { class: "grid-wrap" }, [table, pager]);
  tbody.addEventListener("click", (event) => {
    const tr = event.target.closest("tr[data-row]");
    if (tr) options.onOpen(Number(tr.getAttribute("data-row")));
  });
  tbody.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const tr = event.target.closest("tr[data-row]");
    if (!tr) return;
    event.preventDefault();
    options.onOpen(Number(tr.getAttribute("data-row")));
  });
  function columnOf(key) {
    for (const column of columns) if (column.key === key) return column;
    return null;
  }
  function sortBy(key) {
    if (state.sortKey === key) state.sortDir = -state.sortDir;
    else {
      state.sortKey = key;
      state.sortDir = 1;
    }
    applySort();
    goTo(0);
  }
  function applySort() {
    const column = columnOf(state.sortKey);
    if (!column) {
      state.order = rows.map((_r, i) => i);
    } else {
      const keys = rows.map((row) => column.value(row));
      const dir = state.sortDir;
      state.order = rows.map((_r, i) => i).sort((a, b) => dir * compareValues(keys[a], keys[b]) || a - b);
    }
    for (const head of headCells) {
      const sorted = head.column.key === state.sortKey;
      head.th.setAttribute("aria-sort", sorted ? (state.sortDir > 0 ? "ascending" : "descending") : "none");
    }
    applyFilter();
  }
  function applyFilter() {
    const predicate = state.predicate;
    state.shown = predicate ? state.order.filter((i) => predicate(rows[i])) : state.order.slice();
  }
  function pageCount() {
    return Math.max(1, Math.ceil(state.shown.length / state.pageSize));
  }
  function goTo(page) {
    state.page = Math.max(0, Math.min(pageCount() - 1, page));
    render();
  }
  function render() {
    const start = state.page * state.pageSize;
    const slice = state.shown.slice(start, start + state.pageSize);
    const fragment = document.createDocumentFragment();
    for (const index of slice) {
      const row = rows[index];
      const tr = el("tr", { "data-row": index, tabindex: 0, class: options.rowClass ? options.rowClass(row) : null });
      for (const column of columns) {
        const content = column.cell ? column.cell(row) : column.value(row);
        const td = el("td", { class: column.cls || null });
        if (content !== null && content !== undefined) {
          td.append(typeof content === "object" ? content : document.createTextNode(String(content)));
        }
        tr.append(td);
      }
      fragment.append(tr);
    }
    tbody.replaceChildren(fragment);
    if (slice.length === 0) {
      tbody.append(el("tr", { class: "empty" }, [el("td", { colspan: columns.length, text: "No case matches the filters" })]));
    }
    const shown = state.shown.length;
    countElement.textContent = shown === rows.length
      ? shown + " " + (shown === 1 ? options.noun : options.nouns)
      : shown + " of " + rows.length + " " + options.nouns;
    countElement.setAttribute("data-shown", String(shown));
    countElement.setAttribute("data-total", String(rows.length));
    pageLabel.textContent = "Page " + (state.page + 1) + " of " + pageCount();
    first.disabled = prev.disabled = state.page === 0;
    next.disabled = last.disabled = state.page >= pageCount() - 1;
  }
  applySort();
  render();
  return {
    element: element,
    countElement: countElement,
    setFilter(predicate) {
      state.predicate = predicate;
      applyFilter();
      goTo(0);
    },
    visible() {
      return state.shown.slice();
    },
  };
}
`;
