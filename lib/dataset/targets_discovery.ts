/**
 * Finding targets files (`.agentv/targets.yaml`, `.yml` or `.jsonc`) and reading their target
 * definitions without checking them: what `agentv trust` and `validate` need to list what a root
 * asks consent for, without loading the settings schemas (`targets_file.ts` checks and loads).
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { isNonFolderEntry, readConfinedText } from "../fs/read_confined.ts";
import { sha256Hex } from "./dataset_commands.ts";
import type { TargetsFile } from "../schema/targets.ts";
import { parseJsoncOrYamlSource } from "./jsonc_document.ts";
import { TargetConfigError } from "./targets_errors.ts";
import { type ExtendsResolution, resolveExtends } from "./target_extends.ts";

/** A 1-based line and column in a targets file. */
export type SourcePosition = { line: number; column: number };

/** A targets file's definitions as written, with the hash of its text and where they are. */
export type TargetsDefinitionsFacts = {
  /** Path of the file, as given. */
  path: string;
  /** Hex SHA-256 of the text parsed (what consent to its commands covers). */
  sha256?: string;
  /**
   * Where a setting of the target called `name` is written (`["command_template"]`,
   * `["healthcheck", "url"]`); `undefined` when unknown.
   */
  locateTarget?(name: string, path: readonly (string | number)[]): SourcePosition | undefined;
};

/** What {@link readTargetDefinitions} reads. */
export type TargetDefinitions = TargetsFile & TargetsDefinitionsFacts;

/** File names looked for inside `.agentv/`, in order. */
export const TARGETS_FILE_NAMES: readonly string[] = [
  "targets.yaml",
  "targets.yml",
  "targets.jsonc",
];

/**
 * Finds the targets file for an eval file: `explicit` when given (a file, or a folder holding
 * `targets.*` or `.agentv/targets.*`), else the nearest `.agentv/targets.{yaml,yml,jsonc}` from
 * the eval file's folder up to `root`. Throws {@link TargetConfigError} when `explicit` names
 * nothing usable; resolves to `undefined` when discovery finds nothing.
 *
 * @example
 * ```ts
 * import { discoverTargetsFile } from "./targets_file.ts";
 * const path = await discoverTargetsFile("evals/basic/dataset.yaml", { root: "." });
 * ```
 */
export async function discoverTargetsFile(
  evalFile: string,
  options: { root: string; explicit?: string },
): Promise<string | undefined> {
  if (options.explicit !== undefined) {
    const explicit = options.explicit;
    const info = await stat(explicit);
    // Not only regular files: the reader refuses a FIFO or device with a diagnostic.
    if (info !== undefined && !info.isDirectory) return explicit;
    if (info?.isDirectory) {
      for (const dir of [explicit, join(explicit, ".agentv")]) {
        const found = await firstFile(dir);
        if (found) return found;
      }
      throw new TargetConfigError(`No targets file in folder ${explicit}`, {
        hint: `add ${
          join(explicit, ".agentv", "targets.yaml")
        } or pass the file itself to --targets`,
      });
    }
    throw new TargetConfigError(`Targets file not found: ${explicit}`, {
      hint: "check the path given to --targets",
    });
  }
  const root = resolve(options.root);
  let dir = dirname(resolve(evalFile));
  for (;;) {
    const found = await firstFile(join(dir, ".agentv"));
    if (found) return found;
    const parent = dirname(dir);
    if (dir === root || parent === dir) return undefined;
    dir = parent;
  }
}

/** Where a targets file may be read from. */
export interface TargetsFileReadOptions {
  /**
   * The dataset root: a discovered targets file must lie inside it (links that lead outside are
   * refused). Omit it for a file the user named (`--targets`): then only the regular-file and
   * 1 MiB rules apply.
   */
  root?: string;
}

/**
 * The target definitions of a targets file, parsed but not checked (no schema is built), with the
 * hash of its text and where each setting is: what `agentv trust` and `validate` resolve to list
 * what a root asks consent for. `undefined` when the file cannot be read or parsed, or holds no
 * `targets` list (a run could not use it either).
 *
 * @example
 * ```ts ignore
 * const file = await readTargetDefinitions("/repo/.agentv/targets.yaml", { root: "/repo" });
 * ```
 */
export async function readTargetDefinitions(
  path: string,
  options: TargetsFileReadOptions = {},
): Promise<TargetDefinitions | undefined> {
  const read = await readConfinedText(path, {
    label: "targets file",
    ...(options.root !== undefined ? { root: options.root } : {}),
  });
  if (!read.ok) return undefined;
  const parsed = await parseJsoncOrYamlSource(path, read.text);
  if (!parsed.ok) return undefined;
  const { locate } = parsed.source;
  // Each target as a run uses it: an inherited command is listed, at the line that writes it.
  const resolution = resolveExtends(parsed.source.value);
  const { value } = resolution;
  const list = (value as { targets?: unknown } | null)?.targets;
  if (!Array.isArray(list)) return undefined;
  return {
    targets: namedDefinitions(list),
    path,
    ...await targetsConsentFacts(value, read.text, (p) => locate(p), resolution),
  };
}

