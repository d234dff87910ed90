/**
 * The commands a dataset defines, with their source positions, and a hash of each file that
 * defines them. A command is anything agentv would start as a process: a `code_judge` (or
 * `code_judge` aggregator) `script` that is not a module, a `cli` target's `command_template`,
 * an agent target's (`claude-code`, `codex`) executable with its `args`, and a command healthcheck. The trust gate (`runner/run_permission.ts`) lists these and
 * `agentv trust` records the hashes.
 *
 * @module
 */
import { basename, dirname, extname, join } from "node:path";
import type { Position } from "../source/decode.ts";
import { parseJsoncOrYamlSource } from "../source/jsonc_document.ts";
import { locateInJsonLine, parseJsonLine, splitJsonlLines } from "../source/jsonl_source.ts";
import { parseYamlSource, type PathKey } from "../source/yaml_source.ts";
import { readConfinedText } from "./read_confined.ts";

/** What kind of command a dataset defines. */
export type DatasetCommandKind = "code_judge" | "cli_target" | "agent_target" | "healthcheck";

/** Agent CLI providers (names as written, lower-cased) and the executable they run by default. */
const AGENT_EXECUTABLES: Readonly<Record<string, string>> = {
  "claude-code": "claude",
  codex: "codex",
  "codex-cli": "codex",
};

/** One command a dataset defines. */
export interface DatasetCommand {
  /** The file that defines it (absolute). */
  file: string;
  /** 1-based line of the command, when known. */
  line?: number;
  /** 1-based column of the command, when known. */
  column?: number;
  /** What runs it. */
  kind: DatasetCommandKind;
  /** The evaluator's or target's name. */
  name: string;
  /** The command as written (argv joined by spaces). */
  command: string;
}

/** A file that defines commands, with the SHA-256 of its text. */
export interface CommandFile {
  /** Absolute path. */
  file: string;
  /** Hex SHA-256 of the file's text. */
  sha256: string;
  /** The commands it defines. */
  commands: DatasetCommand[];
}

/** Largest eval file scanned for commands (the loader's own limits apply first). */
const MAX_SCAN_BYTES = 512 * 1024 * 1024;

const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];

/** Whether a code judge `script` is a module path (run in a worker, not a command). */
export function isModuleScript(script: unknown): boolean {
  const single = typeof script === "string"
    ? (/\s/.test(script.trim()) ? undefined : script.trim())
    : Array.isArray(script) && script.length === 1 && typeof script[0] === "string"
    ? script[0]
    : undefined;
  return single !== undefined && MODULE_EXTENSIONS.includes(extname(single).toLowerCase());
}

/** Hex SHA-256 of `text` (UTF-8). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function commandText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(" ") : String(value);
}

/**
 * Code judge scripts (not modules) anywhere in a parsed document: every mapping with
 * `type: code_judge` and a `script` (or an aggregator's `path`).
 */
export function findScriptCommands(
  value: unknown,
  options: { file: string; locate: (path: readonly PathKey[]) => Position | undefined },
): DatasetCommand[] {
  const out: DatasetCommand[] = [];
  const walk = (node: unknown, path: PathKey[], depth: number) => {
    if (depth > 64 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i], depth + 1));
      return;
    }
    const record = node as Record<string, unknown>;
    if (record.type === "code_judge" && record.module === undefined) {
      const key = record.script !== undefined ? "script" : record.path !== undefined ? "path" : "";
      if (key !== "" && !isModuleScript(record[key])) {
        const position = options.locate([...path, key]);
        out.push({
          file: options.file,
          ...position,
          kind: "code_judge",
          name: typeof record.name === "string" ? record.name : "code_judge",
          command: commandText(record[key]),
        });
      }
    }
    for (const [k, v] of Object.entries(record)) walk(v, [...path, k], depth + 1);
  };
  walk(value, [], 0);
  return out;
}

async function scanYaml(file: string, text: string): Promise<DatasetCommand[]> {
  if (!text.includes("code_judge")) return [];
  const parsed = await parseYamlSource(text);
  if (!parsed.ok) return [];
  const { source } = parsed;
  return findScriptCommands(source.value, { file, locate: (p) => source.locate(p) });
}

