/**
 * Binds each case to a ready target: finds the targets file of its eval file, reads `.env`
 * files, resolves the target (and its judge) once per targets file, name and folder, and
 * replaces them by mocks in a dry run. A target that cannot be used (unknown name, missing
 * `${{ VAR }}`, invalid settings or targets file) is a {@link TargetUnavailableError} that blocks
 * only the cases using it.
 *
 * @module
 */
import { dirname } from "node:path";
import { createJudgeClient } from "../scoring/judge_client.ts";
import type { JudgeClient } from "../scoring/types.ts";
import { ConfinedReadError } from "../fs/read_confined.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import { loadDotEnv, mergeEnv } from "../dataset/env.ts";
import { TargetConfigError, TargetsFileError } from "../dataset/targets_errors.ts";
import { resolveTarget } from "../targets/registry.ts";
import {
  discoverTargetsFile,
  loadUsableTargets,
  type UsableTargetsFile,
} from "../dataset/targets_file.ts";
import type { Target } from "../targets/types.ts";
import { redactValue } from "../text/redact.ts";
import { type Budget, budgetedTarget } from "./budget.ts";
import type { CallCache } from "./call_cache.ts";
import { createDryRunJudge, createDryRunTarget } from "./dry_run.ts";
import { RunConfigError, TargetUnavailableError } from "./errors.ts";
import type { TargetResolvedEvent } from "../results/events.ts";
import { caseJudgeNeeds, type JudgeNeeds } from "../schema/judge_needs.ts";
import { judgeAnswers } from "../dataset/judge_answers.ts";
import { type JudgeFacts, judgeProblem } from "../dataset/judge_wiring.ts";
import type { ConsentGrant } from "../targets/consent.ts";
import type { TargetNeedSource } from "./run_permission.ts";
import type { SandboxMode } from "../schema/sandbox.ts";

/** What a case runs against. */
export interface CaseBinding {
  /** The target (a mock in a dry run). */
  target: Target;
  /** Name written on rows. */
  targetName: string;
  /** Key of the per-target concurrency cap (targets file + name). */
  capKey: string;
  /** The target's `workers` cap, if any. */
  workers?: number;
  /** The judge, when one is configured. */
  judge?: JudgeClient;
  /** Why there is no judge (used when a judged evaluator runs without one). */
  noJudgeReason: string;
  /** Runs the target's healthcheck (the target remembers the outcome for every case). */
  healthcheck?: () => Promise<void>;
  /** `.env` files merged with the process environment (code judges pick listed names). */
  env?: Readonly<Record<string, string>>;
}

/** Options of {@link createTargetResolver}. */
export interface TargetResolverOptions {
  /** Explicit targets file (absolute) for every eval file. */
  targetsFile?: string;
  /** Judge target name for every case. */
  judgeTarget?: string;
  /** Replace targets and judges by mocks. */
  dryRun: boolean;
  /** Process environment (wins over `.env` files). */
  env: Record<string, string>;
  /** `fetch` for HTTP providers. */
  fetch?: typeof fetch;
  /** Timeout of judge call attempts, in ms. */
  timeoutMs: number;
  /** Run signal (healthchecks). */
  signal: AbortSignal;
  /** Called when a target is resolved for the first time. */
  onResolved?: (info: Omit<TargetResolvedEvent, "type">) => void;
  /** The run's spend cap (`--budget-usd`): targets and judges are wrapped by `budgetedTarget`. */
  budget?: Budget;
  /**
   * The run's response cache (`--cache`, `--replay`): targets and judges are wrapped by
   * `cachedTarget` (outside the budget, so a hit costs nothing). Absent: no wrapper.
   */
  cache?: CallCache;
  /**
   * The run's consent grant (see `targets/consent.ts`): every target and judge is created with
   * it, so it starts and sends only what the trust gate allowed.
   */
  consent: ConsentGrant;
  /** The run's `--sandbox`: every target is created with it (see `targets/sandbox_policy.ts`). */
  sandbox?: SandboxMode;
}

