/**
 * The registry of agentv commands: what `agentv --help` lists, and where each command lives. A
 * command's module (and everything it imports: loader, runner, npm packages) is imported only
 * when that command runs, so `--version` and `--help` start as fast as Deno itself.
 *
 * The modules are imported by computed specifiers ({@link LazyCommand.module}), on purpose: Deno
 * builds the module graph of every statically named import before the first line runs, dynamic
 * ones included, and the commands' graph (some 200 modules) cost ~20 ms on every start-up, before
 * the sandbox worker could start. The price is that `deno compile` does not find them by itself:
 * the compile tasks `--include` each one (a test checks that every module here is included), and
 * running from source needs read access to agentv's own files (`--allow-read`, as every task
 * grants).
 *
 * @module
 */
import type { Command, CommandInfo, LazyCommand } from "./command.ts";
import { prestartSandbox } from "../dataset/sandbox_worker.ts";

/**
 * The lazy part of a registry entry: `module` (beside this file) and a typed `load` that imports
 * it and picks the command. `M` is the module's type (`typeof import(...)` is types only).
 */
function lazy<M>(module: string, pick: (m: M) => Command): Pick<LazyCommand, "module" | "load"> {
  return {
    module,
    load: async () => pick(await import(new URL(module, import.meta.url).href) as M),
  };
}

/** Every command, in the order `agentv --help` lists them. */
export const COMMANDS: readonly LazyCommand[] = [
  {
    name: "run",
    aliases: ["eval"],
    summary: "Run eval cases against their targets, score them and write results",
    ...lazy("./run.ts", (m: typeof import("./run.ts")) => m.runCommand),
    prestart: (args, cwd) => prestartSandbox(args, cwd),
  },
  {
    name: "validate",
    summary: "Check eval files, targets and config without running anything",
    ...lazy("./validate.ts", (m: typeof import("./validate.ts")) => m.validateCommand),
    prestart: (args, cwd) =>
      prestartSandbox(args, cwd, { alsoReadFlag: "targets", jsonlFirst: true }),
  },
  {
    name: "compare",
    summary: "Compare targets or runs: a leaderboard, paired tests (Holm-corrected), " +
      "verdict flips, and whether a difference is real",
    ...lazy("./compare.ts", (m: typeof import("./compare.ts")) => m.compareCommand),
  },
  {
    name: "calibrate",
    summary:
      "Measure a judge against human labels and itself; save it to correct pass rates; gate CI",
    ...lazy("./calibrate.ts", (m: typeof import("./calibrate.ts")) => m.calibrateCommand),
  },
  {
    name: "report",
    summary: "Render a results file as JUnit XML, Markdown, HTML or JSON",
    ...lazy("./report.ts", (m: typeof import("./report.ts")) => m.reportCommand),
  },
  {
    name: "merge",
    summary: "Join the results of a sharded run (agentv run --shard i/n) into one results file",
    ...lazy("./merge.ts", (m: typeof import("./merge.ts")) => m.mergeCommand),
  },
  {
    name: "view",
    summary: "Browse every run in a local web app: runs, trends, case histories, labels",
    ...lazy("./view.ts", (m: typeof import("./view.ts")) => m.viewCommand),
  },
  {
    name: "trend",
    summary: "Print pass rates and scores over runs; --fail-on-degrading gates on a decline",
    ...lazy("./trend.ts", (m: typeof import("./trend.ts")) => m.trendCommand),
  },
  {
    name: "push",
    summary: "Store runs in the history store (a team's PostgreSQL store, or the local one)",
    ...lazy("./push.ts", (m: typeof import("./push.ts")) => m.pushCommand),
  },
  {
    name: "label import",
    summary: "Add labels made elsewhere (JSONL or CSV) to .agentv/labels.jsonl and the store",
    ...lazy("./label_import.ts", (m: typeof import("./label_import.ts")) => m.labelImportCommand),
  },
  {
    name: "init",
    summary: "Start an agentv project: targets, config, an example eval file and a CI workflow",
    ...lazy("./init.ts", (m: typeof import("./init.ts")) => m.initCommand),
  },
  {
    name: "trust",
    summary: "Allow what a dataset asks for: its commands, and env values sent to its hosts",
    ...lazy("./trust.ts", (m: typeof import("./trust.ts")) => m.trustCommand),
  },
  {
    name: "generate rubrics",
    summary: "Write rubrics derived from each case's expected_outcome into an eval file",
    ...lazy("./generate.ts", (m: typeof import("./generate.ts")) => m.generateCommand),
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
