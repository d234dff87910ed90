/**
 * `code_judge`: runs a user script with a JSON payload on stdin and reads a JSON score from its
 * stdout. A failure to run, a non-zero exit, a timeout or a reply without a JSON object is an
 * evaluator error (with the stderr tail), never a silent 0.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { CodeJudgeConfig } from "../schema/evaluator.ts";
import type { Message } from "../schema/message.ts";
import { isPlainObject, preview } from "./match.ts";
import { errorOutcome, scoredOutcome } from "./outcome.ts";
import { childEnv, processBaseEnv } from "../targets/child_env.ts";
import type { CodeJudgePayload } from "./code_judge_types.ts";
import { judgeModulePath, resolveJudgeModule, runModuleJudge } from "./module_judge.ts";
import { type ScriptRun, tail } from "./script_process.ts";
import { runJudgeScript } from "./judge_sandbox.ts";
import { SANDBOX_KEYS } from "../schema/sandbox.ts";
import { stripAnsi } from "../text/strip_ansi.ts";
import { JudgeHostPool } from "./judge_host_pool.ts";
import { evaluatorCommand } from "../dataset/dataset_commands.ts";
import { ConsentGrant, ConsentNotGivenError } from "../targets/consent.ts";
import { startTargetProxy, type TargetProxy } from "./target_proxy.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

/** Config keys that drive the evaluator itself; every other key is passed on as `config`. */
const OWN_KEYS = new Set([
  ...SANDBOX_KEYS,
  "name",
  "type",
  "weight",
  "script",
  "module",
  "cwd",
  "env",
  "target",
  "timeout_seconds",
  "max_memory_mb",
]);

function segmentText(segment: Record<string, unknown>): string | undefined {
  if (segment.type === "text" && typeof segment.value === "string") return segment.value;
  return undefined;
}

/** The raw text of the input: string contents, text segments, object contents as JSON. */
export function inputText(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    const c = m.content;
    if (typeof c === "string") parts.push(c);
    else if (Array.isArray(c)) {
      for (const s of c) {
        const t = segmentText(s as Record<string, unknown>);
        if (t !== undefined) parts.push(t);
      }
    } else if (c !== undefined) parts.push(JSON.stringify(c));
  }
  return parts.map((p) => p.trim()).filter((p) => p !== "").join(" ");
}

/**
 * The reference answer: the last expected message's content (string as is; segments as their
 * text joined by newlines; an object as pretty JSON), else its tool calls as pretty JSON.
 */
export function referenceAnswer(expected: readonly Message[]): string {
  const last = expected.at(-1);
  if (last === undefined) return "";
  const c = last.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) {
    return c.map((s) => {
      const seg = s as Record<string, unknown>;
      if (seg.type === "file" && typeof seg.text === "string") return seg.text;
      return segmentText(seg) ?? JSON.stringify(seg, null, 2);
    }).join("\n");
  }
  if (c !== undefined) return JSON.stringify(c, null, 2);
  if (last.tool_calls !== undefined) return JSON.stringify(last.tool_calls, null, 2);
  return "";
}

/**
 * The JSON document a code judge receives on stdin. User data keys are never rewritten.
 *
 * @example
 * ```ts ignore
 * const payload = buildCodeJudgePayload(config, context);
 * payload.candidate_answer; // context.candidate
 * ```
 */
export function buildCodeJudgePayload(
  config: CodeJudgeConfig,
  context: EvaluationContext,
): CodeJudgePayload {
  const c = context.evalCase;
  const passThrough = Object.fromEntries(
    Object.entries(config).filter(([k]) => !OWN_KEYS.has(k)),
  );
  const guidelines = new Set(c.guideline_paths);
  return {
    eval_id: c.id,
    question: context.prompt,
    input_text: inputText(c.input),
    expected_outcome: c.expected_outcome,
    expected_messages: c.expected_output,
    expected_output: c.expected_output,
    reference_answer: referenceAnswer(c.expected_output),
    candidate_answer: context.candidate,
    output_messages: context.outputMessages,
    guideline_files: c.guideline_paths,
    input_files: c.file_paths.filter((p) => !guidelines.has(p)),
    input_messages: c.input,
    input: c.input,
    trace_summary: context.trace ?? null,
    config: Object.keys(passThrough).length > 0 ? passThrough : null,
    ...(context.workspacePath !== undefined ? { workspace_path: context.workspacePath } : {}),
    ...(context.workspaceChanges !== undefined
      ? { workspace_changes: context.workspaceChanges }
      : {}),
  };
}

/**
 * The last JSON object printed on stdout: the whole output, else (scanning from the end) a
 * block running from a line starting with `{` to the end, else that line alone. Log lines may
 * precede it.
 */
