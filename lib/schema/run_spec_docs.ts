/**
 * What is generated from the run options of `run_spec.ts` as text: the TypeScript types of
 * `run_spec_types.ts` (public types must be written out for JSR, so they are generated, and
 * `run_spec.ts` checks them against the schemas) and the options table of `docs/commands/run.md`.
 * Both are written by `tools/generate.ts`; `tests/project/generated_files_process_test.ts` (the
 * types) and `generated_files_test.ts` (the table) fail while one is stale.
 *
 * @module
 */
import type { z } from "zod";
import type { RunOptionDef } from "./run_option.ts";
import { RUN_OPTION_ENTRIES } from "./run_spec.ts";

/** The markers around the generated options table of docs/commands/run.md. */
export const OPTIONS_TABLE_MARKERS = {
  start: "<!-- run-options:start (generated from lib/schema/run_spec.ts by tools/generate.ts) -->",
  end: "<!-- run-options:end -->",
} as const;

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The TypeScript type of a schema's values (the kinds the run options use). */
function tsType(schema: z.ZodType): string {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
      return def.type;
    case "enum":
      return Object.values(def.entries!).map((v) => JSON.stringify(v)).join(" | ");
    case "optional":
      return tsType(def.innerType!);
    case "union":
      return def.options!.map(tsType).join(" | ");
    case "nullable":
      return `${tsType(def.innerType!)} | null`;
    case "array": {
      const element = tsType(def.element!);
      return /[ |]/.test(element) && !element.startsWith("{") ? `(${element})[]` : `${element}[]`;
    }
    case "object": {
      const fields = Object.entries(def.shape!).map(([key, field]) =>
        `${key}${defOf(field).type === "optional" ? "?" : ""}: ${tsType(field)}`
      );
      return `{ ${fields.join("; ")} }`;
    }
  }
  throw new Error(`run_spec_docs: no TypeScript type for a zod '${def.type}' (give tsType)`);
}

const flagText = (d: RunOptionDef) =>
  `${d.short ? `-${d.short}, ` : ""}--${d.flag}${d.value ? ` ${d.value}` : ""}`;

function shownDefault(d: RunOptionDef): string | undefined {
  if (d.shownDefault !== undefined) return d.shownDefault;
  return d.default === undefined || d.default === false ? undefined : String(d.default);
}

/** The JSDoc of one option's field: its help, flag and default. */
function fieldDoc(d: RunOptionDef): string {
  const shown = shownDefault(d);
  const withDefault = shown && !/\bdefault\b/.test(d.help) ? `; default ${shown}` : "";
  const text = `${d.help} (\`${flagText(d)}\`${withDefault}).`;
  return `  /** ${text.replaceAll("*/", "*\\/")} */`;
}

/**
 * The text of `run_spec_types.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSpecTypesSource } from "./run_spec_docs.ts";
 * assert.ok(runSpecTypesSource().includes("export interface RunSpec {"));
 * ```
 */
export function runSpecTypesSource(): string {
  const fields = (scope: string) =>
    RUN_OPTION_ENTRIES.filter(([, d]) => (d.scope ?? "run") === scope).flatMap(([name, d]) => [
      fieldDoc(d),
      `  ${name}?: ${d.tsType ?? tsType(d.schema)};`,
    ]);
  const recorded = RUN_OPTION_ENTRIES.flatMap(([, d]) => {
    if (!d.record) return [];
    const optional = defOf(d.record.schema).type === "optional";
    return [
      `  /** \`--${d.flag}\`${optional ? "; absent in older records" : ""}. */`,
      `  ${d.record.key}${optional ? "?" : ""}: ${tsType(d.record.schema)};`,
    ];
  });
  return [
    "// Generated from lib/schema/run_spec.ts by tools/generate.ts: do not edit.",
    "/**",
    " * The types of the run options declared in `run_spec.ts` (which checks them against its",
    " * schemas; `tests/project/generated_files_process_test.ts` fails while this file is stale).",
    " *",
    " * @module",
    " */",
    'import type { TrialsGate } from "./trials.ts";',
    "",
    "/**",
    " * The options of a run: `runEval`'s argument and the `agentv run` flags that steer the run.",
    " * Each may be left out: the one precedence rule (`settleRunSpec`) gives it its value.",
    " */",
    "export interface RunSpec {",
    ...fields("run"),
    "}",
    "",
    "/** Every option of `agentv run`: {@link RunSpec} and those only the command reads. */",
    "export interface RunCommandValues extends RunSpec {",
    ...fields("command"),
    "}",
    "",
    "/** The run record's `options`: the recorded options (no secrets, no environment). */",
    "export interface RunOptionsRecord {",
    ...recorded,
    "}",
    "",
  ].join("\n");
}

/** What a resumed run or a rerun does with an option. */
function onResume(d: RunOptionDef): string {
  if (!d.record) return "";
  if (d.effect !== "results") return "taken; may change";
  return d.rerunMayNarrow
    ? "taken; refused if changed (a rerun may narrow it)"
    : "taken; refused if changed";
}

/**
 * The options table of docs/commands/run.md (between {@link OPTIONS_TABLE_MARKERS}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runOptionsTable } from "./run_spec_docs.ts";
 * assert.ok(runOptionsTable().includes("`--workers N`"));
 * ```
 */
export function runOptionsTable(): string {
  // `<results>` would be an HTML tag to a Markdown renderer; `|` would end the cell.
  const cell = (text: string) => text.replace(/[|<>]/g, (c) => `\\${c}`);
  const rows = RUN_OPTION_ENTRIES.map(([name, d]) => {
    const shown = shownDefault(d) === undefined ? "" : `\`${shownDefault(d)}\``;
    const otherwise = d.config ? `${cell(d.config.docs)}${shown ? `; else ${shown}` : ""}` : shown;
    return [
      `\`${flagText(d)}\``,
      cell(d.help),
      d.scope !== "command" ? `\`${name}\`` : "CLI only",
      otherwise,
      onResume(d),
      d.record ? `\`${d.record.key}\`` : "",
    ];
  });
  const head = [
    "option",
    "what it does",
    "`runEval`",
    "when not given",
    "resume, rerun",
    "run record",
  ];
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}
