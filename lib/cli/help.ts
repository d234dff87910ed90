/**
 * Help texts: the top-level `agentv --help` and each command's `--help`. Imports nothing but
 * types: `agentv --help` must not pay for `node:util` or any command.
 *
 * @module
 */
import type { Command, CommandInfo, OptionSpec } from "./command.ts";

/** The `--help` / `-h` option every command accepts (added by the dispatcher). */
export const HELP_OPTION: OptionSpec = {
  type: "boolean",
  short: "h",
  description: "Show help for this command",
};

/**
 * The text of `agentv --help`: usage, the command list with summaries, global options.
 *
 * @example
 * ```ts
 * formatMainHelp([], "0.1.0").startsWith("agentv 0.1.0"); // true
 * ```
 */
export function formatMainHelp(commands: readonly CommandInfo[], version: string): string {
  const names = commands.map((c) =>
    c.aliases?.length ? `${c.name} (${c.aliases.join(", ")})` : c.name
  );
  const width = Math.max(0, ...names.map((n) => n.length));
  const list = commands.map((c, i) => `  ${names[i].padEnd(width)}  ${c.summary}`).join("\n");
  return [
    `agentv ${version}: evaluate LLM apps and agents against YAML/JSONL eval datasets`,
    "",
    "Usage:",
    "  agentv <command> [arguments] [options]",
    "",
    "Commands:",
    list,
    "",
    "Options:",
    "  -h, --help     Show this help (or 'agentv <command> --help' for a command)",
    "      --version  Print the version",
    "",
    "Exit codes: 0 ok; 1 ran and failed or invalid files; 2 usage, config or dataset error;",
    "130 interrupted; 70 internal error in agentv (a bug: please report it with its stack trace).",
    "",
  ].join("\n");
}

/**
 * The text of `agentv <command> --help`: summary, usage, aliases and options.
 *
 * @example
 * ```ts
 * formatCommandHelp({
 *   name: "validate", summary: "Check eval files", usage: "agentv validate <path>...",
 *   options: {}, run: () => Promise.resolve(0),
 * });
 * ```
 */
export function formatCommandHelp(command: Command): string {
  const lines = [`agentv ${command.name}: ${command.summary}`, "", "Usage:", `  ${command.usage}`];
  if (command.aliases?.length) {
    lines.push("", `Aliases: ${command.aliases.map((a) => `agentv ${a}`).join(", ")}`);
  }
  lines.push("", "Options:", formatOptions(command.options), "");
  if (command.details !== undefined) lines.push(command.details.trimEnd(), "");
  return lines.join("\n");
}

/**
 * The short usage shown after a usage error.
 *
 * @example
 * ```ts
 * formatShortUsage(undefined); // "Usage: agentv <command> [options]; run 'agentv --help' ..."
 * ```
 */
export function formatShortUsage(command: Command | undefined): string {
  if (command) {
    return `Usage: ${command.usage}\nRun 'agentv ${command.name} --help' for the options.\n`;
  }
  return "Usage: agentv <command> [arguments] [options]\nRun 'agentv --help' for the commands.\n";
}

/**
 * Formats a command's options as aligned help lines (`  -h, --help  Show help`).
 *
 * @example
 * ```ts
 * formatOptions({ json: { type: "boolean", description: "Print JSON" } });
 * // "      --json  Print JSON\n  -h, --help  Show help for this command"
 * ```
 */
export function formatOptions(options: Record<string, OptionSpec>): string {
  const rows: [string, string][] = [];
  for (const [name, spec] of Object.entries({ ...options, help: HELP_OPTION })) {
    const short = spec.short ? `-${spec.short}, ` : "    ";
    const value = spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : "";
    const repeat = spec.multiple ? " (repeatable)" : "";
    rows.push([`${short}--${name}${value}`, `${spec.description}${repeat}`]);
  }
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n");
}