export function lastJsonObject(stdout: string): Record<string, unknown> | undefined {
  const parse = (text: string) => {
    try {
      const v = JSON.parse(text);
      return isPlainObject(v) ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const whole = parse(stdout.trim());
  if (whole !== undefined) return whole;
  const lines = stdout.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].trimStart().startsWith("{")) continue;
    const found = parse(lines.slice(i).join("\n").trim()) ?? parse(lines[i].trim());
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Resolves `cwd` against the eval folder and checks that it stays inside the dataset root. */
async function resolveCwd(config: CodeJudgeConfig, context: EvaluationContext): Promise<string> {
  if (config.cwd === undefined) return resolve(context.evalDir);
  const wanted = resolve(context.evalDir, config.cwd);
  let real: string;
  try {
    real = await Deno.realPath(wanted);
  } catch {
    throw new Error(`cwd '${config.cwd}' does not exist (resolved to ${wanted})`);
  }
  const root = await Deno.realPath(context.root).catch(() => resolve(context.root));
  const rel = relative(root, real);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new Error(
      `cwd '${config.cwd}' resolves to ${real}, outside the dataset root ${root}; ` +
        "use a folder inside the root",
    );
  }
  return real;
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((v) => typeof v === "string" ? v : JSON.stringify(v))
    .filter((v) => v.trim() !== "");
}

function failureMessage(run: ScriptRun, timeoutMs: number): string | undefined {
  const err = run.stderr.trim() === "" ? "" : `: ${tail(run.stderr.trim(), 2000)}`;
  if (run.aborted) return "interrupted";
  if (run.timedOut) return `Code judge timed out after ${timeoutMs}ms and was killed${err}`;
  if (run.code !== 0) {
    const how = run.signal ? `was killed by ${run.signal}` : `exited with code ${run.code}`;
    return `Code judge ${how}${err === "" ? " (no stderr)" : err}`;
  }
  return undefined;
}

/** Turns a judge's reply (a module's return value or a script's JSON) into an outcome. */
function replyOutcome(
  reply: unknown,
  name: string,
  extra: { evaluator_provider_request: Record<string, unknown> },
  what: string,
): EvaluatorOutcome {
  if (!isPlainObject(reply)) {
    return errorOutcome(
      name,
      `${what} returned ${preview(reply)}; expected an object {"score": 0..1, "hits"?, "misses"?}`,
      extra,
    );
  }
  if (typeof reply.score !== "number" || !Number.isFinite(reply.score)) {
    return errorOutcome(
      name,
      `Code judge reply has no numeric "score" (got ${preview(reply.score)}); ` +
        `return {"score": 0..1, "hits": [...], "misses": [...]}`,
      extra,
    );
  }
  return scoredOutcome(reply.score, {
    hits: stringList(reply.hits),
    misses: stringList(reply.misses),
    ...(typeof reply.reasoning === "string" ? { reasoning: reply.reasoning } : {}),
    ...(reply.details !== undefined ? { details: reply.details } : {}),
    ...extra,
  });
}

function timeoutOf(config: CodeJudgeConfig, context: EvaluationContext): number {
  return config.timeout_seconds !== undefined
    ? Math.round(config.timeout_seconds * 1000)
    : context.timeoutMs;
}

/** A module judge: the default export of a TS/JS file, run in a read-root-only judge host. */
async function evaluateModuleJudge(
  config: CodeJudgeConfig,
  modulePath: string,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const request: Record<string, unknown> = { module: modulePath };
  const extra = { evaluator_provider_request: request };
  if (config.target !== undefined && config.target !== false) {
    return errorOutcome(
      config.name,
      "`target:` (the judge proxy) is only available to script code judges; a module judge " +
        "has no network access. Remove `target:` or use `script:`",
      extra,
    );
  }
  let path: string;
  try {
    path = await resolveJudgeModule(modulePath, { evalDir: context.evalDir, root: context.root });
  } catch (e) {
    return errorOutcome(config.name, (e as Error).message, extra);
  }
  const run = await runModuleJudge(path, buildCodeJudgePayload(config, context), {
    root: context.root,
    timeoutMs: timeoutOf(config, context),
    signal: context.signal,
    ...(context.workspacePath !== undefined ? { workspace: context.workspacePath } : {}),
    ...(config.max_memory_mb !== undefined ? { maxMemoryMb: config.max_memory_mb } : {}),
    ...(context.judgeHosts instanceof JudgeHostPool ? { hosts: context.judgeHosts } : {}),
    ...(context.env !== undefined ? { env: context.env } : {}),
  });
  if (!run.ok) {
    // Deno formats some errors for a terminal: the row keeps the text without colours.
    const logs = run.logs.trim() === ""
      ? ""
      : `; console: ${tail(stripAnsi(run.logs).trim(), 2000)}`;
    const message = run.aborted || run.timedOut
      ? run.error
      : `Code judge module failed: ${stripAnsi(run.error)}`;
    return errorOutcome(config.name, `${message}${logs}`, extra);
  }
  return replyOutcome(run.value, config.name, extra, "Code judge module");
}

/**
 * The permit to start a code judge's or aggregator's need, or the error that refused it (the
 * run's consent does not hold it). Without a consent in the context everything is allowed.
 */
