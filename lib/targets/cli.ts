/**
 * The `cli` provider: runs `command_template` through the shell for each case. Placeholders
 * `{PROMPT}`, `{GUIDELINES}`, `{EVAL_ID}`, `{ATTEMPT}`, `{FILES}` and `{OUTPUT_FILE}` are replaced
 * by shell-quoted values (do not add quotes around them), and `{WORKSPACE}` by the case's
 * workspace (see `TargetRequest.cwd`; the working folder when the case has none). A relative `cwd`
 * is resolved against the targets file's folder; without `cwd` the command runs in the case's
 * workspace when it has one, else in the eval file's folder. The answer is
 * read from `{OUTPUT_FILE}` when the template uses it, else from stdout (see `cli_output.ts`); that
 * answer is bounded by `max_output_bytes` (default 16 MiB): past it the case is an error naming the
 * cap. Output used only for messages (stderr, stdout next to an output file) keeps its last 64 KiB.
 *
 * With `sandbox: bubblewrap` or `docker` (default `none`; `sandbox_launch.ts`) the command and its
 * command healthcheck run sandboxed, with `network: none` unless set: the case's workspace and
 * the `{OUTPUT_FILE}` folder (a private one) writable; the working folder, the eval file's and
 * the targets file's folders and the `{FILES}` readable; the rest as for every sandbox.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { tmpdir } from "node:os";
import type { CliHealthcheck, CliSettings } from "../schema/targets.ts";
import { parseCliOutput } from "./cli_output.ts";
import { getOk } from "./http.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";
import { childEnv } from "./child_env.ts";
import { redactText } from "../text/redact.ts";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  quoteShellArg,
  runShell,
  type RunShellOptions,
  type ShellResult,
  STDERR_TAIL_BYTES,
  tail,
} from "./shell.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";
import { type SandboxPolicy, sandboxPolicy, SandboxUnavailableError } from "./sandbox_policy.ts";
import { type OpenSandbox, openSandbox } from "./sandbox_launch.ts";
import { TargetConfigError } from "../dataset/targets_errors.ts";

/** Placeholder values before quoting. */
export interface PlaceholderValues {
  /** `{PROMPT}` */
  PROMPT: string;
  /** `{GUIDELINES}` */
  GUIDELINES: string;
  /** `{EVAL_ID}` */
  EVAL_ID: string;
  /** `{ATTEMPT}` */
  ATTEMPT: string;
  /** `{FILES}`: absolute paths, each rendered through `files_format`. */
  FILES: string[];
  /** `{OUTPUT_FILE}` */
  OUTPUT_FILE: string;
  /** `{WORKSPACE}`: the case's workspace (default: empty). */
  WORKSPACE?: string;
}

/**
 * Renders a command template in one pass: each placeholder becomes its shell-quoted value;
 * `{FILES}` becomes every file rendered through `filesFormat` (`{path}`, `{basename}`), joined by
 * spaces. Other text is left as written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCommandTemplate } from "./cli.ts";
 * const command = renderCommandTemplate("agent --prompt {PROMPT} {FILES}", {
 *   PROMPT: "it's", GUIDELINES: "", EVAL_ID: "c1", ATTEMPT: "0", FILES: ["/a/b.md"], OUTPUT_FILE: "",
 * }, { filesFormat: "--file {path}", os: "linux" });
 * assert.equal(command, `agent --prompt 'it'"'"'s' --file '/a/b.md'`);
 * ```
 */
export function renderCommandTemplate(
  template: string,
  values: PlaceholderValues,
  options: { filesFormat?: string; os?: typeof Deno.build.os } = {},
): string {
  const q = (v: string) => quoteShellArg(v, options.os);
  const format = options.filesFormat ?? "{path}";
  const files = values.FILES.map((file) =>
    format.replace(/\{(path|basename)\}/g, (_, key) => q(key === "path" ? file : basename(file)))
  ).join(" ");
  return template.replace(
    /\{(PROMPT|GUIDELINES|EVAL_ID|ATTEMPT|FILES|OUTPUT_FILE|WORKSPACE)\}/g,
    (_, key: keyof PlaceholderValues) => key === "FILES" ? files : q(values[key] as string ?? ""),
  );
}

