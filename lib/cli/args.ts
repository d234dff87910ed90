/**
 * Command-line argument parsing for agentv commands, on top of `node:util` `parseArgs`: strict
 * options, positionals allowed, and user mistakes turned into {@link UsageError}s with a
 * "did you mean" suggestion.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { suggest } from "../text/suggest.ts";
import type { OptionSpec, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { HELP_OPTION } from "./help.ts";

/** Options for {@link parseCommandArgs}. */
export interface ParseCommandArgsOptions {
  /** Command name used in messages (e.g. `validate`); defaults to `agentv`. */
  command?: string;
}

/**
 * Parses `argv` against a command's options. `--help` is always accepted. Unknown options,
 * missing values and values given to boolean flags throw a {@link UsageError} naming the option
 * and, when one is close, the option the user probably meant.
 *
 * @example
 * ```ts
 * const parsed = parseCommandArgs(["evals", "--json"], {
 *   json: { type: "boolean", description: "Print JSON" },
 * });
 * // parsed.positionals = ["evals"], parsed.values.json = true
 * ```
 */
export function parseCommandArgs(
  argv: string[],
  options: Record<string, OptionSpec>,
  parseOptions: ParseCommandArgsOptions = {},
): ParsedArgs {
  const specs: Record<string, OptionSpec> = { help: HELP_OPTION, ...options };
  const config: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> =
    {};
  for (const [name, spec] of Object.entries(specs)) {
    config[name] = { type: spec.type };
    if (spec.short) config[name].short = spec.short;
    if (spec.multiple) config[name].multiple = true;
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: config,
      strict: true,
      allowPositionals: true,
    });
    return { values: { ...values } as ParsedArgs["values"], positionals };
  } catch (error) {
    throw toUsageError(error, specs, parseOptions.command ?? "agentv");
  }
}

/** Turns a `parseArgs` error into a {@link UsageError} with a suggestion. */
function toUsageError(
  error: unknown,
  specs: Record<string, OptionSpec>,
  command: string,
): UsageError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'(-[^'\s]*)/.exec(message)?.[1] ?? "";
  const helpHint = `run 'agentv ${command === "agentv" ? "" : `${command} `}--help' for usage`;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = quoted || "option";
    const names = optionSpellings(specs);
    const guess = suggest(flag, names);
    const didYouMean = guess ? `; did you mean '${guess}'?` : "";
    return new UsageError(
      `Unknown option '${flag}'${didYouMean}`,
      `${helpHint}; to pass a value starting with '-', put it after '--'`,
    );
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const name = /'(?:-\w, )?--([\w-]+)/.exec(message)?.[1];
    const spec = name ? specs[name] : undefined;
    if (spec?.type === "string") {
      return new UsageError(
        `Option '--${name}' needs a value; expected --${name} ${spec.valueName ?? "VALUE"}`,
        helpHint,
      );
    }
    if (spec?.type === "boolean") {
      return new UsageError(
        `Option '--${name}' is a switch and takes no value; write --${name} alone`,
        helpHint,
      );
    }
  }
  return new UsageError(message, helpHint);
}

/** Every spelling a user may type for the options: `--name` and `-s`. */
function optionSpellings(specs: Record<string, OptionSpec>): string[] {
  const names: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    names.push(`--${name}`);
    if (spec.short) names.push(`-${spec.short}`);
  }
  return names;
}
