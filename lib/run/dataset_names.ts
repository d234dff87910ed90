/**
 * The dataset names a run writes on its rows, and the name of the run. An eval file's cases are
 * named by its `dataset:` (or its sidecar's), else by the file's own name (`dataset.yaml` →
 * `dataset`). Within one run those names are unique: when files would share a name that is a
 * file's own name (the default; e.g. many `evals/dataset.yaml` in different folders), each such
 * file's cases are named by the file's path relative to its dataset root, without the extension
 * (`features/basic/evals/dataset`), or, when those collide too (files under different roots),
 * relative to the folder that holds all of them. A name written in the file (`dataset: support`)
 * is kept: files that declare the same dataset share it on purpose.
 *
 * @module
 */
import { basename, dirname, extname, relative, sep } from "node:path";
import type { LoadedEvalSet } from "./run_options.ts";

/** The file's own name: its basename without the extension. */
function ownName(file: string): string {
  return basename(file, extname(file));
}

/** The dataset name of a set's cases (they share it), or `undefined` without cases. */
function nameOf(set: LoadedEvalSet): string | undefined {
  return set.cases[0]?.dataset;
}

/** `path` without its extension, with `/` separators. */
function withoutExtension(path: string): string {
  return path.slice(0, path.length - extname(path).length).split(sep).join("/");
}

/**
 * The sets with unique dataset names (see the module doc); sets that keep their name are returned
 * as they are, the others with renamed copies of their cases.
 *
 * @example
 * ```ts ignore
 * const sets = uniqueDatasetNames(loaded); // two evals/dataset.yaml → "a/evals/dataset", "b/evals/dataset"
 * ```
 */
export function uniqueDatasetNames(sets: readonly LoadedEvalSet[]): LoadedEvalSet[] {
  const byName = new Map<string, LoadedEvalSet[]>();
  for (const set of sets) {
    const name = nameOf(set);
    if (name === undefined) continue;
    const group = byName.get(name);
    if (group) group.push(set);
    else byName.set(name, [set]);
  }
  const renamed = new Map<LoadedEvalSet, string>();
  for (const [name, group] of byName) {
    const files = new Set(group.map((s) => s.file));
    if (files.size < 2) continue;
    const defaulted = group.filter((s) => ownName(s.file) === name);
    if (defaulted.length === 0) continue;
    let names = defaulted.map((s) => withoutExtension(relative(s.root, s.file)));
    if (new Set(names).size < new Set(defaulted.map((s) => s.file)).size) {
      const base = commonFolder(defaulted.map((s) => s.file));
      names = defaulted.map((s) => withoutExtension(relative(base, s.file)));
    }
    defaulted.forEach((s, i) => renamed.set(s, names[i]));
  }
  if (renamed.size === 0) return [...sets];
  return sets.map((set) => {
    const dataset = renamed.get(set);
    return dataset === undefined
      ? set
      : { ...set, cases: set.cases.map((c) => ({ ...c, dataset })) };
  });
}

/** The deepest folder that holds every one of `files` (absolute paths). */
function commonFolder(files: readonly string[]): string {
  let base = dirname(files[0]);
  while (!files.every((f) => f.startsWith(base.endsWith(sep) ? base : base + sep))) {
    const parent = dirname(base);
    if (parent === base) break;
    base = parent;
  }
  return base;
}

/**
 * The name of a run, for its default results file: its dataset's name when every case has the
 * same one, else the name of the folder that holds every eval file (`evals`), else `run`.
 *
 * @example
 * ```ts ignore
 * runName(sets); // "support" (one dataset), "agentv-examples" (several under that folder)
 * ```
 */
export function runName(sets: readonly LoadedEvalSet[]): string {
  const names = new Set(sets.flatMap((s) => s.cases.map((c) => c.dataset)));
  if (names.size === 1) return [...names][0];
  const withCases = sets.filter((s) => s.cases.length > 0);
  if (withCases.length === 0) return "run";
  return basename(commonFolder(withCases.map((s) => s.file))) || "run";
}