export function permitFor(
  need: Parameters<ConsentGrant["permit"]>[0],
  context: Pick<EvaluationContext, "consent">,
): ReturnType<ConsentGrant["permit"]> | ConsentNotGivenError {
  try {
    return (context.consent ?? ConsentGrant.everything()).permit(need);
  } catch (error) {
    if (error instanceof ConsentNotGivenError) return error;
    throw error;
  }
}

/**
 * Runs a code judge. A `module` (or a `script` that is one `.ts`/`.js`/`.mjs` path) is imported
 * in a worker that may only read the dataset root, and its default export is called with the
 * payload. Otherwise `script` runs as a subprocess: as an array it is argv (no shell); as a
 * string it runs through `sh -c` (`cmd /c` on Windows), with the payload as pretty JSON on stdin
 * and the reply read as the last JSON object on stdout. Either way the reply is `score`
 * (required number, clamped to [0, 1]), `hits`, `misses`, `reasoning`, `details`; the verdict
 * comes from the score. Scripts see a scrubbed environment (PATH, HOME, LANG, TMPDIR and the
 * names listed under `env`); with `target:` a script may call the judge target through a
 * loopback proxy (`AGENTV_TARGET_PROXY_URL` / `_TOKEN` in its env). With `sandbox:` (or the run's
 * `--sandbox`) a script runs sandboxed (`judge_sandbox.ts`).
 *
 * @example
 * ```ts ignore
 * const outcome = await evaluateCodeJudge(
 *   { type: "code_judge", name: "check", weight: 1, script: ["python3", "judge.py"] },
 *   context,
 * );
 * ```
 */
export async function evaluateCodeJudge(
  config: CodeJudgeConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const modulePath = judgeModulePath(config);
  if (modulePath !== undefined) return await evaluateModuleJudge(config, modulePath, context);
  const found = evaluatorCommand(config, { evalDir: context.evalDir });
  if (found === undefined) {
    return errorOutcome(config.name, "code_judge needs `module` or `script`");
  }
  // What runs is the argv of the need the run's consent holds, nothing else.
  const permitted = permitFor(found.need, context);
  if (permitted instanceof Error) return errorOutcome(config.name, permitted.message);
  const argv = permitted.argv;
  const request: Record<string, unknown> = { script: argv };
  let cwd: string;
  try {
    cwd = await resolveCwd(config, context);
  } catch (e) {
    return errorOutcome(config.name, (e as Error).message, { evaluator_provider_request: request });
  }
  request.cwd = cwd;
  const timeoutMs = timeoutOf(config, context);

  const extra = { evaluator_provider_request: request };
  let proxy: TargetProxy | undefined;
  const maxCalls = typeof config.target === "object" ? config.target.max_calls ?? 50 : 50;
  if (config.target !== undefined && config.target !== false) {
    if (context.judge === undefined) {
      return errorOutcome(
        config.name,
        "`target:` needs a judge target for the code judge to call: " +
          (context.noJudgeReason ||
            "none is configured; set judge_target on the evaluated target in the targets file (or pass --judge-target)"),
        extra,
      );
    }
    proxy = startTargetProxy(context.judge, { maxCalls, signal: context.signal });
  }

  const payload = JSON.stringify(buildCodeJudgePayload(config, context), null, 2);
  const listed = config.env ?? [];
  const own: Record<string, string> = proxy !== undefined
    ? { AGENTV_TARGET_PROXY_URL: proxy.url, AGENTV_TARGET_PROXY_TOKEN: proxy.token }
    : {};
  if (context.workspacePath !== undefined) own.AGENTV_WORKSPACE_PATH = context.workspacePath;
  let run: ScriptRun;
  try {
    run = await runJudgeScript(permitted, {
      cwd,
      stdin: payload,
      timeoutMs,
      signal: context.signal,
      env: childEnv(context.env ?? processBaseEnv(listed), listed, own),
      clearEnv: true,
    }, {
      label: `Code judge '${config.name}'`,
      settings: config,
      context,
      ...(proxy !== undefined ? { proxyUrl: proxy.url } : {}),
    });
  } finally {
    if (proxy !== undefined) {
      await proxy.close();
      request.target_proxy = { call_count: proxy.callCount(), max_calls: maxCalls };
    }
  }
  if (run.spawnError !== undefined) {
    return errorOutcome(
      config.name,
      `Code judge could not start '${argv[0]}': ${run.spawnError}`,
      extra,
    );
  }
  const failure = failureMessage(run, timeoutMs);
  if (failure !== undefined) return errorOutcome(config.name, failure, extra);

  const reply = lastJsonObject(run.stdout);
  if (reply === undefined) {
    const out = run.stdout.trim() === "" ? "stdout was empty" : `stdout: ${tail(run.stdout, 500)}`;
    const err = run.stderr.trim() === "" ? "" : `; stderr: ${tail(run.stderr.trim(), 2000)}`;
    return errorOutcome(
      config.name,
      `Code judge printed no JSON object (expected {"score": 0..1, ...}); ${out}${err}`,
      extra,
    );
  }
  return replyOutcome(reply, config.name, extra, "Code judge");
}
