/**
 * From a validated raw case to the normalised {@link EvalCase}: file-level defaults, the
 * execution merge, evaluator precedence, inline rubrics, file references and guidelines, and
 * judge prompt templates.
 *
 * @module
 */
import { relative, sep } from "node:path";
import type { EvalCase } from "../schema/eval_case.ts";
import type { ParsedEvalCase } from "../schema/eval_file.ts";
import type { EvaluatorConfig, EvaluatorType } from "../schema/evaluator.ts";
import {
  AGGREGATOR_TEMPLATE_VARIABLES,
  findTemplateProblems,
  JUDGE_TEMPLATE_VARIABLES,
} from "../schema/judge_template.ts";
import type { Message, Segment } from "../schema/message.ts";
import type { PathKey } from "./yaml_source.ts";
import type { Finding } from "./issues.ts";
import type { ReferenceResolver } from "../fs/resolve.ts";

/** Defaults a file (YAML top level, or the JSONL sidecar) gives its cases. */
export interface FileDefaults {
  /** `dataset:` (trimmed) or the file's basename. */
  dataset: string;
  /** File-level `execution` without `evaluators`. */
  execution: Record<string, unknown>;
  /** File-level `execution.evaluators`, when present. */
  evaluators?: EvaluatorConfig[];
  /** Legacy top-level `target:`. */
  target?: string;
  /** Default evaluator kind. */
  evaluator: EvaluatorType;
}

/** Where a case lives: its folder, the dataset root and the shared resolver. */
export interface CaseContext {
  /** Folder of the eval file (absolute). */
  evalDir: string;
  /** The resolver confined to the dataset root (caches lookups and reads). */
  resolver: ReferenceResolver;
  /** Whether an absolute file path is a guideline (by `guideline_patterns`). */
  isGuideline(path: string): boolean;
}

/** Which raw keys a case used (for diagnostic paths). */
export interface RawKeys {
  /** `input` or `input_messages`. */
  input: string;
  /** `expected_output` or `expected_messages`. */
  expected: string;
}

/** A file reference resolved and read, or why it could not be. */
export type LoadedFile = { path: string; text: string } | { error: string };

/**
 * Builds the normalised case. File references and judge prompts need I/O: when the case has
 * any, they are resolved first (asynchronously, through the resolver's caches); otherwise the
 * case is built synchronously. Problems (missing files, escaping references, unknown template
 * variables) are added to `findings` with paths relative to the case; the case is returned only
 * when none of them is an error.
 */
export function normalizeCase(
  parsed: ParsedEvalCase,
  context: { defaults: FileDefaults; ctx: CaseContext; keys: RawKeys; findings: Finding[] },
): EvalCase | undefined | Promise<EvalCase | undefined> {
  const own = caseEvaluators(parsed);
  let refs = collectRefs(parsed.input, undefined);
  refs = collectRefs(parsed.expected_output, refs);
  const prompts = own !== undefined && hasPrompts(own.list);
  if (refs === undefined && !prompts) return buildCase(parsed, context, own, NO_FILES);
  return (async () => {
    const { ctx, findings } = context;
    const files = new Map<string, LoadedFile>();
    await Promise.all([...(refs ?? [])].map(async (ref) => {
      const resolved = await ctx.resolver.resolve(ref, ctx.evalDir);
      if ("error" in resolved) return void files.set(ref, resolved);
      const read = await ctx.resolver.readText(resolved.path);
      files.set(ref, "error" in read ? read : { path: resolved.path, text: read.text });
    }));
    if (own && prompts) await checkPrompts(own.list, own.path, { ctx, findings });
    return buildCase(parsed, context, own, files);
  })();
}

const NO_FILES: ReadonlyMap<string, LoadedFile> = new Map();
const NO_PATHS: readonly string[] = [];

function buildCase(
  parsed: ParsedEvalCase,
  context: { defaults: FileDefaults; ctx: CaseContext; keys: RawKeys; findings: Finding[] },
  own: { list: EvaluatorConfig[]; path: PathKey[] } | undefined,
  files: ReadonlyMap<string, LoadedFile>,
): EvalCase | undefined {
  const { defaults, ctx, keys, findings } = context;
  let input = parsed.input;
  let expected = parsed.expected_output;
  const acc: Acc = { guidelines: NO_PATHS as string[], files: NO_PATHS as string[] };
  if (files !== NO_FILES) {
    acc.guidelines = [];
    acc.files = [];
    const env: Env = { ctx, findings, acc, files };
    input = resolveMessages(input, [keys.input], true, env);
    expected = resolveMessages(expected, [keys.expected], false, env);
  }

  let evaluators = own?.list ?? defaults.evaluators ?? [];
  if (parsed.rubrics !== undefined) {
    evaluators = [
      { name: "rubric", type: "rubric", weight: 1, rubrics: parsed.rubrics },
      ...evaluators,
    ];
  } else if (own === undefined) {
    evaluators = evaluators.slice();
  }
  // Findings so far are unknown-key warnings; any error (file references, prompts) voids the case.
  if (findings.length > 0 && countErrors(findings) > 0) return undefined;

  const caseExecution = parsed.execution as Record<string, unknown> | undefined;
  const execution: Record<string, unknown> = { ...defaults.execution };
  if (caseExecution !== undefined) {
    // A case's own workspace (a template or a repository) replaces the file's, of either kind.
    if ("workspace_repo" in caseExecution || "workspace_template" in caseExecution) {
      delete execution.workspace_repo;
      delete execution.workspace_template;
    }
    for (const key in caseExecution) {
      if (key !== "evaluators") execution[key] = caseExecution[key];
    }
  }
  settleTargets(execution, caseExecution, defaults);

  const evalCase: EvalCase = {
    id: parsed.id,
    dataset: defaults.dataset,
    expected_outcome: parsed.expected_outcome,
    input,
    expected_output: expected,
    execution: execution as EvalCase["execution"],
    evaluator: parsed.evaluator ?? defaults.evaluator,
    evaluators,
    guideline_paths: acc.guidelines === NO_PATHS ? [] : acc.guidelines,
    file_paths: acc.files.length === 0 ? acc.guidelines.slice() : [...acc.guidelines, ...acc.files],
  };
  if (parsed.conversation_id !== undefined) evalCase.conversation_id = parsed.conversation_id;
  return evalCase;
}