/** The entries of a `targets` list that are definitions with a name, in file order. */
export function namedDefinitions(list: readonly unknown[]): TargetsFile["targets"] {
  return list.filter((t): t is TargetsFile["targets"][number] =>
    t !== null && typeof t === "object" && typeof (t as { name?: unknown }).name === "string"
  );
}

/**
 * {@link TargetDefinitions} as data a sandbox worker can post: where each setting is written is a
 * list instead of a function (see {@link postDefinitions}).
 */
export interface PostedTargetDefinitions {
  /** Path of the file, as given. */
  path: string;
  /** The definitions (see {@link TargetDefinitions}). */
  targets: TargetsFile["targets"];
  /** Hex SHA-256 of the text parsed. */
  sha256?: string;
  /** Where each setting of each target is: `[name, JSON of the path, line, column]`. */
  positions: [name: string, path: string, line: number, column: number][];
}

/** Settings located at most by {@link postDefinitions} (a file with more is not posted). */
const MAX_POSTED_POSITIONS = 20_000;

/**
 * The definitions as data (every setting of every target located), or `undefined` when they have
 * more settings than are worth posting (the receiver reads the file itself then).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { postDefinitions, receiveDefinitions } from "./targets_discovery.ts";
 * const posted = postDefinitions({
 *   path: "targets.yaml",
 *   targets: [{ name: "a", provider: "mock" }],
 *   locateTarget: (_name, path) => ({ line: 2, column: path.length + 1 }),
 * });
 * assert.deepEqual(receiveDefinitions(posted!).locateTarget?.("a", ["provider"]), {
 *   line: 2,
 *   column: 2,
 * });
 * ```
 */
export function postDefinitions(file: TargetDefinitions): PostedTargetDefinitions | undefined {
  const positions: PostedTargetDefinitions["positions"] = [];
  const visit = (name: string, path: (string | number)[], value: unknown): boolean => {
    const at = file.locateTarget?.(name, path);
    if (at) positions.push([name, JSON.stringify(path), at.line, at.column]);
    if (positions.length > MAX_POSTED_POSITIONS) return false;
    if (value === null || typeof value !== "object") return true;
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, child] of entries) {
      if (!visit(name, [...path, key], child)) return false;
    }
    return true;
  };
  const seen = new Set<string>();
  for (const target of file.targets) {
    // `locateTarget` places a name at its first definition.
    if (seen.has(target.name)) continue;
    seen.add(target.name);
    if (!visit(target.name, [], target)) return undefined;
  }
  return {
    path: file.path,
    targets: file.targets,
    ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
    positions,
  };
}

/** The definitions a worker posted ({@link postDefinitions}), as {@link readTargetDefinitions} gives them. */
export function receiveDefinitions(posted: PostedTargetDefinitions): TargetDefinitions {
  const at = new Map<string, SourcePosition>();
  for (const [name, path, line, column] of posted.positions) {
    at.set(`${name}\0${path}`, { line, column });
  }
  return {
    path: posted.path,
    targets: posted.targets,
    ...(posted.sha256 !== undefined ? { sha256: posted.sha256 } : {}),
    locateTarget: (name, path) => at.get(`${name}\0${JSON.stringify(path)}`),
  };
}

/**
 * The hash of the text parsed and where each target's settings are, for consent listings: a
 * setting a target inherits (`extends:`, see `resolution`) is where its parent writes it.
 */
export async function targetsConsentFacts(
  value: unknown,
  text: string | undefined,
  locate: ((path: readonly (string | number)[]) => SourcePosition | undefined) | undefined,
  resolution?: Pick<ExtendsResolution, "origin">,
): Promise<Pick<TargetDefinitions, "sha256" | "locateTarget">> {
  const list = (value as { targets?: unknown } | undefined)?.targets;
  const names = Array.isArray(list) ? list.map((t) => (t as { name?: unknown } | null)?.name) : [];
  return {
    ...(text !== undefined ? { sha256: await sha256Hex(text) } : {}),
    locateTarget: (name, path) => {
      const index = names.indexOf(name);
      if (index === -1 || locate === undefined) return undefined;
      const [key] = path;
      const from = typeof key === "string" && resolution ? resolution.origin(index, key) : index;
      return locate(["targets", from, ...path]);
    },
  };
}

/**
 * The first `targets.*` entry in `dir` that is not a folder. A symlink, FIFO or device is
 * returned too, so that the reader refuses it with a diagnostic instead of skipping it silently.
 */
async function firstFile(dir: string): Promise<string | undefined> {
  for (const name of TARGETS_FILE_NAMES) {
    const candidate = join(dir, name);
    if (await isNonFolderEntry(candidate)) return candidate;
  }
  return undefined;
}

async function stat(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw error;
  }
}
