/**
 * The check `agentv validate` shares with `run`: every case's target must be defined in the
 * targets file that applies to its eval file (the nearest `.agentv/targets.*` between the file
 * and the dataset root, or `--targets`), and a case graded by a judge needs that judge wired
 * (`judge_wiring.ts`). A problem is reported at the line where the case names its target (its
 * `execution.target`, else its `id`), with "did you mean" and the defined targets.
 *
 * The check has two halves: {@link loadTargetsVerdict} reads the targets file (yaml and the
 * targets schemas) and says, as plain data, which names are usable; {@link caseTargetDiagnostics}
 * applies that verdict to a file's cases and needs neither. So `validate` can read the targets
 * file in a second sandbox worker while the first one reads the cases.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import type { CaseTargets, CaseTargetUse } from "./case_targets.ts";
import { suggest } from "../text/suggest.ts";
import { ANSWERS_EVERYTHING, type JudgeNeeds } from "../schema/judge_needs.ts";
import type { PostedTargetDefinitions, TargetDefinitions } from "./targets_discovery.ts";
import type { UsableTargetsFile } from "./targets_file.ts";
import { type JudgeFacts, judgeProblem } from "./judge_wiring.ts";

/** Options of the check. */
export interface CaseTargetCheckOptions {
  /** Targets file (absolute) used for every eval file instead of the discovered one. */
  targetsFile?: string;
  /** Targets used for every case instead of its own (`--target`: one name or several). */
  targetOverride?: string | string[];
  /** Judge target for every case instead of its target's `judge_target` (`--judge-target`). */
  judgeOverride?: string;
  /** How a path is shown in messages (default: as is). */
  displayPath?: (path: string) => string;
  /** Each verdict also holds the file's definitions, as the consent listing reads them. */
  definitions?: boolean;
}

/** Where a problem of the targets file is (`:line:col`, or empty) and what it is. */
interface TargetsFileProblem {
  where: string;
  message: string;
}

/**
 * What the targets file that applies to one eval file allows, as data a worker can post: which
 * targets are defined, which are broken (and why), or why the whole file cannot be used.
 */
export interface TargetsVerdict {
  /** The targets file as shown in messages; absent: there is none, and nothing is checked. */
  shown?: string;
  /** The first error of a targets file that cannot be used at all. */
  invalid?: { where: string; message?: string };
  /** Names of the usable targets, in file order. */
  defined: string[];
  /** Targets whose definition has errors: the first one of each. */
  broken: [name: string, problem: TargetsFileProblem][];
  /** Each usable target's `judge_target`, when it sets one. */
  judges?: [name: string, judge: string][];
  /** The judge replies of usable targets that cannot give every one (`judgeAnswers`). */
  answers?: [name: string, answers: JudgeNeeds][];
  /**
   * With the `definitions` option, the file's definitions as the consent listing reads them
   * (`postDefinitions`: absent when there are too many settings to post).
   */
  definitions?: PostedTargetDefinitions;
}

/** Checks the targets of one eval file's cases; targets files are read once per checker. */
export type CaseTargetChecker = (
  evalFile: { file: string; root: string; targets: CaseTargets },
) => Promise<Diagnostic[]>;

/**
 * Creates a checker that reports every case whose target is not defined in the targets file that
 * applies (a run would record those cases as errors). No targets file is no error here: a dry run
 * needs none, and a real run says so.
 *
 * @example
 * ```ts ignore
 * import { createCaseTargetChecker } from "./check_case_targets.ts";
 * const check = createCaseTargetChecker({});
 * const diagnostics = await check({ file: "/repo/evals/a.yaml", root: "/repo", targets });
 * ```
 */
export function createCaseTargetChecker(options: CaseTargetCheckOptions = {}): CaseTargetChecker {
  const loadVerdict = createTargetsVerdictLoader(options);
  return async ({ file, root, targets }) => {
    if (targets.size === 0) return [];
    return await caseTargetDiagnostics(await loadVerdict(file, root), file, targets, options);
  };
}

/**
 * A function that gives the {@link TargetsVerdict} for an eval file (its discovered targets file,
 * or `options.targetsFile`); each targets file is read once.
 *
 * @example
 * ```ts ignore
 * const verdictOf = createTargetsVerdictLoader({});
 * const verdict = await verdictOf("/repo/evals/a.jsonl", "/repo");
 * ```
 */
