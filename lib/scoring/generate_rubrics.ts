/**
 * `generate rubrics`: asks the judge for rubrics derived from each case's `expected_outcome`
 * and writes them into the eval file, only for cases that have none. YAML files are edited in
 * place keeping comments and layout; JSONL lines are rewritten with a `rubrics` key.
 *
 * @module
 */
import { basename, extname } from "node:path";
import { type GeneratedRubricsReply, GeneratedRubricsReplySchema } from "../schema/judge_reply.ts";
import { askJudge } from "./judge_reply.ts";
import type { JudgeClient } from "./types.ts";
import { insertYamlKeys, readYamlSequence } from "../dataset/yaml_edit.ts";
import { unifiedDiff } from "./line_diff.ts";
import { invalidJsonLine } from "../text/json_line_error.ts";

/** System prompt of rubric generation. */
export const GENERATE_RUBRICS_SYSTEM_PROMPT =
  `You are an expert at writing evaluation rubrics for AI assistant answers.
You must return a valid JSON object matching this schema:
{
  "rubrics": [
    {
      "id": "string (short kebab-case identifier, unique)",
      "description": "string (one specific, testable property of a good answer)",
      "weight": number (importance, default 1.0),
      "required": boolean (true if an answer without it must fail, default true)
    }
  ]
}`;

/** A rubric as written into the file. */
export interface GeneratedRubric {
  /** Identifier. */
  id: string;
  /** What a good answer does. */
  description: string;
  /** Weight (default 1). */
  weight: number;
  /** Whether failing it fails the case. */
  required: boolean;
}

/** Options of {@link generateRubrics}. */
export interface GenerateRubricsOptions {
  /** The judge that writes the rubrics. */
  judge: JudgeClient;
  /** Compute the changes and return the diff without writing the file. */
  dryRun?: boolean;
  /** Aborts pending judge calls. */
  signal?: AbortSignal;
  /** Judge calls in flight at once (default 4). */
  concurrency?: number;
  /** Called when a case starts (progress output). */
  onCase?: (id: string) => void;
}

/** What {@link generateRubrics} did. */
export interface GenerateRubricsResult {
  /** Ids of the cases that got rubrics (in file order). */
  updated: string[];
  /** Cases left alone and why (already have rubrics, no expected_outcome). */
  skipped: { id: string; reason: string }[];
  /** Cases whose rubrics could not be generated, with the judge's problem. */
  failed: { id: string; error: string }[];
  /** With `dryRun`: the unified diff of the change (`""` when nothing would change). */
  diff?: string;
}

interface Candidate {
  index: number;
  id: string;
  outcome: string;
  question?: string;
  reference?: string;
}

/**
 * Builds the user prompt asking for 3–7 rubrics, with the `[[ ## expected_outcome ## ]]`,
 * optional `[[ ## question ## ]]` and `[[ ## reference_answer ## ]]` sections.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateRubricsPrompt } from "./generate_rubrics.ts";
 * const prompt = generateRubricsPrompt({ outcome: "Explains recursion" });
 * assert.ok(prompt.includes("[[ ## expected_outcome ## ]]"));
 * assert.ok(prompt.includes("Explains recursion"));
 * ```
 */
export function generateRubricsPrompt(
  c: { outcome: string; question?: string; reference?: string },
): string {
  const sections = [
    "Write 3 to 7 rubric items for judging answers to the task below. Each item must be a " +
    "specific, testable property that a good answer has, derived from the expected outcome; " +
    "avoid vague items such as 'is helpful'.",
    `[[ ## expected_outcome ## ]]\n${c.outcome.trim()}`,
  ];
  if (c.question?.trim()) sections.push(`[[ ## question ## ]]\n${c.question.trim()}`);
  if (c.reference?.trim()) sections.push(`[[ ## reference_answer ## ]]\n${c.reference.trim()}`);
  return sections.join("\n\n");
}

/**
 * Generates rubrics for the cases of a YAML or JSONL eval file that have an expected outcome
 * and no `rubrics`, and writes them into the file (unless `dryRun`). A case whose judge reply
 * stays unusable after three attempts is listed in `failed` and left unchanged; the others are
 * still written.
 *
 * @example
 * ```ts ignore
 * import { generateRubrics } from "./generate_rubrics.ts";
 * const result = await generateRubrics("evals/dataset.yaml", { judge, dryRun: true });
 * console.log(result.updated, result.diff);
 * ```
 */
