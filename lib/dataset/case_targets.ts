/**
 * Which target each valid case of a validated file runs against, for the check against the
 * targets file. A YAML file's cases are few and in memory anyway: their uses are a list. A JSONL
 * file may hold 100,000 cases: its uses are kept as line numbers per target name (4 bytes a
 * case), and a use is spelt out (its id, and the column where the case names its target) only
 * when a message needs it, by reading those lines again.
 *
 * @module
 */
import type { CaseExecution } from "../schema/eval_case.ts";
import type { CaseSite } from "./case_pipeline.ts";
import type { JudgeNeeds } from "../schema/judge_needs.ts";
import { readJsonlLines } from "./jsonl_reader.ts";
import { locateInJsonLine } from "./jsonl_source.ts";
import { EvalLoadError } from "./errors.ts";

/**
 * The targets a case runs against, in order: its `execution.targets` (two or more), else its
 * `execution.target`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseTargets } from "./case_targets.ts";
 * assert.deepEqual(caseTargets({ execution: { target: "a" } }), ["a"]);
 * assert.deepEqual(caseTargets({ execution: { target: "a", targets: ["a", "b"] } }), ["a", "b"]);
 * ```
 */
export function caseTargets(evalCase: { execution: CaseExecution }): readonly string[] {
  return evalCase.execution.targets ?? [evalCase.execution.target];
}

/** A valid case's target and where the case names it (for checking it against targets files). */
export type CaseTargetUse = CaseSite & {
  /** Case id. */
  id: string;
  /** The target name the case runs against (case, file or sidecar `execution.target`). */
  target: string;
  /** What the case asks of its target's judge (`schema/judge_needs.ts`; 0: nothing). */
  needs: JudgeNeeds;
};

/** The targets a file's valid cases use. */
export interface CaseTargets {
  /** How many cases (uses). */
  readonly size: number;
  /** The distinct target names, in no particular order. */
  names(): string[];
  /**
   * The uses whose target (and judge needs) `pick` selects, in file order; with `firstOfEach`,
   * only the first use of each selected name.
   */
  select(
    pick: (target: string, needs: JudgeNeeds) => boolean,
    options?: { firstOfEach?: boolean },
  ): Promise<CaseTargetUse[]>;
}

/**
 * The uses of a file held in memory (YAML), as a list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ListedTargets } from "./case_targets.ts";
 * const uses = new ListedTargets([
 *   { id: "a", target: "default", needs: 0, path: "evalcases[0].id", ownTarget: false },
 * ]);
 * assert.deepEqual(uses.names(), ["default"]);
 * ```
 */
export class ListedTargets implements CaseTargets {
  readonly #uses: readonly CaseTargetUse[];

  /** Wraps the uses, in file order. */
  constructor(uses: readonly CaseTargetUse[]) {
    this.#uses = uses;
  }

  /** How many cases. */
  get size(): number {
    return this.#uses.length;
  }

  /** The distinct target names. */
  names(): string[] {
    return [...new Set(this.#uses.map((u) => u.target))];
  }

  /** The uses `pick` selects, in file order. */
  select(
    pick: (target: string, needs: JudgeNeeds) => boolean,
    options: { firstOfEach?: boolean } = {},
  ): Promise<CaseTargetUse[]> {
    const seen = new Set<string>();
    return Promise.resolve(this.#uses.filter((u) => {
      if (!pick(u.target, u.needs)) return false;
      if (!options.firstOfEach) return true;
      if (seen.has(u.target)) return false;
      seen.add(u.target);
      return true;
    }));
  }
}