export function createTargetsVerdictLoader(
  options: CaseTargetCheckOptions = {},
): (evalFile: string, root: string) => Promise<TargetsVerdict> {
  const show = options.displayPath ?? ((p: string) => p);
  const verdicts = new Map<string, Promise<TargetsVerdict>>();
  return async (evalFile, root) => {
    // The targets file's modules (yaml, the targets schemas) are imported only here.
    const { discoverTargetsFile } = await import("./targets_file.ts");
    const path = await discoverTargetsFile(evalFile, {
      root,
      ...(options.targetsFile !== undefined ? { explicit: options.targetsFile } : {}),
    });
    if (path === undefined) return { defined: [], broken: [] };
    // A discovered targets file must lie inside the dataset root; a `--targets` file is the user's.
    const within = options.targetsFile === undefined ? root : undefined;
    const key = `${path}\0${within ?? ""}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = readVerdict(path, within, show, options.definitions === true);
      verdicts.set(key, verdict);
    }
    return await verdict;
  };
}

/** Reads one targets file into a verdict. */
async function readVerdict(
  path: string,
  root: string | undefined,
  show: (path: string) => string,
  withDefinitions: boolean,
): Promise<TargetsVerdict> {
  const [{ loadUsableTargets }, { TargetsFileError }, { ConfinedReadError }, replies, discovery] =
    await Promise.all([
      import("./targets_file.ts"),
      import("./targets_errors.ts"),
      import("../fs/read_confined.ts"),
      import("./judge_answers.ts"),
      import("./targets_discovery.ts"),
    ]);
  const where = (d: { line?: number; column?: number } | undefined) =>
    d?.line !== undefined ? `:${d.line}:${d.column ?? 1}` : "";
  try {
    const loaded = await loadUsableTargets(path, root !== undefined ? { root } : {});
    const judges: [string, string][] = [];
    const answers: [string, JudgeNeeds][] = [];
    for (const t of loaded.targets) {
      if (typeof t.judge_target === "string" && t.judge_target.trim() !== "") {
        judges.push([t.name, t.judge_target]);
      }
      const can = replies.judgeAnswers(t);
      if (can !== ANSWERS_EVERYTHING) answers.push([t.name, can]);
    }
    return {
      shown: show(path),
      defined: loaded.targets.map((t) => t.name),
      broken: [...loaded.broken].map(([name, [first]]) => [
        name,
        { where: where(first), message: first.message },
      ]),
      judges,
      answers,
      ...(withDefinitions ? postedDefinitions(loaded, discovery.postDefinitions) : {}),
    };
  } catch (e) {
    const diagnostics = e instanceof TargetsFileError || e instanceof ConfinedReadError
      ? e.diagnostics
      : undefined;
    if (diagnostics === undefined) throw e;
    const first = diagnostics.find((d) => d.severity === "error");
    return {
      shown: show(path),
      invalid: { where: where(first), ...(first ? { message: first.message } : {}) },
      defined: [],
      broken: [],
    };
  }
}

/** The definitions of a loaded targets file, posted (see `postDefinitions`). */
function postedDefinitions(
  loaded: UsableTargetsFile,
  post: (file: TargetDefinitions) => PostedTargetDefinitions | undefined,
): Pick<TargetsVerdict, "definitions"> {
  const definitions = post({
    path: loaded.path,
    targets: loaded.written,
    ...(loaded.sha256 !== undefined ? { sha256: loaded.sha256 } : {}),
    ...(loaded.locateTarget ? { locateTarget: loaded.locateTarget } : {}),
  });
  return definitions ? { definitions } : {};
}

/**
 * The errors for the cases of `file` whose target the verdict does not allow, or whose judge is
 * not wired (`judgeProblem`), in file order: each such case when the targets file is usable, else
 * the first case of each target.
 *
 * @example
 * ```ts ignore
 * const diagnostics = await caseTargetDiagnostics(verdict, "/repo/evals/a.jsonl", targets, {});
 * ```
 */
export async function caseTargetDiagnostics(
  verdict: TargetsVerdict,
  file: string,
  targets: CaseTargets,
  options: CaseTargetCheckOptions = {},
): Promise<Diagnostic[]> {
  const shown = verdict.shown;
  if (shown === undefined || targets.size === 0) return [];
  const override = options.targetOverride === undefined
    ? undefined
    : [options.targetOverride].flat();
  const usable = new Set(verdict.defined);
  const namesOf = (target: string) => override ?? [target];
  const judgeOf = judgeChecker(verdict, options.judgeOverride);
  // Each use with the names it runs against that the verdict does not allow, or whose judge is
  // not wired.
  let found: [CaseTargetUse, string][];
  if (verdict.invalid) {
    const seen = new Set<string>();
    found = (await targets.select(() => true, { firstOfEach: true })).flatMap((u) =>
      namesOf(u.target).filter((n) => !seen.has(n) && seen.add(n)).map((
        n,
      ): [CaseTargetUse, string] => [u, n])
    );
  } else {
    const refused = (target: string, needs: JudgeNeeds) =>
      namesOf(target).filter((n) => !usable.has(n) || judgeOf(n, needs) !== undefined);
    found = (await targets.select((target, needs) => refused(target, needs).length > 0)).flatMap((
      u,
    ) => refused(u.target, u.needs).map((n): [CaseTargetUse, string] => [u, n]));
  }
  const broken = new Map(verdict.broken);
  return found.map(([use, name]): Diagnostic => ({
    severity: "error",
    file,
    ...(use.line !== undefined ? { line: use.line } : {}),
    ...(use.column !== undefined ? { column: use.column } : {}),
    ...(use.path ? { path: use.path } : {}),
    message: `Case '${use.id}': ${
      usable.has(name) && !verdict.invalid
        ? judgeOf(name, use.needs) ?? ""
        : targetMessage(verdict, name, use.ownTarget, {
          broken,
          overridden: override !== undefined,
          key: use.path.endsWith("targets") ? "execution.targets" : "execution.target",
        })
    }`,
  }));
}

/**
 * The judge problem of a case of each target and judge needs (memoised), under the verdict; the
 * function returns `undefined` when the judge is wired.
 */
function judgeChecker(
  verdict: TargetsVerdict,
  override: string | undefined,
): (target: string, needs: JudgeNeeds) => string | undefined {
  const facts: JudgeFacts = {
    shown: verdict.shown!,
    defined: new Set(verdict.defined),
    broken: new Map(verdict.broken),
    judges: new Map(verdict.judges ?? []),
    answers: new Map(verdict.answers ?? []),
  };
  const memo = new Map<string, string | undefined>();
  return (target, needs) => {
    if (needs === 0) return undefined;
    const key = `${needs}\0${target}`;
    if (!memo.has(key)) memo.set(key, judgeProblem(facts, target, needs, override));
    return memo.get(key);
  };
}

/** Why a case cannot use target `name` (which the verdict does not allow). */
function targetMessage(
  verdict: TargetsVerdict,
  name: string,
  ownTarget: boolean,
  context: {
    broken: Map<string, TargetsFileProblem>;
    overridden: boolean;
    /** The key that names the target (`execution.target`, or `execution.targets` for a list). */
    key: string;
  },
): string {
  const shown = verdict.shown!;
  if (verdict.invalid) {
    const { where, message } = verdict.invalid;
    return `target '${name}' cannot be used: the targets file ${shown}${where} is invalid${
      message !== undefined ? ` (${message})` : ""
    }; fix the targets file (the cases that use it would not run)`;
  }
  const broken = context.broken.get(name);
  if (broken) {
    return `target '${name}' cannot be used: its definition in ${shown}${broken.where} is invalid (${broken.message}); fix the target (the cases that use it would not run)`;
  }
  const names = verdict.defined;
  const guess = suggest(name, names);
  const overridden = context.overridden;
  const from = overridden
    ? " (given by --target)"
    : ownTarget
    ? ""
    : " (the file's default target)";
  const fix = overridden
    ? "pass a defined target to --target"
    : ownTarget
    ? `define it there or change the case's ${context.key}`
    : "define it there or set execution.target in the file";
  return `target '${name}'${from} is not defined in ${shown}${
    guess ? `; did you mean '${guess}'?` : ""
  }; expected one of the defined targets: ${
    names.length > 0 ? names.join(", ") : "(none)"
  }; ${fix}`;
}