export async function generateRubrics(
  file: string,
  options: GenerateRubricsOptions,
): Promise<GenerateRubricsResult> {
  const ext = extname(file).toLowerCase();
  if (![".yaml", ".yml", ".jsonl"].includes(ext)) {
    throw new Error(
      `Unsupported file format: '${ext}'. Supported formats: .yaml, .yml, .jsonl`,
    );
  }
  const text = await Deno.readTextFile(file);
  const jsonl = ext === ".jsonl";
  const items = jsonl ? jsonlItems(text) : yamlItems(text, file);
  const skipped: GenerateRubricsResult["skipped"] = [];
  const candidates: Candidate[] = [];
  items.forEach((item, index) => {
    const c = candidate(item, index);
    if ("reason" in c) skipped.push(c);
    else candidates.push(c);
  });
  const generated = new Map<number, GeneratedRubric[]>();
  const failed: GenerateRubricsResult["failed"] = [];
  const signal = options.signal ?? new AbortController().signal;
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const c = candidates[next++];
      options.onCase?.(c.id);
      const reply = await askJudge(options.judge, {
        system: GENERATE_RUBRICS_SYSTEM_PROMPT,
        user: generateRubricsPrompt(c),
      }, { schema: GeneratedRubricsReplySchema, signal });
      if (reply.ok) generated.set(c.index, toRubrics(reply.value));
      else failed.push({ id: c.id, error: reply.error });
    }
  };
  await Promise.all(
    Array.from(
      { length: Math.max(1, Math.min(options.concurrency ?? 4, candidates.length)) },
      worker,
    ),
  );
  const updated = candidates.filter((c) => generated.has(c.index)).map((c) => c.id);
  failed.sort((a, b) =>
    candidates.findIndex((c) => c.id === a.id) - candidates.findIndex((c) => c.id === b.id)
  );
  const after = generated.size === 0
    ? text
    : jsonl
    ? rewriteJsonl(text, generated)
    : insertYamlKeys(
      text,
      [...generated].map(([index, rubrics]) => ({
        path: ["evalcases", index],
        key: "rubrics",
        value: rubrics,
      })),
    );
  if (options.dryRun) {
    return { updated, skipped, failed, diff: unifiedDiff(text, after, basename(file)) };
  }
  if (after !== text) await Deno.writeTextFile(file, after);
  return { updated, skipped, failed };
}

function toRubrics(reply: GeneratedRubricsReply): GeneratedRubric[] {
  return reply.rubrics.map((r) => ({
    id: r.id,
    description: r.description,
    weight: r.weight,
    required: r.required,
  }));
}

function yamlItems(text: string, file: string): unknown[] {
  const items = readYamlSequence(text, "evalcases");
  if (items === undefined) {
    throw new Error(
      `Invalid test file format: ${file} - missing 'evalcases' field; add \`evalcases:\` with a list of cases`,
    );
  }
  return items;
}

/** One value per non-blank JSONL line (`undefined` for lines that are not JSON objects). */
function jsonlItems(text: string): unknown[] {
  const items: unknown[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      items.push(JSON.parse(line));
    } catch (e) {
      throw new Error(invalidJsonLine(i + 1, (e as Error).message));
    }
  });
  return items;
}

function rewriteJsonl(text: string, generated: Map<number, GeneratedRubric[]>): string {
  let index = -1;
  return text.split("\n").map((line) => {
    if (line.trim() === "") return line;
    index++;
    const rubrics = generated.get(index);
    if (rubrics === undefined) return line;
    const cr = line.endsWith("\r") ? "\r" : "";
    return JSON.stringify({ ...JSON.parse(line), rubrics }) + cr;
  }).join("\n");
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}

function candidate(item: unknown, index: number): Candidate | { id: string; reason: string } {
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    return { id: `#${index + 1}`, reason: "not a case (expected a mapping)" };
  }
  const c = item as Record<string, unknown>;
  const id = str(c.id) ?? `#${index + 1}`;
  if (Object.hasOwn(c, "rubrics")) return { id, reason: "already has rubrics" };
  const outcome = str(c.expected_outcome) ?? str(c.outcome);
  if (outcome === undefined) return { id, reason: "no expected_outcome" };
  return {
    index,
    id,
    outcome,
    question: str(c.question) ?? firstUserText(c.input ?? c.input_messages),
    reference: str(c.reference_answer) ?? lastText(c.expected_output ?? c.expected_messages),
  };
}

function firstUserText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) return undefined;
  for (const m of input) {
    if (m?.role === "user" && typeof m.content === "string") return m.content;
  }
  return undefined;
}

function lastText(expected: unknown): string | undefined {
  if (typeof expected === "string") return expected;
  if (!Array.isArray(expected)) return undefined;
  const last = expected.at(-1);
  return typeof last?.content === "string" ? last.content : undefined;
}