/** Creates the `cli` provider. */
export function createCliTarget(settings: CliSettings, context: ProviderContext): TargetCore {
  const timeoutMs = settings.timeout_seconds !== undefined
    ? Math.floor(settings.timeout_seconds * 1000)
    : undefined;
  const label = `CLI target '${context.name}'`;
  const maxOutputBytes = settings.max_output_bytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const tooLarge = (where: string) =>
    new TargetError(
      `${label} wrote more than ${
        formatBytes(maxOutputBytes)
      } to ${where} (max_output_bytes: ${maxOutputBytes}); raise max_output_bytes in the target or make the agent write less`,
    );
  // Output that is only shown in messages is kept as a tail; the answer's source is capped.
  const messagesOnly = { maxStdoutBytes: STDERR_TAIL_BYTES, stdoutOverflow: "tail" } as const;
  const baseDir = (evalDir: string) => context.targetsFileDir ?? evalDir;
  const cwdOf = (request: TargetRequest) =>
    settings.cwd !== undefined
      ? resolve(baseDir(request.evalDir), settings.cwd)
      : request.cwd ?? request.evalDir;
  const safe = (text: string) => redactText(text, context.secrets);
  // Scrubbed: PATH, HOME, LANG, TMPDIR and the names `env` lists (a mapping sets values).
  const commandEnv = Array.isArray(settings.env)
    ? childEnv(context.env, settings.env)
    : childEnv(context.env, [], settings.env ?? {});
  let health: Promise<void> | undefined;
  const sandbox = cliSandbox(settings, context, label);

  const ensureHealthy = (signal: AbortSignal, evalDir?: string): Promise<void> => {
    const check = settings.healthcheck;
    if (check === undefined) return Promise.resolve();
    if (health === undefined) {
      const attempt = runHealthcheck(check, signal, evalDir);
      health = attempt;
      // an aborted check is not a verdict on the agent: the next call checks again
      attempt.catch(() => {
        if (signal.aborted && health === attempt) health = undefined;
      });
    }
    return health;
  };

  const runHealthcheck = async (check: CliHealthcheck, signal: AbortSignal, evalDir?: string) => {
    const seconds = check.timeout_seconds ?? settings.timeout_seconds ?? 60;
    const fail = (detail: string) =>
      new TargetError(safe(`CLI healthcheck failed for '${context.name}': ${detail}`));
    if (check.type === "http") {
      try {
        await getOk(check.url, {
          signal: AbortSignal.any([signal, AbortSignal.timeout(seconds * 1000)]),
          fetch: context.fetch,
          secrets: context.secrets,
        });
      } catch (error) {
        throw fail(error instanceof Error ? error.message : String(error));
      }
      return;
    }
    const targetCwd = settings.cwd !== undefined
      ? resolve(baseDir(evalDir ?? "."), settings.cwd)
      : evalDir;
    const cwd = check.cwd !== undefined ? resolve(baseDir(evalDir ?? "."), check.cwd) : targetCwd;
    // What runs is the template the run's consent allowed, nothing else.
    const command = renderCommandTemplate(permitOf(context, "healthcheck").template, {
      PROMPT: "",
      GUIDELINES: "",
      EVAL_ID: "healthcheck",
      ATTEMPT: "0",
      FILES: [],
      OUTPUT_FILE: join(context.tempDir ?? tmpdir(), `agentv-healthcheck-${Date.now()}.json`),
    }, { filesFormat: settings.files_format });
    const readOnly = [cwd, evalDir, context.targetsFileDir].filter((p) => p !== undefined);
    const access = { writable: [], readOnly };
    const result = await run(command, {
      cwd,
      timeoutMs: seconds * 1000,
      signal,
      ...messagesOnly,
    }, access)
      .catch((e) => {
        throw fail(e instanceof Error ? e.message : String(e));
      });
    if (result.timedOut) throw fail(`timed out after ${seconds}s`);
    if (result.aborted) throw fail("aborted");
    if (result.code !== 0) throw fail(exitDetail(result));
  };

  const run = shellRunner({
    sandbox,
    env: commandEnv,
    label,
    safe,
    ...(context.tempDir !== undefined ? { tempDir: context.tempDir } : {}),
  });

  return {
    ...(sandbox !== undefined ? { sandbox } : {}),
    ...(settings.healthcheck
      ? {
        healthcheck: (signal: AbortSignal, options?: { evalDir?: string }) =>
          ensureHealthy(signal, options?.evalDir),
      }
      : {}),
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      // What runs is the template the run's consent allowed, nothing else.
      const template = permitOf(context, "cli_target").template;
      const usesOutputFile = template.includes("{OUTPUT_FILE}");
      await ensureHealthy(request.signal, request.evalDir);
      // In a sandbox the output file goes in a folder of its own, the only one it may write.
      const outputDir = usesOutputFile && sandbox !== undefined
        ? await Deno.makeTempDir({ dir: context.tempDir ?? tmpdir(), prefix: "agentv-out-" })
        : undefined;
      const outputFile = usesOutputFile
        ? join(
          outputDir ?? context.tempDir ?? tmpdir(),
          `agentv-${safeName(request.evalCase.id)}-${Date.now()}-${randomSuffix()}.json`,
        )
        : "";
      const files = [
        ...new Set(request.evalCase.file_paths.map((p) => resolve(request.evalDir, p))),
      ];
      const command = renderCommandTemplate(template, {
        PROMPT: request.prompt,
        GUIDELINES: request.guidelines,
        EVAL_ID: request.evalCase.id,
        ATTEMPT: String(request.attempt),
        FILES: files,
        OUTPUT_FILE: outputFile,
        WORKSPACE: request.cwd ?? cwdOf(request),
      }, { filesFormat: settings.files_format });
      const cwd = cwdOf(request);
      const recorded = { command: safe(command), cwd };
      const access = {
        writable: [request.cwd, outputDir].filter((p) => p !== undefined),
        readOnly: [
          cwd,
          request.evalDir,
          context.targetsFileDir,
          ...files,
          ...request.borrowed ?? [],
        ]
          .filter((p) => p !== undefined),
      };
      try {
        const result = await run(command, {
          cwd,
          timeoutMs,
          signal: request.signal,
          ...(usesOutputFile ? messagesOnly : { maxStdoutBytes: maxOutputBytes }),
        }, access);
        if (result.aborted) {
          throw new TargetError(`${label} was aborted`, { cause: request.signal.reason });
        }
        if (result.timedOut) {
          throw new TargetError(`${label} timed out after ${settings.timeout_seconds}s`, {
            retryable: true,
          });
        }
        if (result.stdoutOverflow) throw tooLarge("stdout");
        if (result.code !== 0) throw new TargetError(safe(`${label} ${exitDetail(result)}`));
        let raw = result.stdout.replace(/\s+$/, "");
        if (usesOutputFile) {
          let text: string | undefined;
          try {
            text = await readBounded(outputFile, maxOutputBytes);
          } catch (error) {
            const reason = error instanceof Deno.errors.NotFound
              ? "it does not exist"
              : String(error);
            throw new TargetError(
              safe(`${label} did not write its {OUTPUT_FILE} '${outputFile}': ${reason}`),
            );
          }
          if (text === undefined) throw tooLarge(`its {OUTPUT_FILE} '${outputFile}'`);
          raw = text;
        }
        const parsed = parseCliOutput(raw, { onWarning: context.onWarning, label });
        return { duration_ms: result.durationMs, ...parsed, request: recorded };
      } finally {
        if (usesOutputFile && !settings.keep_temp_files) {
          await Deno.remove(outputDir ?? outputFile, { recursive: true }).catch(() => {});
        }
      }
    },
  };
}

