/**
 * `agentv generate rubrics <file> [--target NAME] [--dry-run]`: asks the judge of the file's
 * target for rubrics derived from each case's `expected_outcome` and writes them into the file
 * (YAML keeping comments and layout, JSONL lines rewritten), only for cases without rubrics.
 *
 * @module
 */
import { basename, dirname, extname, join, resolve } from "node:path";
import { createJudgeClient } from "../scoring/judge_client.ts";
import { JudgeConfigError, selectJudgeTarget } from "../scoring/judge_select.ts";
import { generateRubrics } from "../scoring/generate_rubrics.ts";
import { ConfinedReadError, readConfinedText } from "../fs/read_confined.ts";
import { findDatasetRoot } from "../fs/resolve.ts";
import { readYaml } from "../dataset/yaml_edit.ts";
import { loadDotEnv, mergeEnv } from "../dataset/env.ts";
import {
  formatDiagnostic,
  TargetConfigError,
  TargetsFileError,
} from "../dataset/targets_errors.ts";
import { checkRunPermission, NeedCollector, UntrustedDatasetError } from "../run/run_permission.ts";
import { ConsentGrant } from "../targets/consent.ts";
import { resolveTarget } from "../targets/registry.ts";
import { discoverTargetsFile, loadTargetsFile } from "../dataset/targets_file.ts";
import { reportUntrusted, trustStorePermission } from "./trust.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";

function str(values: ParsedArgs["values"], name: string): string | undefined {
  const v = values[name];
  if (typeof v !== "string") return undefined;
  if (v.trim() === "") throw new UsageError(`--${name} must not be empty`);
  return v;
}

/**
 * The file's own target: YAML `execution.target` (the first of `execution.targets`, or legacy
 * `target`), JSONL sidecar's.
 */
async function fileTarget(file: string, root: string): Promise<string | undefined> {
  const source = extname(file).toLowerCase() === ".jsonl"
    ? join(dirname(file), `${basename(file, extname(file))}.yaml`)
    : file;
  // A discovered sidecar is held to the dataset rules: inside the root, a regular file, bounded.
  const read = await readConfinedText(source, {
    label: "eval file",
    ...(source !== file ? { root } : {}),
    maxBytes: 16 * 1024 * 1024,
  });
  if (!read.ok) return undefined; // no sidecar, or a file the generator reports itself
  let value: unknown;
  try {
    value = readYaml(read.text);
  } catch {
    return undefined; // no sidecar, or a file the generator reports itself
  }
  if (value === null || typeof value !== "object") return undefined;
  const v = value as { execution?: { target?: unknown; targets?: unknown }; target?: unknown };
  // Of a list (`execution.targets`), the first: its judge writes the rubrics.
  const listed = Array.isArray(v.execution?.targets) ? v.execution.targets[0] : undefined;
  const target = v.execution?.target ?? listed ?? v.target;
  return typeof target === "string" && target.trim() !== "" ? target : undefined;
}