/**
 * Sets `execution.target` (and `targets`, for two or more) from the case's own `target` or
 * `targets`, else the file's (or sidecar's) `execution`, else the legacy top-level `target`, else
 * `default`. A list of one is `target` alone, so it means what `target` means.
 */
function settleTargets(
  execution: Record<string, unknown>,
  own: Record<string, unknown> | undefined,
  defaults: FileDefaults,
): void {
  const names = (from: Record<string, unknown> | undefined) =>
    from === undefined ? undefined : (from.targets as string[] | undefined) ??
      (from.target === undefined ? undefined : [from.target as string]);
  const list = names(own) ?? names(defaults.execution) ??
    [defaults.target ?? "default"];
  execution.target = list[0];
  if (list.length > 1) execution.targets = [...list];
  else delete execution.targets;
}

/** The case's own evaluator list (`execution.evaluators` before `evaluators`) and its path. */
function caseEvaluators(
  parsed: ParsedEvalCase,
): { list: EvaluatorConfig[]; path: PathKey[] } | undefined {
  if (parsed.execution?.evaluators !== undefined) {
    return { list: parsed.execution.evaluators, path: ["execution", "evaluators"] };
  }
  if (parsed.evaluators !== undefined) return { list: parsed.evaluators, path: ["evaluators"] };
  return undefined;
}

function hasPrompts(list: readonly EvaluatorConfig[]): boolean {
  for (const e of list) {
    if (e.type === "llm_judge" && e.prompt !== undefined) return true;
    if (
      e.type === "composite" &&
      (hasPrompts(e.evaluators) ||
        (e.aggregator.type === "llm_judge" && e.aggregator.prompt !== undefined))
    ) return true;
  }
  return false;
}

function collectRefs(
  messages: readonly Message[],
  refs: Set<string> | undefined,
): Set<string> | undefined {
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const segment of message.content) {
      if (segment === null || typeof segment !== "object") continue; // structured content
      const s = segment as Record<string, unknown>;
      if (s.type === "file") {
        refs ??= new Set();
        if (typeof s.value === "string" && s.value !== "") refs.add(s.value);
      } else if (s.type === "text" && typeof s.value !== "string") {
        refs ??= new Set(); // checked (and reported) while building
      }
    }
  }
  return refs;
}

type Acc = { guidelines: string[]; files: string[] };
type Env = {
  ctx: CaseContext;
  findings: Finding[];
  acc: Acc;
  files: ReadonlyMap<string, LoadedFile>;
};

function resolveMessages(
  messages: Message[],
  path: PathKey[],
  inputSide: boolean,
  env: Env,
): Message[] {
  let out: Message[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!Array.isArray(message.content)) continue;
    const content = resolveSegments(message.content, [...path, i, "content"], inputSide, env);
    if (content !== message.content) {
      out ??= messages.slice();
      out[i] = { ...message, content };
    }
  }
  return out ?? messages;
}

function resolveSegments(
  segments: Segment[] | unknown[],
  path: PathKey[],
  inputSide: boolean,
  env: Env,
): Segment[] | unknown[] {
  let out: unknown[] | undefined;
  for (let k = 0; k < segments.length; k++) {
    if (segments[k] === null || typeof segments[k] !== "object") continue; // structured content
    const segment = segments[k] as Record<string, unknown>;
    if (segment.type === "text" && typeof segment.value !== "string") {
      env.findings.push({
        severity: "error",
        path: [...path, k, "value"],
        atKey: false,
        message:
          'text segment needs a string `value`; expected {type: text, value: "..."}; add the text',
      });
      continue;
    }
    if (segment.type !== "file") continue;
    const resolved = resolveFileSegment(segment, [...path, k], inputSide, env);
    if (resolved) {
      out ??= segments.slice();
      out[k] = resolved;
    }
  }
  return out ?? segments;
}