function scanJsonl(file: string, text: string): DatasetCommand[] {
  if (!text.includes("code_judge")) return [];
  const out: DatasetCommand[] = [];
  for (const { line, text: lineText } of splitJsonlLines(text)) {
    if (!lineText.includes("code_judge")) continue;
    const parsed = parseJsonLine(lineText);
    if (!parsed.ok) continue;
    out.push(...findScriptCommands(parsed.value, {
      file,
      locate: (p) => ({ line, column: locateInJsonLine(lineText, p) ?? 1 }),
    }));
  }
  return out;
}

async function readText(file: string, root: string | undefined): Promise<string | undefined> {
  const read = await readConfinedText(file, {
    label: "eval file",
    ...(root !== undefined ? { root } : {}),
    maxBytes: MAX_SCAN_BYTES,
  });
  return read.ok ? read.text : undefined;
}

/**
 * The commands an eval file defines: its own and (for JSONL) its sidecar's. Files that define
 * none are left out; files that cannot be read are left out too (the loader reports them).
 *
 * @example
 * ```ts ignore
 * const files = await scanEvalFileCommands("/repo/evals/dataset.yaml", { root: "/repo" });
 * files.flatMap((f) => f.commands).map((c) => `${c.file}:${c.line}: ${c.command}`);
 * ```
 */
export async function scanEvalFileCommands(
  file: string,
  options: { root?: string } = {},
): Promise<CommandFile[]> {
  const out: CommandFile[] = [];
  const add = async (
    path: string,
    scan: (text: string) => DatasetCommand[] | Promise<DatasetCommand[]>,
  ) => {
    const text = await readText(path, options.root);
    if (text === undefined) return;
    const commands = await scan(text);
    if (commands.length > 0) out.push({ file: path, sha256: await sha256Hex(text), commands });
  };
  if (extname(file).toLowerCase() === ".jsonl") {
    await add(file, (text) => scanJsonl(file, text));
    const sidecar = join(dirname(file), `${basename(file, extname(file))}.yaml`);
    await add(sidecar, (text) => scanYaml(sidecar, text));
  } else {
    await add(file, (text) => scanYaml(file, text));
  }
  return out;
}

/**
 * The commands a targets file defines: `command_template` of `cli` targets and of command
 * healthchecks. Resolves to `undefined` when the file defines none or cannot be read.
 */
export async function scanTargetsFileCommands(
  file: string,
  options: { root?: string } = {},
): Promise<CommandFile | undefined> {
  const read = await readConfinedText(file, {
    label: "targets file",
    ...(options.root !== undefined ? { root: options.root } : {}),
  });
  if (!read.ok) return undefined;
  const parsed = await parseJsoncOrYamlSource(file, read.text);
  if (!parsed.ok) return undefined;
  const { value, locate } = parsed.source;
  const targets = (value as { targets?: unknown } | null)?.targets;
  if (!Array.isArray(targets)) return undefined;
  const commands: DatasetCommand[] = [];
  targets.forEach((t, i) => {
    if (t === null || typeof t !== "object") return;
    const target = t as Record<string, unknown>;
    const name = typeof target.name === "string" ? target.name : `targets[${i}]`;
    if (target.provider === "cli" && typeof target.command_template === "string") {
      commands.push({
        file,
        ...locate(["targets", i, "command_template"]),
        kind: "cli_target",
        name,
        command: target.command_template,
      });
    }
    const agent = typeof target.provider === "string"
      ? AGENT_EXECUTABLES[target.provider.trim().toLowerCase()]
      : undefined;
    if (agent !== undefined) {
      // The agent runs its executable; its tools run whatever the model asks for.
      const executable = typeof target.executable === "string" ? target.executable : agent;
      const args = Array.isArray(target.args) ? target.args.map(String) : [];
      commands.push({
        file,
        ...locate([
          "targets",
          i,
          typeof target.executable === "string" ? "executable" : "provider",
        ]),
        kind: "agent_target",
        name,
        command: [executable, ...args].join(" "),
      });
    }
    const check = target.healthcheck as Record<string, unknown> | undefined;
    if (check !== null && typeof check === "object" && typeof check.command_template === "string") {
      commands.push({
        file,
        ...locate(["targets", i, "healthcheck", "command_template"]),
        kind: "healthcheck",
        name,
        command: check.command_template,
      });
    }
  });
  if (commands.length === 0) return undefined;
  return { file, sha256: await sha256Hex(read.text), commands };
}