/** The eval-file facts the resolver needs. */
export interface EvalFileRef {
  /** Absolute path of the eval file. */
  file: string;
  /** Dataset root. */
  root: string;
  /** Folder of the eval file. */
  evalDir: string;
}

/** Resolves and caches targets for a run. */
export interface TargetResolver {
  /**
   * Binds one case to the target called `name` (its own, or one `--target` gave), resolving the
   * target and its judge on first use.
   */
  bind(set: EvalFileRef, evalCase: EvalCase, name: string): Promise<CaseBinding>;
  /**
   * The judge target `name` of an eval file alone, without its evaluated target (`agentv
   * calibrate` re-asks judges on stored answers and calls no target). Throws
   * {@link TargetUnavailableError} when it cannot be used.
   */
  judge(set: EvalFileRef, name: string): Promise<JudgeClient>;
  /** Every secret held by a resolved target (to redact from outputs). */
  secrets(): string[];
  /**
   * Every target and judge resolved so far that needs consent (commands it starts, environment
   * values it sends to a host other than its provider's default), with the targets file that
   * defines it and the root and folders of the eval files that use it.
   */
  targetNeeds(): TargetNeedSource[];
}

/**
 * The error of a target that cannot be used, naming it. A {@link RunConfigError} raised on the way
 * (e.g. a dataset that is not trusted) is kept as it is: it stops the whole run.
 */
function configError(error: unknown, target: string, context: string): RunConfigError {
  if (error instanceof RunConfigError) return error;
  if (error instanceof ConfinedReadError) {
    // A `.env` or targets file that must not be read (a link out of the root, a FIFO, too big)
    // stops the whole run.
    return new RunConfigError(`Refused to read ${error.file}; nothing ran`, {
      diagnostics: error.diagnostics,
      hint: "fix the file named above (agentv validate shows every problem)",
      cause: error,
    });
  }
  if (error instanceof TargetsFileError) {
    const first = error.diagnostics.find((d) => d.severity === "error");
    const detail = first === undefined
      ? ""
      : `: ${
        first.line !== undefined ? `${first.line}:${first.column ?? 1}: ` : ""
      }${first.message}`;
    return new TargetUnavailableError(
      target,
      `${context}: invalid targets file ${error.file}${detail}`,
      {
        diagnostics: error.diagnostics,
        hint: "fix the targets file (agentv validate shows every problem)",
        cause: error,
      },
    );
  }
  if (error instanceof TargetConfigError) {
    return new TargetUnavailableError(target, `${context}: ${error.message}`, {
      ...(error.hint ? { hint: error.hint } : {}),
      cause: error,
    });
  }
  return new TargetUnavailableError(
    target,
    `${context}: ${(error as Error)?.message ?? String(error)}`,
    { cause: error },
  );
}

/** Throws when the definition of target `name` has errors (only its cases are blocked). */
function refuseBroken(file: UsableTargetsFile, name: string, set: EvalFileRef): void {
  const errors = file.broken.get(name);
  if (errors === undefined) return;
  const [first] = errors;
  const where = first.line !== undefined ? `:${first.line}:${first.column ?? 1}` : "";
  throw new TargetUnavailableError(
    name,
    `Cannot use target '${name}' for ${set.file}: its definition in ${file.path}${where} is invalid: ${first.message}`,
    { diagnostics: errors, hint: "fix the target (agentv validate shows every problem)" },
  );
}

/**
 * Creates the resolver used by `runEval`.
 *
 * @example
 * ```ts ignore
 * import { createTargetResolver } from "./resolve_targets.ts";
 * const resolver = createTargetResolver({ dryRun: false, env: {}, timeoutMs: 120_000, signal });
 * const binding = await resolver.bind(set, evalCase, "default");
 * ```
 */
