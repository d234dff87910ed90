/**
 * A corpus of JSONL cases for checking `validate`'s quick path against the full case pipeline:
 * seed cases that use every feature the quick check accepts (and a few it leaves to the pipeline),
 * and systematic mutations of each: every value replaced by each probe value, every key removed,
 * misspelt or doubled by an unknown sibling, every list emptied or given an odd item.
 *
 * @module
 */

/** Stands for a JSON number too large for a double (`1e400`, which reads as Infinity). */
const HUGE = "__huge_number__";

/** Seed cases, as parsed records. */
export const SEEDS: Record<string, unknown>[] = [
  { id: "minimal", expected_outcome: "Answers", input: "What is 2 + 2?" },
  {
    id: "evaluators",
    expected_outcome: "Explains the reset",
    input: [
      { role: "system", content: "You are a support agent." },
      { role: "user", content: "How do I reset my password?" },
    ],
    expected_output: "Request a new link.",
    evaluators: [
      { name: "keywords", type: "contains", values: ["reset", "link"], mode: "all" },
      { name: "ticket", type: "regex", pattern: "ticket 7\\b", flags: "i" },
      { name: "judge", type: "llm_judge", weight: 2 },
    ],
  },
  {
    id: "tools",
    expected_outcome: "Looks up the order",
    input: [
      { role: "user", content: "Where is my order?" },
      {
        role: "assistant",
        content: "Let me check.",
        tool_calls: [{ tool: "lookup", input: { id: "7" }, id: "c1", duration_ms: 12 }],
      },
      { role: "tool", name: "lookup", content: '{"status":"shipped"}' },
    ],
    expected_output: [{
      role: "assistant",
      content: "It has shipped.",
      tool_calls: [{ tool: "lookup", input: { id: "7" }, timestamp: "2026-01-01T00:00:00Z" }],
    }],
    rubrics: ["Names the order", { description: "Says shipped", weight: 2 }],
    evaluators: [{
      type: "tool_trajectory",
      mode: "in_order",
      expected: [{ tool: "lookup", args: { id: "7" }, max_duration_ms: 2000, status: "ok" }],
    }],
  },
  {
    id: "aliases",
    outcome: "Greets",
    input_messages: [{ role: "user", content: [{ type: "text", value: "Hi" }] }],
    expected_messages: [{ role: "assistant", content: { greeting: "hello" } }],
    evaluator: "rubric",
    rubrics: [{ id: "r1", description: "Is friendly", weight: 1, required: false }],
    conversation_id: "conv-1",
  },
  {
    id: "metrics",
    expected_outcome: "Is quick and cheap",
    input: "Go",
    execution: {
      target: "azure_base",
      trials: 3,
      workspace_template: "templates/base",
      evaluators: [
        { type: "latency", threshold: 2000 },
        { type: "cost", budget: 0.5, weight: 0 },
        { type: "token_usage", max_total: 1000, max_output: 200 },
        { type: "equals", value: { a: 1 }, case_sensitive: false },
        { type: "is_json", name: "json" },
      ],
    },
  },
  {
    id: "fields",
    expected_outcome: "Extracts the invoice",
    input: "Extract",
    expected_output: { total: 12.5, date: "2026-01-02" },
    evaluators: [
      {
        type: "field_accuracy",
        aggregation: "all_or_nothing",
        fields: [
          { path: "total", match: "numeric_tolerance", tolerance: 0.01, relative: true },
          { path: "date", match: "date", formats: ["YYYY-MM-DD"], required: false, weight: 2 },
        ],
      },
      { type: "tool_trajectory", mode: "any_order", minimums: { search: 1 } },
      { type: "rubric", rubrics: ["Is exact"], model: "judge-model" },
      { type: "llm_judge", rubrics: ["Is complete"], model: "m" },
    ],
  },
  {
    id: "structured",
    expected_outcome: "Lists the records",
    input: [{ role: "user", content: "List" }],
    expected_output: [{ name: "a" }, { name: "b" }],
    description: "d",
    note: "n",
    notes: "ns",
    question: "q",
    reference_answer: "r",
    metadata: { source: "crm", tags: ["x"] },
    tags: ["t1", "t2"],
  },
  {
    id: "empty-expected",
    expected_outcome: "Calls a tool",
    input: [{ role: "assistant", tool_calls: [{ tool: "x" }] }],
    expected_output: null,
    execution: {},
  },
  {
    id: "one-check",
    expected_outcome: "Says ok",
    input: "Say ok",
    evaluators: [{ type: "contains", value: "ok", weight: 1 }],
    execution: { evaluators: [{ type: "is_json", weight: 1 }] },
  },
  // Left to the pipeline: file references, judge prompts, code judges, composites, schemas.
  {
    id: "refs",
    expected_outcome: "Reads the file",
    input: [{ role: "user", content: [{ type: "file", value: "docs/guide.md" }] }],
  },
  {
    id: "judges",
    expected_outcome: "Passes the judges",
    input: "q",
    evaluators: [
      { type: "llm_judge", prompt: "Score {{ answer }}" },
      { type: "code_judge", script: ["python3", "judge.py"] },
      { type: "composite", evaluators: [{ type: "is_json" }] },
      { type: "json_schema", schema: { type: "object" } },
    ],
  },
];

