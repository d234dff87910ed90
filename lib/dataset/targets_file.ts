/**
 * Loading and validating targets files (`.agentv/targets.yaml`, `.yml` or `.jsonc`), with
 * `file:line:col` diagnostics; finding them, and reading them unchecked, is
 * `targets_discovery.ts` (re-exported here).
 *
 * @module
 */
import { ConfinedReadError, readConfinedText } from "../fs/read_confined.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { TargetsFile, TargetsIssue } from "../schema/targets.ts";
import { type ExtendsResolution, resolveExtends } from "./target_extends.ts";
import { parseJsoncOrYamlSource } from "./jsonc_document.ts";
import { checkTargetsFile } from "./targets_check.ts";
import { TargetsFileError } from "./targets_errors.ts";
import {
  namedDefinitions,
  type SourcePosition,
  targetsConsentFacts as consentFacts,
  type TargetsDefinitionsFacts,
  type TargetsFileReadOptions,
} from "./targets_discovery.ts";

export {
  discoverTargetsFile,
  readTargetDefinitions,
  type SourcePosition,
  type TargetDefinitions,
  TARGETS_FILE_NAMES,
  type TargetsDefinitionsFacts,
  type TargetsFileReadOptions,
} from "./targets_discovery.ts";

/**
 * A loaded targets file: its targets, where it is (and where each setting is), the hash of its
 * text, and its warnings.
 */
export type LoadedTargetsFile = TargetsFile & TargetsDefinitionsFacts & {
  /** Warnings found while validating (errors make loading fail). */
  diagnostics: Diagnostic[];
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
  const { value, diagnostics, refused, text, locate, resolution } = await readAndCheck(
    path,
    options,
  );
  if (refused) throw new ConfinedReadError(refused);
  if (value === undefined || diagnostics.some((d) => d.severity === "error")) {
    throw new TargetsFileError(path, diagnostics);
  }
  return {
    ...(value as TargetsFile),
    path,
    diagnostics,
    ...await consentFacts(value, text, locate, resolution),
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
  /**
   * Every named definition as written (after `extends:`), usable or not: what the consent
   * listing reads (`readTargetDefinitions` gives the same list).
   */
  written: TargetsFile["targets"];
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
  const { value, diagnostics, refused, text, locate, resolution } = await readAndCheck(
    path,
    options,
  );
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
    written: namedDefinitions(list),
    ...await consentFacts(value, text, locate, resolution),
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
  resolution?: ExtendsResolution;
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
  // `extends:` is applied first: the checks see each target as a run would use it.
  const resolution = resolveExtends(source.value);
  const issues = [
    ...resolution.issues,
    ...placeInherited(checkTargetsFile(resolution.value), resolution),
  ];
  for (const issue of issues) {
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
    value: resolution.value,
    diagnostics,
    text: read.text,
    locate: (path) => source.locate(path),
    resolution,
  };
}

/**
 * The checks' issues placed where the user can fix them: a problem of a setting a target inherits
 * (`extends:`) is shown at the child's `extends:` ("inherited from 'base'") when it is an error
 * (the child cannot be used), and left out when it is a warning its parent has too; the other
 * problems of a target whose `extends:` cannot be resolved are not shown (its `extends:` is).
 */
function placeInherited(
  issues: readonly TargetsIssue[],
  resolution: ExtendsResolution,
): TargetsIssue[] {
  const key = (i: TargetsIssue) => `${i.severity}\0${i.path.slice(2).join(".")}`;
  const own = new Map<number, Set<string>>();
  for (const issue of issues) {
    const [, index] = issue.path;
    if (typeof index === "number") own.set(index, (own.get(index) ?? new Set()).add(key(issue)));
  }
  return issues.flatMap((issue): TargetsIssue[] => {
    const [head, index, setting] = issue.path;
    if (head !== "targets" || typeof index !== "number") return [issue];
    if (resolution.unresolved.has(index)) return [];
    if (typeof setting !== "string") return [issue];
    const from = resolution.origin(index, setting);
    if (from === index) return [issue];
    if (issue.severity === "warning" && own.get(from)?.has(key(issue))) return [];
    const parent = resolution.parentOf(index)!;
    return [{
      severity: issue.severity,
      path: ["targets", index, "extends"],
      message: `inherited from '${parent.name}': ${issue.message}`,
    }];
  });
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