/** A growable list of 32-bit integers. */
class IntList {
  values = new Int32Array(16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/**
 * Where a JSONL case names a target: nowhere (the sidecar's or the default), its
 * `execution.target`, or its `execution.targets` list.
 */
export type JsonlTargetSite = "none" | "target" | "targets";

const SITE_CODES: readonly JsonlTargetSite[] = ["none", "target", "targets"];
const SITE_PATHS: Record<JsonlTargetSite, string> = {
  none: "id",
  target: "execution.target",
  targets: "execution.targets",
};

/**
 * The uses of one target name in a JSONL file: `(line * 16 + needs) * 4 + site code`, in line
 * order (lines up to 2^25; the judge needs take 4 bits, the site 2).
 */
interface NameUses {
  entries: IntList;
  /** The cases' ids, in the same order, when the store keeps them. */
  ids?: string[];
}

/**
 * The uses of a JSONL file's cases, as line numbers per target. A use is spelt out by reading its
 * line again, unless the ids were kept (`keepIds`) and no column is asked for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { JsonlTargets } from "./case_targets.ts";
 * const uses = new JsonlTargets("cases.jsonl", "/data/cases.jsonl");
 * uses.add("default", 1, false, 0);
 * uses.add("azure", 2, "target", 0);
 * assert.deepEqual(uses.names(), ["default", "azure"]);
 * ```
 */
export class JsonlTargets implements CaseTargets {
  readonly #file: string;
  readonly #absFile: string;
  readonly #keepIds: boolean;
  readonly #byName = new Map<string, NameUses>();
  #removed: Set<number> | undefined;
  #size = 0;

  /** A store for the file (as named, and absolute); `keepIds` keeps each case's id too. */
  constructor(file: string, absFile: string, options: { keepIds?: boolean } = {}) {
    this.#file = file;
    this.#absFile = absFile;
    this.#keepIds = options.keepIds ?? false;
  }

  /** How many cases. */
  get size(): number {
    return this.#size;
  }

  /**
   * Records that the case on `line` (lines come in increasing order) uses `target`, named at
   * `site` (`true`: its own `execution.target`; `false`: none of its own), and asks `needs` of
   * its judge.
   */
  add(
    target: string,
    line: number,
    site: JsonlTargetSite | boolean,
    needs: JudgeNeeds,
    id?: string,
  ): void {
    let uses = this.#byName.get(target);
    if (!uses) {
      uses = { entries: new IntList(), ...(this.#keepIds ? { ids: [] } : {}) };
      this.#byName.set(target, uses);
    }
    const code = SITE_CODES.indexOf(site === true ? "target" : site === false ? "none" : site);
    uses.entries.push((line * 16 + needs) * 4 + code);
    uses.ids?.push(id ?? "");
    this.#size++;
  }

  /** Forgets the case on `line` (a duplicate found once the file was read). */
  remove(line: number): void {
    (this.#removed ??= new Set()).add(line);
    this.#size--;
  }

  /** The distinct target names. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /**
   * The uses `pick` selects, in file order, with the column of each (the line is read again).
   * With `located: false` and kept ids, the lines are not read again and uses have no column.
   */
  async select(
    pick: (target: string, needs: JudgeNeeds) => boolean,
    options: { firstOfEach?: boolean; located?: boolean } = {},
  ): Promise<CaseTargetUse[]> {
    const picked: {
      line: number;
      site: JsonlTargetSite;
      target: string;
      needs: number;
      id?: string;
    }[] = [];
    for (const [target, uses] of this.#byName) {
      // `pick` depends on the target and the needs only: asked once per needs value (4 bits).
      const picks: (boolean | undefined)[] = [];
      for (let i = 0; i < uses.entries.length; i++) {
        const entry = uses.entries.values[i];
        const line = entry >> 6;
        const needs = (entry >> 2) & 15;
        const chosen = picks[needs] ??= pick(target, needs);
        if (!chosen || this.#removed?.has(line)) continue;
        picked.push({ line, site: SITE_CODES[entry & 3], target, needs, id: uses.ids?.[i] });
        if (options.firstOfEach) break;
      }
    }
    picked.sort((a, b) => a.line - b.line);
    const located = options.located ?? true;
    const texts = located || !this.#keepIds
      ? await readLines(this.#absFile, this.#file, new Set(picked.map((p) => p.line)))
      : undefined;
    return picked.map(({ line, site, target, needs, id }) => {
      const text = texts?.get(line);
      const path = SITE_PATHS[site];
      const use: CaseTargetUse = {
        line,
        path,
        ownTarget: site !== "none",
        id: id ?? idOf(text, this.#file, line),
        target,
        needs,
      };
      const column = located && text !== undefined
        ? locateInJsonLine(text, path.split("."))
        : undefined;
      return column === undefined ? use : { ...use, column };
    });
  }
}

/** The texts of the wanted lines of a JSONL file, read again through the loader's reader. */
export async function readLines(
  absFile: string,
  file: string,
  wanted: ReadonlySet<number>,
): Promise<Map<number, string>> {
  const texts = new Map<number, string>();
  if (wanted.size === 0) return texts;
  for await (const lines of readJsonlLines(absFile, file)) {
    for (const line of lines) if (wanted.has(line.line)) texts.set(line.line, line.text);
  }
  return texts;
}

/** The id of the case on a line read again; the file changed when it is no longer there. */
function idOf(text: string | undefined, file: string, line: number): string {
  let id: unknown;
  try {
    id = text === undefined ? undefined : (JSON.parse(text) as { id?: unknown }).id;
  } catch {
    id = undefined;
  }
  if (typeof id === "string") return id;
  throw EvalLoadError.from([{
    severity: "error",
    file,
    line,
    message:
      "The file changed while it was read; expected a stable eval file; run again once it is written",
  }]);
}