export function createTargetResolver(options: TargetResolverOptions): TargetResolver {
  const targetsPaths = new Map<string, Promise<string | undefined>>();
  const targetsFiles = new Map<string, Promise<UsableTargetsFile>>();
  const envs = new Map<string, Promise<Record<string, string>>>();
  const bindings = new Map<string, Promise<Omit<CaseBinding, "judge" | "noJudgeReason">>>();
  const judges = new Map<string, Promise<JudgeClient>>();
  const secrets = new Set<string>();
  /** What each target said when it was made (reported once, with its `target_resolved`). */
  const targetWarnings = new WeakMap<Target, string[]>();
  const needSources = new Map<string, TargetNeedSource & { evalDirs: string[] }>();
  const dryJudge = options.dryRun ? createDryRunJudge() : undefined;

  const findTargetsPath = (set: EvalFileRef) => {
    const key = `${set.file}\0${set.root}`;
    let p = targetsPaths.get(key);
    if (!p) {
      p = discoverTargetsFile(set.file, {
        root: set.root,
        ...(options.targetsFile !== undefined ? { explicit: options.targetsFile } : {}),
      });
      targetsPaths.set(key, p);
    }
    return p;
  };
  const readTargetsFile = (path: string, set: EvalFileRef) => {
    // A discovered file must lie inside the dataset root; a `--targets` file is the user's own.
    const root = options.targetsFile === undefined ? set.root : undefined;
    const key = `${path}\0${root ?? ""}`;
    let p = targetsFiles.get(key);
    if (!p) {
      p = loadUsableTargets(path, root !== undefined ? { root } : {});
      targetsFiles.set(key, p);
    }
    return p;
  };
  const envFor = (set: EvalFileRef) => {
    let p = envs.get(set.evalDir);
    if (!p) {
      p = loadDotEnv(set.evalDir, set.root).then((dot) => mergeEnv(dot, options.env));
      envs.set(set.evalDir, p);
    }
    return p;
  };

  async function resolveNamed(
    set: EvalFileRef,
    name: string,
    targetsPath: string | undefined,
  ): Promise<Target> {
    if (targetsPath === undefined) {
      throw new TargetUnavailableError(
        name,
        `Cannot use target '${name}' for ${set.file}: no targets file found`,
        {
          hint:
            `create .agentv/targets.yaml between the eval file and the dataset root (${set.root}) defining target '${name}', pass --targets FILE, or use --dry-run`,
        },
      );
    }
    const file = await readTargetsFile(targetsPath, set);
    refuseBroken(file, name, set);
    const warnings: string[] = [];
    const target = resolveTarget(file, name, {
      env: await envFor(set),
      onWarning: (warning) => warnings.push(warning),
      targetsFileDir: dirname(targetsPath),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      // A replay calls nothing: a target's unset key variable is no error.
      ...(options.cache?.replay ? { offline: true } : {}),
      consent: options.consent,
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    });
    for (const s of target.secrets) secrets.add(s);
    targetWarnings.set(target, warnings);
    // What it starts or sends needs consent; not under `--replay`, which calls nothing.
    if ((target.needs?.length ?? 0) > 0 && !options.cache?.replay) {
      const key = `${targetsPath}\0${set.root}\0${name}`;
      const known = needSources.get(key);
      if (known) {
        if (!known.evalDirs.includes(set.evalDir)) known.evalDirs.push(set.evalDir);
      } else {
        needSources.set(key, {
          name,
          root: set.root,
          targetsFile: targetsPath,
          ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
          ...(file.locateTarget ? { locate: (path) => file.locateTarget!(name, path) } : {}),
          needs: target.needs ?? [],
          evalDirs: [set.evalDir],
        });
      }
    }
    return target;
  }

  async function bindTarget(set: EvalFileRef, name: string) {
    const targetsPath = await findTargetsPath(set);
    if (options.dryRun) {
      let workers: number | undefined;
      let written: Record<string, unknown> | undefined;
      if (targetsPath !== undefined) {
        const file = await readTargetsFile(targetsPath, set);
        refuseBroken(file, name, set);
        const def = file.targets.find((t) => t.name === name);
        if (def === undefined) {
          // Same message as a real run: an unknown target is a mistake even in a dry run.
          resolveTarget(file, name, { env: {} });
        }
        if (typeof def?.workers === "number") workers = def.workers;
        written = def;
      }
      options.onResolved?.({
        target: name,
        provider: "mock",
        ...(targetsPath !== undefined ? { targets_file: targetsPath } : {}),
        ...(workers !== undefined ? { workers } : {}),
        judge_target: "dry-run-judge",
        ...(written ? { settings: redactValue(written, [...secrets]) } : {}),
      });
      return {
        target: createDryRunTarget(name, workers !== undefined ? { workers } : {}),
        targetName: name,
        capKey: `${targetsPath ?? ""}\0${name}`,
        ...(workers !== undefined ? { workers } : {}),
      };
    }
    const resolved = await resolveNamed(set, name, targetsPath);
    const budgeted = options.budget ? budgetedTarget(resolved, options.budget) : resolved;
    const target = options.cache
      ? options.cache.wrap(budgeted, { role: "target", root: set.root })
      : budgeted;
    const judgeName = options.judgeTarget ?? target.judgeTarget;
    // Model and endpoint as written (a `${{ VAR }}` stays a reference), for the run record.
    const written = targetsPath === undefined
      ? undefined
      : (await readTargetsFile(targetsPath, set)).targets.find((t) => t.name === name);
    const model = firstString(written, ["model", "deployment"]);
    const endpoint = firstString(written, ["endpoint", "base_url", "url"]);
    options.onResolved?.({
      target: name,
      provider: target.provider,
      ...(targetsPath !== undefined ? { targets_file: targetsPath } : {}),
      ...(target.workers !== undefined ? { workers: target.workers } : {}),
      ...(judgeName !== undefined ? { judge_target: judgeName } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(endpoint !== undefined ? { endpoint } : {}),
      ...((targetWarnings.get(resolved)?.length ?? 0) > 0
        ? { warnings: targetWarnings.get(resolved) }
        : {}),
      ...(written ? { settings: redactValue(written, [...secrets]) } : {}),
    });
    return {
      target,
      targetName: name,
      capKey: `${targetsPath ?? ""}\0${name}`,
      ...(target.workers !== undefined ? { workers: target.workers } : {}),
      ...(target.healthcheck
        ? {
          // The target runs its healthcheck once and remembers the outcome.
          healthcheck: () => target.healthcheck!(options.signal, { evalDir: set.evalDir }),
        }
        : {}),
    };
  }

  async function bindJudge(set: EvalFileRef, judgeName: string): Promise<JudgeClient> {
    const targetsPath = await findTargetsPath(set);
    const resolved = await resolveNamed(set, judgeName, targetsPath);
    const budgeted = options.budget
      ? budgetedTarget(resolved, options.budget, { role: "judge" })
      : resolved;
    const judgeTarget = options.cache
      ? options.cache.wrap(budgeted, { role: "judge", root: set.root })
      : budgeted;
    return createJudgeClient(judgeTarget, {
      timeoutMs: options.timeoutMs,
      evalDir: set.evalDir,
      // Judge calls then carry the graded case and trial (cache entries and misses name them).
      ...(options.cache ? { perCase: true } : {}),
    });
  }

  // The judge of an eval file, bound once; `failAs` names what a failure blocks.
  const judgeFor = (set: EvalFileRef, judgeName: string, failAs: [string, string]) => {
    const judgeKey = `${set.file}\0${set.evalDir}\0${judgeName}`;
    let j = judges.get(judgeKey);
    if (!j) {
      j = bindJudge(set, judgeName).catch((e) => {
        throw configError(e, ...failAs);
      });
      judges.set(judgeKey, j);
    }
    return j;
  };

  // Why the judge of a case of target `name` that needs `needs` is not wired (`validate`'s
  // check), else its name. Without a targets file (a dry run needs none) nothing is checked.
  async function judgeWiring(set: EvalFileRef, name: string, needs: JudgeNeeds) {
    const targetsPath = await findTargetsPath(set);
    // (A real run has failed to bind the target then.)
    if (targetsPath === undefined) return { judge: options.judgeTarget ?? "dry-run-judge" };
    const file = await readTargetsFile(targetsPath, set);
    const facts: JudgeFacts = {
      shown: targetsPath,
      defined: new Set(file.targets.map((t) => t.name)),
      broken: new Map(
        [...file.broken].map(([n, [first]]) => [n, {
          where: first.line !== undefined ? `:${first.line}:${first.column ?? 1}` : "",
          message: first.message,
        }]),
      ),
      judges: new Map(
        file.targets.flatMap((t) =>
          typeof t.judge_target === "string" && t.judge_target.trim() !== ""
            ? [[t.name, t.judge_target] as const]
            : []
        ),
      ),
      answers: new Map(file.targets.map((t) => [t.name, judgeAnswers(t)])),
    };
    const problem = judgeProblem(facts, name, needs, options.judgeTarget);
    if (problem !== undefined) return { problem };
    return { judge: options.judgeTarget ?? facts.judges.get(name)! };
  }

  // In a dry run the judge is the mock judge, once its target is known to be usable.
  async function dryJudgeCheck(set: EvalFileRef, judgeName: string): Promise<void> {
    const targetsPath = await findTargetsPath(set);
    if (targetsPath === undefined) return;
    const file = await readTargetsFile(targetsPath, set);
    refuseBroken(file, judgeName, set);
    if (!file.targets.some((t) => t.name === judgeName)) {
      resolveTarget(file, judgeName, { env: {} });
    }
  }

  return {
    async bind(set, evalCase, name) {
      const key = `${set.file}\0${set.evalDir}\0${name}`;
      let p = bindings.get(key);
      if (!p) {
        p = bindTarget(set, name).catch((e) => {
          throw configError(e, name, `Cannot use target '${name}' for ${set.file}`);
        });
        bindings.set(key, p);
      }
      const base = options.dryRun ? await p : { ...await p, env: await envFor(set) };
      const needs = caseJudgeNeeds(evalCase);
      if (needs === 0) {
        return { ...base, ...(dryJudge ? { judge: dryJudge } : {}), noJudgeReason: "" };
      }
      // The same check as `validate`: a judge that is missing or cannot answer blocks the case
      // before anything is called, in a dry run too.
      const wiring = await judgeWiring(set, name, needs);
      if (wiring.problem !== undefined) {
        throw new TargetUnavailableError(name, wiring.problem);
      }
      const judgeName = wiring.judge!;
      const failAs: [string, string] = [
        name,
        `Cannot use judge target '${judgeName}' for target '${name}'`,
      ];
      if (dryJudge) {
        await dryJudgeCheck(set, judgeName).catch((e) => {
          throw configError(e, ...failAs);
        });
        return { ...base, judge: dryJudge, noJudgeReason: "" };
      }
      const judge = await judgeFor(set, judgeName, failAs);
      return { ...base, judge, noJudgeReason: "" };
    },
    judge: (set, name) =>
      dryJudge
        ? Promise.resolve(dryJudge)
        : judgeFor(set, name, [name, `Cannot use judge target '${name}' for ${set.file}`]),
    secrets: () => [...secrets],
    targetNeeds: () => [...needSources.values()],
  };
}

/** The first of `keys` that holds a non-empty string in a target definition. */
function firstString(
  definition: Record<string, unknown> | undefined,
  keys: readonly string[],
): string | undefined {
  for (const key of keys) {
    const value = definition?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
