/**
 * Finding, loading and validating targets files (`.agentv/targets.yaml`, `.yml` or `.jsonc`),
 * with `file:line:col` diagnostics.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { ConfinedReadError, isNonFolderEntry, readConfinedText } from "../loader/read_confined.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { TargetsFile } from "../schema/targets.ts";
import { parseJsoncOrYamlSource } from "../source/jsonc_document.ts";
import { sha256Hex } from "../loader/dataset_commands.ts";
import { checkTargetsFile } from "./check.ts";
import { TargetConfigError, TargetsFileError } from "./errors.ts";

/** A 1-based line and column in a targets file. */
type SourcePosition = { line: number; column: number };

/** File names looked for inside `.agentv/`, in order. */
export const TARGETS_FILE_NAMES: readonly string[] = [
  "targets.yaml",
  "targets.yml",
  "targets.jsonc",
];

/** A loaded targets file: its targets, where it is, and its warnings. */
export type LoadedTargetsFile = TargetsFile & {
  /** Path of the file, as given. */
  path: string;
  /** Warnings found while validating (errors make loading fail). */
  diagnostics: Diagnostic[];
  /** Hex SHA-256 of the text parsed (what consent to its commands covers). */
  sha256?: string;
  /**
   * Where a setting of the target called `name` is written (`["command_template"]`,
   * `["healthcheck", "url"]`); `undefined` when unknown.
   */
  locateTarget?(
    name: string,
    path: readonly (string | number)[],
  ): { line: number; column: number } | undefined;
};

