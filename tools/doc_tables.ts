/**
 * The tables of the docs that are generated from the code, each between two HTML comments in a
 * Markdown file, so they cannot drift: `tools/generate.ts` writes them and
 * `tests/project/generated_files_test.ts` fails while one is stale.
 *
 * - the options of `agentv run` (from `lib/schema/run_spec.ts`), in `docs/commands/run.md`;
 * - the exit codes (from `lib/errors/agentv_error.ts`), in `docs/commands/README.md`;
 * - the commands (from the CLI's registry, `lib/cli/commands.ts`), in `README.md` and
 *   `docs/commands/README.md`, each linking to its page.
 *
 * @module
 */
import { COMMANDS } from "../lib/cli/commands.ts";
import { EXIT_CODES } from "../lib/errors/agentv_error.ts";
import { OPTIONS_TABLE_MARKERS, runOptionsTable } from "../lib/schema/run_spec_docs.ts";

/** One generated table: where it goes and what it holds. */
export interface GeneratedTable {
  /** The Markdown file, relative to the project root. */
  file: string;
  /** The comments around the table. */
  markers: { start: string; end: string };
  /** The table as generated (before `deno fmt` pads its columns). */
  text(): string;
}

/** The markers around the exit codes table. */
export const EXIT_CODES_MARKERS = {
  start:
    "<!-- exit-codes:start (generated from lib/errors/agentv_error.ts by tools/generate.ts) -->",
  end: "<!-- exit-codes:end -->",
} as const;

/** The markers around the commands table. */
export const COMMANDS_MARKERS = {
  start: "<!-- commands:start (generated from lib/cli/commands.ts by tools/generate.ts) -->",
  end: "<!-- commands:end -->",
} as const;

/** The page of `docs/commands/` that documents each command (several share `view.md`). */
export const COMMAND_PAGES: Readonly<Record<string, string>> = {
  "run": "run.md",
  "validate": "validate.md",
  "compare": "compare.md",
  "calibrate": "calibrate.md",
  "report": "report.md",
  "merge": "merge.md",
  "view": "view.md",
  "trend": "view.md",
  "push": "view.md",
  "label import": "view.md",
  "init": "init.md",
  "trust": "trust.md",
  "generate rubrics": "generate.md",
};

/** The exit codes table: one row per exit code, in the order the code lists them. */
export function exitCodesTable(): string {
  return [
    "| code | meaning |",
    "| --- | --- |",
    ...EXIT_CODES.map((e) => `| ${e.code} | ${e.meaning} |`),
  ].join("\n");
}

/**
 * The commands table: every command of the registry with its aliases, its summary and a link to
 * its page (`base` is the path from the Markdown file to `docs/commands/`).
 */
export function commandsTable(base: string): string {
  return [
    "| command | what it does |",
    "| --- | --- |",
    ...COMMANDS.map((c) => {
      const page = COMMAND_PAGES[c.name];
      if (page === undefined) throw new Error(`No docs page for the command '${c.name}'`);
      const aliases = (c.aliases ?? []).map((a) => ` (\`${a}\`)`).join("");
      return `| [\`agentv ${c.name}\`](${base}${page})${aliases} | ${c.summary} |`;
    }),
  ].join("\n");
}

/** Every generated table of the docs. */
export const GENERATED_TABLES: readonly GeneratedTable[] = [
  { file: "docs/commands/run.md", markers: OPTIONS_TABLE_MARKERS, text: runOptionsTable },
  { file: "docs/commands/README.md", markers: EXIT_CODES_MARKERS, text: exitCodesTable },
  { file: "docs/commands/README.md", markers: COMMANDS_MARKERS, text: () => commandsTable("") },
  { file: "README.md", markers: COMMANDS_MARKERS, text: () => commandsTable("docs/commands/") },
];

/** `markdown` with the table between `markers` replaced by `table`; throws without the markers. */
export function replaceTable(
  markdown: string,
  markers: { start: string; end: string },
  table: string,
): string {
  const start = markdown.indexOf(markers.start);
  const end = markdown.indexOf(markers.end);
  if (start === -1 || end < start) throw new Error(`No markers ${markers.start} … ${markers.end}`);
  return markdown.slice(0, start + markers.start.length) + "\n\n" + table + "\n\n" +
    markdown.slice(end);
}
