/**
 * `extends:` in a targets file: a target takes every setting of another target of the same file
 * and overrides the ones it gives, so a sweep of models or settings is a few lines:
 *
 * ```yaml
 * targets:
 *   - name: gpt-4o
 *     provider: openai
 *     model: gpt-4o
 *     api_key: ${{ OPENAI_API_KEY }}
 *   - name: gpt-4o-hot
 *     extends: gpt-4o
 *     temperature: 1.2
 * ```
 *
 * A setting the child gives replaces the parent's whole value (a list or a mapping is not merged);
 * `name` is the child's own; a parent may itself extend another. {@link resolveExtends} returns
 * the file with every `extends:` applied (what the checks, the registry and the consent listing
 * read), where each resolved setting was written (so a diagnostic or a consent listing points at
 * the parent's line for an inherited `command_template`), and the problems: a parent that is not a
 * target of the file ("did you mean"), a cycle, a value that is not a name.
 *
 * @module
 */
import type { TargetsIssue } from "../schema/targets.ts";
import { suggest } from "../text/suggest.ts";

/** What {@link resolveExtends} found. */
export interface ExtendsResolution {
  /** The file's value with every `extends:` applied (the value given when none is used). */
  value: unknown;
  /**
   * The index (in `targets:`) of the definition that wrote setting `key` of target `index`: its
   * own index unless the setting is inherited.
   */
  origin(index: number, key: string): number;
  /** The parent of target `index`, when it extends one that resolved. */
  parentOf(index: number): { index: number; name: string } | undefined;
  /** Targets whose `extends:` could not be resolved (their other problems are not checked). */
  unresolved: ReadonlySet<number>;
  /** The problems of `extends:` values, at their document paths. */
  issues: TargetsIssue[];
}

type Definition = Record<string, unknown>;

const isDefinition = (t: unknown): t is Definition =>
  t !== null && typeof t === "object" && !Array.isArray(t);

/**
 * Applies the `extends:` of a targets file's value (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveExtends } from "./target_extends.ts";
 * const { value, origin, issues } = resolveExtends({
 *   targets: [
 *     { name: "base", provider: "mock", response: "hi", delay_ms: 5 },
 *     { name: "slow", extends: "base", delay_ms: 50 },
 *   ],
 * });
 * assert.deepEqual((value as { targets: unknown[] }).targets[1], {
 *   name: "slow", provider: "mock", response: "hi", delay_ms: 50,
 * });
 * assert.deepEqual([origin(1, "response"), origin(1, "delay_ms"), issues.length], [0, 1, 0]);
 * ```
 */
export function resolveExtends(value: unknown): ExtendsResolution {
  const list = isDefinition(value) && Array.isArray(value.targets) ? value.targets : undefined;
  const none: ExtendsResolution = {
    value,
    origin: (index) => index,
    parentOf: () => undefined,
    unresolved: new Set(),
    issues: [],
  };
  if (list === undefined || !list.some((t) => isDefinition(t) && "extends" in t)) return none;
  const names = new Map<string, number>();
  list.forEach((t, i) => {
    if (isDefinition(t) && typeof t.name === "string" && !names.has(t.name)) names.set(t.name, i);
  });
  const resolver = new Resolver(list, names);
  const resolved = list.map((_, i) => resolver.resolve(i));
  return {
    value: { ...value as Definition, targets: resolved },
    origin: (index, key) => resolver.origins[index]?.get(key) ?? index,
    parentOf: (index) => resolver.parents[index],
    unresolved: resolver.unresolved,
    issues: resolver.issues,
  };
}

/** Resolves the targets one by one, each parent before its children, remembering the results. */
class Resolver {
  readonly origins: (Map<string, number> | undefined)[] = [];
  readonly parents: ({ index: number; name: string } | undefined)[] = [];
  readonly unresolved = new Set<number>();
  readonly issues: TargetsIssue[] = [];
  readonly #list: readonly unknown[];
  readonly #names: ReadonlyMap<string, number>;
  readonly #done = new Map<number, unknown>();
  readonly #visiting: number[] = [];
  readonly #reported = new Set<number>();

  constructor(list: readonly unknown[], names: ReadonlyMap<string, number>) {
    this.#list = list;
    this.#names = names;
  }

  /** Target `i` with its `extends:` applied (as written, without the key, when it cannot be). */
  resolve(i: number): unknown {
    if (this.#done.has(i)) return this.#done.get(i);
    const target = this.#list[i];
    if (!isDefinition(target) || !("extends" in target)) {
      this.#done.set(i, target);
      return target;
    }
    const { extends: parentName, ...own } = target;
    const parent = this.#parent(i, parentName);
    if (parent === undefined) {
      this.unresolved.add(i);
      this.#done.set(i, own);
      return own;
    }
    this.#visiting.push(i);
    const base = this.resolve(parent);
    this.#visiting.pop();
    if (this.unresolved.has(parent) || !isDefinition(base)) {
      // A broken parent is reported at its own `extends:`; the child cannot be resolved either.
      this.#error(
        i,
        `extends '${parentName}', whose own extends cannot be resolved; fix that target first`,
      );
      this.unresolved.add(i);
      this.#done.set(i, own);
      return own;
    }
    const origins = new Map<string, number>();
    for (const key of Object.keys(base)) origins.set(key, this.origins[parent]?.get(key) ?? parent);
    for (const key of Object.keys(own)) origins.set(key, i);
    this.origins[i] = origins;
    this.parents[i] = { index: parent, name: parentName as string };
    const merged = { ...base, ...own };
    this.#done.set(i, merged);
    return merged;
  }

  /** The index of the parent target `i` names, or `undefined` after reporting why there is none. */
  #parent(i: number, name: unknown): number | undefined {
    const self = (this.#list[i] as Definition).name;
    if (typeof name !== "string" || name.trim() === "") {
      this.#error(i, "extends must name another target of this file, e.g. `extends: gpt-4o`");
      return undefined;
    }
    const parent = this.#names.get(name);
    if (parent === undefined) {
      const known = [...this.#names.keys()].filter((n) => n !== self);
      const guess = suggest(name, known);
      this.#error(
        i,
        `extends '${name}' is not a target of this file${
          guess ? `; did you mean '${guess}'?` : ""
        }; defined targets: ${known.join(", ") || "(none)"}`,
      );
      return undefined;
    }
    const loop = this.#visiting.indexOf(parent);
    if (parent === i || loop !== -1) {
      // Every target of the cycle is told, each at its own `extends:`.
      const members = [...this.#visiting.slice(loop === -1 ? this.#visiting.length : loop), i];
      const chain = [...members, parent].map((k) => String((this.#list[k] as Definition).name));
      for (const k of members) {
        this.#error(
          k,
          `extends makes a cycle (${chain.join(" → ")}); a target cannot extend itself, ` +
            "directly or through others; remove one of these extends",
        );
      }
      return undefined;
    }
    return parent;
  }

  /** An error at target `i`'s `extends:` (one per target). */
  #error(i: number, message: string): void {
    if (this.#reported.has(i)) return;
    this.#reported.add(i);
    this.issues.push({ severity: "error", path: ["targets", i, "extends"], message });
  }
}
