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
  const targets = list.filter((t): t is TargetsFile["targets"][number] =>
    t !== null && typeof t === "object" && typeof (t as { name?: unknown }).name === "string"
  );
  return {
    targets,
    path,
    ...await targetsConsentFacts(value, read.text, (p) => locate(p), resolution),
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
