/**
 * The static list of agentv commands (static so `deno compile` bundles every command).
 *
 * @module
 */
import type { Command } from "./command.ts";
import { generateCommand } from "./generate.ts";
import { runCommand } from "./run.ts";
import { trustCommand } from "./trust.ts";
import { validateCommand } from "./validate.ts";

/** Every command, in the order `agentv --help` lists them. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  validateCommand,
  trustCommand,
  generateCommand,
];