function resolveFileSegment(
  segment: Record<string, unknown>,
  path: PathKey[],
  inputSide: boolean,
  env: Env,
): Segment | undefined {
  const { ctx, findings, acc } = env;
  const value = segment.value;
  if (typeof value !== "string" || value === "") {
    findings.push({
      severity: "error",
      path: [...path, "value"],
      atKey: false,
      message:
        "file segment needs a `value` with the file's path; expected {type: file, value: ./file.md}; add the path",
    });
    return undefined;
  }
  for (const key of Object.keys(segment)) {
    if (key !== "type" && key !== "value") {
      findings.push({
        severity: "warning",
        path: [...path, key],
        atKey: true,
        message:
          `Unknown key '${key}' in a file segment; expected only type and value; the key is ignored; remove it`,
      });
    }
  }
  const loaded = env.files.get(value) ?? { error: `File reference '${value}' was not resolved` };
  if ("error" in loaded) {
    findings.push({
      severity: "error",
      path: [...path, "value"],
      atKey: false,
      message: loaded.error,
    });
    return undefined;
  }
  const out: Segment = { type: "file", value, path: loaded.path, text: loaded.text };
  if (inputSide && ctx.isGuideline(loaded.path)) {
    out.guideline = true;
    acc.guidelines.push(loaded.path);
  } else if (inputSide) {
    acc.files.push(loaded.path);
  }
  return out;
}

/**
 * Checks the `{{ variables }}` of `llm_judge` prompts (files inside the root or inline text)
 * and composite `llm_judge` aggregator prompts; unknown variables and missing prompt files are
 * errors.
 */
export async function checkPrompts(
  evaluators: readonly EvaluatorConfig[],
  path: PathKey[],
  env: { ctx: CaseContext; findings: Finding[] },
): Promise<void> {
  for (let j = 0; j < evaluators.length; j++) {
    const e = evaluators[j];
    if (e.type === "llm_judge" && e.prompt !== undefined) {
      await checkTemplate(e.prompt, JUDGE_TEMPLATE_VARIABLES, [...path, j, "prompt"], env);
    } else if (e.type === "composite") {
      await checkPrompts(e.evaluators, [...path, j, "evaluators"], env);
      if (e.aggregator.type === "llm_judge" && e.aggregator.prompt !== undefined) {
        await checkTemplate(e.aggregator.prompt, AGGREGATOR_TEMPLATE_VARIABLES, [
          ...path,
          j,
          "aggregator",
          "prompt",
        ], env);
      }
    }
  }
}

async function checkTemplate(
  prompt: string,
  allowed: readonly string[],
  path: PathKey[],
  env: { ctx: CaseContext; findings: Finding[] },
): Promise<void> {
  const { ctx, findings } = env;
  let text = prompt;
  let source = "inline prompt";
  if (looksLikePath(prompt)) {
    const resolved = await ctx.resolver.resolve(prompt.trim(), ctx.evalDir);
    if ("error" in resolved) {
      findings.push({
        severity: "error",
        path,
        atKey: false,
        message: `Prompt file: ${resolved.error}; or write the template inline`,
      });
      return;
    }
    const read = await ctx.resolver.readText(resolved.path);
    if ("error" in read) {
      findings.push({ severity: "error", path, atKey: false, message: read.error });
      return;
    }
    text = read.text;
    source = `prompt file '${prompt}'`;
  }
  for (const problem of findTemplateProblems(text, allowed)) {
    findings.push({
      severity: "error",
      path,
      atKey: false,
      message: `Unknown template variable '{{ ${problem.variable} }}' in ${source}; ${
        problem.suggestion ? `did you mean '{{ ${problem.suggestion} }}'? ` : ""
      }expected one of ${allowed.join(", ")}; fix the variable name`,
    });
  }
}

/** Whether a prompt string names a file rather than holding the template itself. */
function looksLikePath(value: string): boolean {
  const v = value.trim();
  if (v === "" || /[\r\n]/.test(v) || v.includes("{{")) return false;
  if (/\.(md|markdown|txt|prompt|jinja2?|j2|tmpl|tpl|hbs|mustache)$/i.test(v)) return true;
  return !/\s/.test(v) && /[\\/]/.test(v);
}

/** A guideline matcher: patterns without `/` match the file name, others the root-relative path. */
export function guidelineMatcher(
  root: string,
  patterns: readonly string[],
  match: (pattern: string, path: string) => boolean,
): (path: string) => boolean {
  const cache = new Map<string, boolean>();
  const cleaned = patterns.map((p) => p.replace(/^\.?\//, ""));
  return (path: string) => {
    let hit = cache.get(path);
    if (hit === undefined) {
      const rel = relative(root, path).split(sep).join("/");
      const name = rel.slice(rel.lastIndexOf("/") + 1);
      hit = cleaned.some((p) => match(p, p.includes("/") ? rel : name));
      cache.set(path, hit);
    }
    return hit;
  };
}

function countErrors(findings: readonly Finding[]): number {
  let n = 0;
  for (const f of findings) if (f.severity === "error") n++;
  return n;
}
