/**
 * `agentv init [DIR]`: starts an agentv project in DIR (default: the current folder, created when
 * missing): `.agentv/targets.yaml` (a mock `default` target that works at once, plus commented
 * real ones), `.agentv/config.yaml`, `.env.example`, `evals/example.yaml` and a GitHub Actions
 * workflow that runs the evals and uploads the reports. It never overwrites: when any of those
 * files exists it lists them, writes nothing and exits 2.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { INIT_RESULTS_DIR, initFiles } from "./init_templates.ts";
import { displayPath } from "../fs/display_path.ts";

/**
 * The path (relative to `dir`) that stops `rel` from being created: `rel` itself when something
 * is there (a file, folder or link), or a folder on its way that is not a folder; else undefined.
 */
async function obstacle(dir: string, rel: string): Promise<string | undefined> {
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(join(dir, prefix));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    if (i === parts.length || !info.isDirectory) return prefix;
  }
  return undefined;
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 1) {
    throw new UsageError("agentv init takes at most one folder", "e.g. agentv init my-evals");
  }
  const dir = resolve(io.cwd, args.positionals[0] ?? ".");
  const shown = displayPath(dir, io.cwd) || ".";
  try {
    if (!(await Deno.stat(dir)).isDirectory) {
      throw new UsageError(`'${shown}' is not a folder`, "name a folder: agentv init my-evals");
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotADirectory) {
      throw new UsageError(`'${shown}' is inside a file`, "name a folder: agentv init my-evals");
    }
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const files = initFiles({ version: denoJson.version });
  // Check every file before writing any, so a refusal leaves the folder as it was.
  const existing = new Set<string>();
  for (const file of files) {
    const found = await obstacle(dir, file.path);
    if (found !== undefined) existing.add(found);
  }
  if (existing.size > 0) {
    throw new UsageError(
      `Refusing to overwrite ${existing.size} existing file${
        existing.size === 1 ? "" : "s"
      } in '${shown}': ${[...existing].join(", ")}; nothing was written`,
      "move those files away, or run agentv init in another folder (agentv init DIR)",
    );
  }
  for (const file of files) {
    const path = join(dir, file.path);
    try {
      await Deno.mkdir(dirname(path), { recursive: true });
      // createNew: a file that appeared since the check is still never overwritten.
      await Deno.writeTextFile(path, file.text, { createNew: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
      throw new UsageError(
        `Cannot write '${displayPath(path, io.cwd)}': permission denied`,
        "run agentv init in a folder you can write to",
      );
    }
    io.stdout(`  created ${displayPath(path, io.cwd)}\n`);
  }
  const cd = shown === "." ? "" : `  cd ${shown}\n`;
  io.stdout(
    `\nNext steps:\n${cd}` +
      `  agentv validate evals/   check the eval files, targets and config\n` +
      `  agentv run evals/        run the example evals against the mock target (no key needed)\n` +
      `Then put a real target in .agentv/targets.yaml (copy .env.example to .env for its key),\n` +
      `write your cases in evals/, and commit: .github/workflows/agentv.yml runs them on GitHub\n` +
      `Actions and uploads the results and reports (${INIT_RESULTS_DIR}/); add your targets'\n` +
      `keys as repository secrets.\n`,
  );
  return 0;
}

/** The `init` command. */
export const initCommand: Command = {
  ...commandInfo("init"),
  usage: "agentv init [DIR]",
  options: {},
  run,
};