/** Values put in place of every value of a seed. */
const PROBES: unknown[] = [
  null,
  true,
  0,
  -1,
  0.5,
  2000,
  HUGE,
  "",
  " ",
  "x",
  "user",
  "any_order",
  "(a)\\1",
  "ii",
  [],
  ["x"],
  [{}],
  {},
  { role: "user" },
  { type: "text", value: "v" },
  { type: "text", value: 1 },
  { type: "file", value: "docs/guide.md" },
];

type Path = (string | number)[];

/** Every path to a value inside `value` (not the root itself). */
function paths(value: unknown, at: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [];
  const out: Path[] = [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value as Record<string, unknown>);
  for (const [key, child] of entries) {
    out.push([...at, key], ...paths(child, [...at, key]));
  }
  return out;
}

/** A deep copy of `value` with `edit` applied to the parent of `path`. */
function edited(
  value: Record<string, unknown>,
  path: Path,
  edit: (parent: Record<string | number, unknown>, key: string | number) => void,
): Record<string, unknown> {
  const copy = structuredClone(value);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  edit(parent, path[path.length - 1]);
  return copy;
}

/** The mutations of one seed (the seed itself first). */
export function mutate(seed: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [seed];
  for (const path of paths(seed)) {
    for (const probe of PROBES) out.push(edited(seed, path, (p, k) => void (p[k] = probe)));
    out.push(edited(seed, path, (p, k) => {
      if (Array.isArray(p)) p.splice(k as number, 1);
      else delete p[k];
    }));
    if (typeof path[path.length - 1] === "string") {
      out.push(edited(seed, path, (p, k) => {
        p[`${k}s`] = p[k];
        delete p[k];
      }));
      out.push(edited(seed, path, (p) => void (p.extra = 1)));
    } else {
      out.push(edited(seed, path, (p, k) => void (p[k] = p[(k as number) + 1] ?? "x")));
    }
  }
  out.push({ ...seed, unknown_key: 1 });
  return out;
}

/**
 * The corpus as JSONL text: every mutation of every seed, each with its own id (`<seed>-<n>`)
 * unless the mutation changed the id, then a few cases whose id repeats, one too deep, and one
 * with a `__proto__` key.
 */
export function corpusText(): string {
  const lines: string[] = [];
  for (const seed of SEEDS) {
    mutate(seed).forEach((record, n) => {
      const id = record.id === seed.id ? `${seed.id}-${n}` : record.id;
      lines.push(JSON.stringify({ ...record, id }).replaceAll(`"${HUGE}"`, "1e400"));
    });
  }
  for (const seed of SEEDS) lines.push(JSON.stringify(seed), JSON.stringify(seed));
  lines.push(JSON.stringify({ ...SEEDS[0], id: "minimal-1" })); // repeats a mutation's id
  let deep: unknown = "bottom";
  for (let i = 0; i < 600; i++) deep = [deep];
  lines.push(JSON.stringify({ ...SEEDS[0], id: "deep", metadata: { deep } }));
  lines.push(JSON.stringify(SEEDS[0]).replace("{", '{"__proto__":{"x":1},'));
  return lines.join("\n") + "\n";
}
