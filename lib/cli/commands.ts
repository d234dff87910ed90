/**
 * The registry of agentv commands: what `agentv --help` lists, and where each command lives. A
 * command's module (and everything it imports: loader, runner, npm packages) is imported only
 * when that command runs, so `--version` and `--help` start as fast as Deno itself. The imports
 * are string literals, so `deno compile` still bundles every command.
 *
 * @module
 */
import type { CommandInfo, LazyCommand } from "./command.ts";
import { prestartSandbox } from "./sandbox_worker.ts";

/** Every command, in the order `agentv --help` lists them. */
export const COMMANDS: readonly LazyCommand[] = [
  {
    name: "run",
    aliases: ["eval"],
    summary: "Run eval cases against their targets, score them and write results",
    load: async () => (await import("./run.ts")).runCommand,
    prestart: (args, cwd) => prestartSandbox(args, cwd),
  },
  {
    name: "validate",
    summary: "Check eval files, targets and config without running anything",
    load: async () => (await import("./validate.ts")).validateCommand,
    prestart: (args, cwd) => prestartSandbox(args, cwd, { alsoReadFlag: "targets" }),
  },
  {
    name: "compare",
    summary:
      "Compare two results files: wins, losses, verdict flips, and whether the change is real",
    load: async () => (await import("./compare.ts")).compareCommand,
  },
  {
    name: "report",
    summary: "Render a results file as JUnit XML, Markdown, HTML or JSON",
    load: async () => (await import("./report.ts")).reportCommand,
  },
  {
    name: "merge",
    summary: "Join the results of a sharded run (agentv run --shard i/n) into one results file",
    load: async () => (await import("./merge.ts")).mergeCommand,
  },
  {
    name: "init",
    summary: "Start an agentv project: targets, config, an example eval file and a CI workflow",
    load: async () => (await import("./init.ts")).initCommand,
  },
  {
    name: "trust",
    summary: "Allow the commands a dataset defines (code judge scripts, cli targets) to run",
    load: async () => (await import("./trust.ts")).trustCommand,
  },
  {
    name: "generate rubrics",
    summary: "Write rubrics derived from each case's expected_outcome into an eval file",
    load: async () => (await import("./generate.ts")).generateCommand,
  },
];

/**
 * The registry's info of command `name` (a command module spreads it into its definition, so
 * the name and summary are written once).
 *
 * @example
 * ```ts
 * import { commandInfo } from "./commands.ts";
 * commandInfo("run").aliases; // ["eval"]
 * ```
 */
export function commandInfo(name: string): CommandInfo {
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) throw new Error(`No command '${name}' in the registry`);
  return {
    name: entry.name,
    ...(entry.aliases ? { aliases: [...entry.aliases] } : {}),
    summary: entry.summary,
  };
}