/** What paths a sandboxed command may write and read. */
interface Access {
  writable: string[];
  readOnly: string[];
}

/**
 * Runs a target's commands through the shell with its environment, in its sandbox when it has
 * one (`access` says what the command may write and read there); a failure to start is a
 * `TargetError` naming the target.
 */
function shellRunner(spec: {
  sandbox: SandboxPolicy | undefined;
  env: Record<string, string>;
  label: string;
  safe: (text: string) => string;
  tempDir?: string;
}) {
  return async (
    command: string,
    options: Omit<RunShellOptions, "env" | "sandbox"> & { signal: AbortSignal },
    access: Access,
  ): Promise<ShellResult> => {
    let box: OpenSandbox | undefined;
    try {
      if (spec.sandbox !== undefined) {
        box = await openSandbox(spec.sandbox, {
          argv: ["sh", "-c", command],
          env: spec.env,
          cwd: options.cwd ?? ".",
          ...access,
          ...(spec.tempDir !== undefined ? { tempDir: spec.tempDir } : {}),
        });
      }
      return await runShell(command, {
        ...options,
        env: spec.env,
        clearEnv: true,
        ...(box !== undefined ? { sandbox: box } : {}),
      });
    } catch (error) {
      const reason = error instanceof Deno.errors.NotFound
        ? `working folder '${options.cwd}' does not exist or the shell is missing`
        : error instanceof Error
        ? error.message
        : String(error);
      throw new TargetError(spec.safe(`${spec.label} could not start: ${reason}`));
    } finally {
      await box?.close();
    }
  };
}

/** The sandbox of a `cli` target (none by default); a `TargetConfigError` when it cannot be had. */
function cliSandbox(
  settings: CliSettings,
  context: ProviderContext,
  label: string,
): SandboxPolicy | undefined {
  try {
    return sandboxPolicy(settings, {
      label,
      agent: false,
      ...(context.sandbox !== undefined ? { override: context.sandbox } : {}),
      baseDir: context.targetsFileDir ?? ".",
      ...(context.env.PATH !== undefined ? { path: context.env.PATH } : {}),
    });
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    throw new TargetConfigError(error.message, { target: context.name });
  }
}

function exitDetail(result: ShellResult): string {
  const output = tail(result.stderr) || tail(result.stdout);
  return `exited with code ${result.code}${output ? `: ${output}` : ""}`;
}

/**
 * The text of the regular file `path`, or `undefined` when it holds more than `max` bytes (never
 * reading more than `max + 1`).
 */
async function readBounded(path: string, max: number): Promise<string | undefined> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new Error("it is not a regular file");
  if (info.size > max) return undefined;
  using file = await Deno.open(path, { read: true });
  const bytes = new Uint8Array(Math.min(info.size, max) + 1);
  let size = 0;
  for (;;) {
    if (size === bytes.length) return undefined;
    const n = await file.read(bytes.subarray(size));
    if (n === null) break;
    size += n;
  }
  return new TextDecoder().decode(bytes.subarray(0, size));
}

/** `16 MiB`, `512 KiB`, `100 bytes`. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 80);
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 9).padEnd(7, "0");
}
