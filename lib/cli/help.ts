/**
 * Help texts: the top-level `agentv --help` and each command's `--help`.
 *
 * @module
 */
import { formatOptions } from "./args.ts";
import type { Command } from "./command.ts";

/**
 * The text of `agentv --help`: usage, the command list with summaries, global options.
 *
 * @example
 * ```ts
 * formatMainHelp([], "0.1.0").startsWith("agentv 0.1.0"); // true
 * ```
 */
export function formatMainHelp(commands: readonly Command[], version: string): string {
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
    "130 interrupted.",
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
