/**
 * The three shapes of JSONL dataset the `validate` bench measures (issue 20 §4), each written as
 * 100,000 cases by {@link writeShape}:
 *
 * - `minimal`: `id`, `expected_outcome` and a string `input`, nothing else;
 * - `evaluators`: system + user messages, an `expected_output` and three evaluators per case
 *   (`contains` with `values`, a `regex` whose pattern differs per case, an `llm_judge`);
 * - `rubrics_tools`: inline rubrics (strings and objects), a conversation with an assistant's
 *   `tool_calls` and a `tool` reply, an expected answer that calls tools, and a `tool_trajectory`
 *   evaluator with expected calls and their arguments.
 *
 * @module
 */

/** The names of the shapes. */
export const SHAPES = ["minimal", "evaluators", "rubrics_tools"] as const;

/** One of {@link SHAPES}. */
export type Shape = typeof SHAPES[number];

/** Case `i` of a shape, as one JSONL record. */
export function shapeCase(shape: Shape, i: number): Record<string, unknown> {
  switch (shape) {
    case "minimal":
      return {
        id: `case-${i}`,
        expected_outcome: `Answers question ${i} correctly`,
        input: `What is ${i} + ${i}?`,
      };
    case "evaluators":
      return {
        id: `case-${i}`,
        expected_outcome: `Explains how to reset the password and stays polite (ticket ${i})`,
        input: [
          { role: "system", content: "You are a support agent for ACME. Answer briefly." },
          { role: "user", content: `Ticket ${i}: how do I reset my password? The link expired.` },
        ],
        expected_output: `Request a new reset link from the login page (ticket ${i}).`,
        evaluators: [
          { name: "keywords", type: "contains", values: ["reset", "link"], mode: "all" },
          { name: "ticket", type: "regex", pattern: `ticket ${i}\\b`, flags: "i" },
          { name: "judge", type: "llm_judge", weight: 2 },
        ],
      };
    case "rubrics_tools":
      return {
        id: `case-${i}`,
        expected_outcome: `Looks up order ${i} and reports its status`,
        input: [
          { role: "system", content: "You are a shop assistant with an order lookup tool." },
          { role: "user", content: `Where is my order ${i}?` },
          {
            role: "assistant",
            content: "Let me check.",
            tool_calls: [{ tool: "lookup_order", input: { order_id: `${i}` }, id: `call-${i}` }],
          },
          { role: "tool", name: "lookup_order", content: `{"order_id":"${i}","status":"shipped"}` },
          { role: "user", content: "And when will it arrive?" },
        ],
        expected_output: [{
          role: "assistant",
          content: `Order ${i} has shipped and arrives in two days.`,
          tool_calls: [{ tool: "lookup_order", input: { order_id: `${i}` } }],
        }],
        rubrics: [
          `Names order ${i}`,
          { description: "Says the order has shipped", weight: 2 },
          { id: "polite", description: "Stays polite", weight: 1, required: false },
        ],
        evaluators: [{
          name: "lookup",
          type: "tool_trajectory",
          mode: "in_order",
          expected: [{ tool: "lookup_order", args: { order_id: `${i}` }, max_duration_ms: 2000 }],
        }],
      };
  }
}

/** Writes `cases` cases of `shape` to `path` as JSONL (in batches, so memory stays small). */
export async function writeShape(path: string, shape: Shape, cases: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  try {
    let batch: string[] = [];
    for (let i = 0; i < cases; i++) {
      batch.push(JSON.stringify(shapeCase(shape, i)));
      if (batch.length === 5000 || i === cases - 1) {
        const bytes = encoder.encode(batch.join("\n") + "\n");
        let off = 0;
        while (off < bytes.length) off += await file.write(bytes.subarray(off));
        batch = [];
      }
    }
  } finally {
    file.close();
  }
}