/** Result of {@link validateTargetsFile}. */
export interface TargetsValidation {
  /** The file, as given. */
  file: string;
  /** No errors (warnings allowed). */
  valid: boolean;
  /** Errors and warnings, each with line and column when known. */
  diagnostics: Diagnostic[];
}

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
 * Loads and validates a targets file. Throws `ConfinedReadError` when it must not be read (a
 * link outside `options.root`, not a regular file, over 1 MiB, not UTF-8), and
 * {@link TargetsFileError} (with `diagnostics`) when it is missing or has errors; warnings are
 * returned on the result.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { loadTargetsFile } from "./targets_file.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = join(dir, "targets.yaml");
 * await Deno.writeTextFile(path, "targets:\n  - name: default\n    provider: mock\n    response: hi\n");
 * const file = await loadTargetsFile(path);
 * assert.deepEqual(file.targets.map((t) => t.name), ["default"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadTargetsFile(
  path: string,
  options: TargetsFileReadOptions = {},
): Promise<LoadedTargetsFile> {
  const { value, diagnostics, refused, text, locate } = await readAndCheck(path, options);
  if (refused) throw new ConfinedReadError(refused);
  if (value === undefined || diagnostics.some((d) => d.severity === "error")) {
    throw new TargetsFileError(path, diagnostics);
  }
  return {
    ...(value as TargetsFile),
    path,
    diagnostics,
    ...await consentFacts(value, text, locate),
  };
}

/**
 * Validates a targets file without throwing (for `agentv validate`).
 *
 * @example
 * ```ts
 * import { validateTargetsFile } from "./targets_file.ts";
 * const { valid, diagnostics } = await validateTargetsFile(".agentv/targets.yaml");
 * ```
 */
export async function validateTargetsFile(
  path: string,
  options: TargetsFileReadOptions = {},
): Promise<TargetsValidation> {
  const { diagnostics } = await readAndCheck(path, options);
  return { file: path, valid: !diagnostics.some((d) => d.severity === "error"), diagnostics };
}

/** A targets file whose broken definitions were set aside (see {@link loadUsableTargets}). */
export type UsableTargetsFile = LoadedTargetsFile & {
  /** Names of targets whose definition has errors, with those errors. */
  broken: Map<string, Diagnostic[]>;
};

/**
 * Loads a targets file like {@link loadTargetsFile}, except that errors inside one target's
 * definition (bad settings, a duplicate name, an undefined `judge_target`) only set that target
 * aside in `broken`, so the cases using the other targets can still run. Problems of the file as
 * a whole still throw {@link TargetsFileError}.
 *
 * @example
 * ```ts ignore
 * const file = await loadUsableTargets(".agentv/targets.yaml");
 * file.broken.get("default")?.[0].message;
 * ```
 */
export async function loadUsableTargets(
  path: string,
  options: TargetsFileReadOptions = {},
): Promise<UsableTargetsFile> {
  const { value, diagnostics, refused, text, locate } = await readAndCheck(path, options);
  if (refused) throw new ConfinedReadError(refused);
  const list = (value as { targets?: unknown } | undefined)?.targets;
  if (value === undefined || !Array.isArray(list)) throw new TargetsFileError(path, diagnostics);
  const bad = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    const index = /^targets\[(\d+)\]/.exec(d.path ?? "");
    if (!index) throw new TargetsFileError(path, diagnostics);
    const i = Number(index[1]);
    bad.set(i, [...(bad.get(i) ?? []), d]);
  }
  const broken = new Map<string, Diagnostic[]>();
  list.forEach((t, i) => {
    const name = (t as { name?: unknown } | null)?.name;
    const errors = bad.get(i);
    if (errors && typeof name === "string") {
      broken.set(name, [...(broken.get(name) ?? []), ...errors]);
    }
  });
  const targets = list.filter((t, i) => {
    const name = (t as { name?: unknown } | null)?.name;
    return !bad.has(i) && !(typeof name === "string" && broken.has(name));
  });
  return {
    ...(value as TargetsFile),
    targets: targets as TargetsFile["targets"],
    path,
    diagnostics,
    broken,
    ...await consentFacts(value, text, locate),
  };
}

/** The hash of the text parsed and where each target's settings are, for consent listings. */
async function consentFacts(
  value: unknown,
  text: string | undefined,
  locate: ((path: readonly (string | number)[]) => SourcePosition | undefined) | undefined,
): Promise<Pick<LoadedTargetsFile, "sha256" | "locateTarget">> {
  const list = (value as { targets?: unknown } | undefined)?.targets;
  const names = Array.isArray(list) ? list.map((t) => (t as { name?: unknown } | null)?.name) : [];
  return {
    ...(text !== undefined ? { sha256: await sha256Hex(text) } : {}),
    locateTarget: (name, path) => {
      const index = names.indexOf(name);
      return index === -1 || locate === undefined ? undefined : locate(["targets", index, ...path]);
    },
  };
}

async function readAndCheck(
  path: string,
  options: TargetsFileReadOptions,
): Promise<{
  value?: unknown;
  diagnostics: Diagnostic[];
  refused?: Diagnostic;
  text?: string;
  locate?: (path: readonly (string | number)[]) => SourcePosition | undefined;
}> {
  const read = await readConfinedText(path, {
    label: "targets file",
    ...(options.root !== undefined ? { root: options.root } : {}),
  });
  if (!read.ok) {
    const diagnostic = read.reason === "missing"
      ? {
        ...read.diagnostic,
        message: "Targets file not found; check the path or create .agentv/targets.yaml",
      }
      : read.diagnostic;
    return {
      diagnostics: [diagnostic],
      ...(read.reason === "refused" ? { refused: read.diagnostic } : {}),
    };
  }
  const parsed = await parseJsoncOrYamlSource(path, read.text);
  if (!parsed.ok) {
    return {
      diagnostics: parsed.errors.map((e) => ({
        severity: "error" as const,
        file: path,
        ...e.position,
        message: e.message,
      })),
    };
  }
  const { source } = parsed;
  const diagnostics: Diagnostic[] = source.warnings.map((w) => ({
    severity: "warning" as const,
    file: path,
    ...w.position,
    message: w.message,
  }));
  for (const issue of checkTargetsFile(source.value)) {
    const position = source.locate(issue.path, { key: issue.atKey });
    const location = formatLocation(issue.path);
    diagnostics.push({
      severity: issue.severity,
      file: path,
      ...position,
      ...(location ? { path: location } : {}),
      message: capitalise(issue.message),
    });
  }
  diagnostics.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return {
    value: source.value,
    diagnostics,
    text: read.text,
    locate: (path) => source.locate(path),
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

function formatLocation(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/** How provider names are written at the start of a message. */
const PROVIDER_NAMES: Record<string, string> = {
  openai: "OpenAI",
  azure: "Azure",
  anthropic: "Anthropic",
  gemini: "Gemini",
  cli: "CLI",
  mock: "Mock",
};

/** Capital first letter, unless the message starts with a setting name (`max_retries ...`). */
function capitalise(text: string): string {
  const first = text.split(" ", 1)[0];
  if (/[_$.{]/.test(first)) return text;
  const brand = PROVIDER_NAMES[first];
  if (brand !== undefined) return brand + text.slice(first.length);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