/** Turns configuration errors into usage errors (exit 2, no stack trace). */
function asUsageError(error: unknown): unknown {
  if (error instanceof TargetsFileError) {
    const errors = error.diagnostics.filter((d) => d.severity === "error");
    return new UsageError(
      `Invalid targets file ${error.file}:\n${errors.map(formatDiagnostic).join("\n")}`,
    );
  }
  if (error instanceof TargetConfigError) return new UsageError(error.message, error.hint);
  if (error instanceof ConfinedReadError) return new UsageError(error.message);
  if (error instanceof JudgeConfigError) return new UsageError(error.message);
  return error;
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length === 0 ? "No eval file given" : "Give exactly one eval file",
      "usage: agentv generate rubrics <file> [--target NAME] [--dry-run]",
    );
  }
  const v = args.values;
  const file = resolve(io.cwd, args.positionals[0]);
  const rawTimeout = str(v, "timeout");
  const timeout = rawTimeout === undefined ? 120 : Number(rawTimeout);
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new UsageError(`--timeout must be a number of seconds > 0, got '${rawTimeout}'`);
  }
  try {
    if (!(await Deno.stat(file)).isFile) throw new Error("not a file");
  } catch {
    throw new UsageError(`Eval file not found: ${args.positionals[0]}`);
  }
  const dryRun = v["dry-run"] === true;
  const say = (text: string) => dryRun ? io.stderr(text) : io.stdout(text);
  let judge;
  try {
    const rootOption = str(v, "root");
    const root = await findDatasetRoot(
      file,
      rootOption !== undefined ? { root: resolve(io.cwd, rootOption) } : {},
    );
    const explicit = str(v, "targets");
    const targetsPath = await discoverTargetsFile(file, {
      root,
      ...(explicit !== undefined ? { explicit: resolve(io.cwd, explicit) } : {}),
    });
    if (targetsPath === undefined) {
      throw new UsageError(
        `No targets file found for ${args.positionals[0]}`,
        "add .agentv/targets.yaml next to the eval file (or above it), or pass --targets FILE",
      );
    }
    // A discovered targets file must lie inside the dataset root; a `--targets` one is the user's.
    const targets = await loadTargetsFile(targetsPath, explicit !== undefined ? {} : { root });
    const targetName = str(v, "target") ?? await fileTarget(file, root) ?? "default";
    const definition = targets.targets.find((t) => t.name === targetName);
    if (definition === undefined) {
      // Let the registry produce its "unknown target" message with suggestions.
      resolveTarget(targets, targetName, { env: {} });
    }
    const override = str(v, "judge-target");
    const judgeName = selectJudgeTarget(
      { name: targetName, judgeTarget: definition?.judge_target as string | undefined },
      {
        targetNames: targets.targets.map((t) => t.name),
        targetsFile: targetsPath,
        ...(override !== undefined ? { override } : {}),
      },
    ) ?? targetName;
    const env = mergeEnv(await loadDotEnv(dirname(file), root), io.envAll());
    // The judge starts and sends only what the trust gate allows (as in `run`).
    const consent = ConsentGrant.none();
    const judgeTarget = resolveTarget(targets, judgeName, { env, consent });
    if ((judgeTarget.needs?.length ?? 0) > 0) {
      // A judge from a targets file inside the root that runs a command or sends environment
      // values to a host other than its provider's default: trust gate.
      const collector = new NeedCollector();
      collector.addTarget({
        name: judgeName,
        root,
        targetsFile: targetsPath,
        ...(targets.sha256 !== undefined ? { sha256: targets.sha256 } : {}),
        ...(targets.locateTarget
          ? { locate: (path) => targets.locateTarget!(judgeName, path) }
          : {}),
        needs: judgeTarget.needs ?? [],
        evalDirs: [dirname(file)],
      });
      const allowRun = v["allow-run"] === true || await trustStorePermission(io);
      try {
        consent.allow(await checkRunPermission(await collector.collect(), allowRun));
      } catch (error) {
        if (error instanceof UntrustedDatasetError) return await reportUntrusted(error, io);
        throw error;
      }
    }
    judge = createJudgeClient(judgeTarget, {
      timeoutMs: Math.round(timeout * 1000),
      evalDir: dirname(file),
    });
    // Only a fallback is worth a note: a target whose judge_target names itself chose it.
    if (override === undefined && definition?.judge_target === undefined) {
      io.stderr(`Note: target '${targetName}' has no judge_target; using it to write rubrics\n`);
    }
  } catch (error) {
    throw asUsageError(error);
  }
  say(`Generating rubrics for: ${args.positionals[0]} (judge: ${judge.target})\n`);
  let result;
  try {
    result = await generateRubrics(file, {
      judge,
      dryRun,
      signal: io.signal,
      onCase: (id) => say(`  Generating rubrics for: ${id}\n`),
    });
  } catch (error) {
    if (io.signal.aborted) return 130;
    throw new UsageError((error as Error).message);
  }
  if (dryRun && result.diff) io.stdout(result.diff);
  say(outcomeLine(result, dryRun));
  if (result.skipped.length > 0) {
    say(
      `Skipped ${result.skipped.length} eval case${result.skipped.length === 1 ? "" : "s"}: ${
        result.skipped.map((s) => `${s.id} (${s.reason})`).join(", ")
      }\n`,
    );
  }
  for (const f of result.failed) io.stderr(`Error: ${f.id}: ${f.error}\n`);
  if (io.signal.aborted) return 130;
  return result.failed.length > 0 ? 1 : 0;
}

/** What was done, in one line: updated cases, and whether the judge failed or nothing was due. */
function outcomeLine(
  result: { updated: readonly string[]; skipped: readonly unknown[]; failed: readonly unknown[] },
  dryRun: boolean,
): string {
  const n = result.updated.length;
  const failed = result.failed.length;
  const cases = (k: number) => `${k} eval case${k === 1 ? "" : "s"}`;
  if (n > 0) {
    const also = failed > 0 ? `; the judge failed for ${cases(failed)} (below)` : "";
    return `${dryRun ? "Would update" : "Updated"} ${cases(n)} with generated rubrics${also}\n`;
  }
  if (failed > 0) {
    return `No eval case updated: the judge failed for ${
      failed === 1 ? "the one case" : `all ${failed} cases`
    } that needed rubrics (errors below)\n`;
  }
  return "No eval case updated (all already have rubrics or lack an expected_outcome)\n";
}

/**
 * The `generate rubrics` command.
 *
 * @example
 * ```ts ignore
 * import { generateCommand } from "./generate.ts";
 * const code = await generateCommand.run({ values: { "dry-run": true }, positionals: ["evals/a.yaml"] }, io);
 * ```
 */
export const generateCommand: Command = {
  ...commandInfo("generate rubrics"),
  usage: "agentv generate rubrics <file> [--target NAME] [--dry-run]",
  options: {
    target: {
      type: "string",
      short: "t",
      valueName: "NAME",
      description:
        "Target whose judge writes the rubrics (default: the file's target, else 'default')",
    },
    targets: {
      type: "string",
      valueName: "FILE",
      description: "Targets file (default: nearest .agentv/targets.yaml)",
    },
    "judge-target": {
      type: "string",
      valueName: "NAME",
      description: "Target that writes the rubrics, instead of the target's judge_target",
    },
    "dry-run": {
      type: "boolean",
      description: "Print the diff instead of changing the file",
    },
    "allow-run": {
      type: "boolean",
      description:
        "Let a judge target from the dataset's targets file run or send env values this once",
    },
    root: { type: "string", valueName: "DIR", description: "Dataset root (default: discovered)" },
    timeout: {
      type: "string",
      valueName: "SECONDS",
      description: "Timeout of each judge call (default 120)",
    },
  },
  run,
};
