/**
 * `agentv init [DIR]`: starts an agentv project in DIR (default: the current folder, created when
 * missing): `.agentv/targets.yaml` (a mock `default` target that works at once, a mock judge,
 * commented real targets), `.agentv/config.yaml`, `.agentv/eval.schema.json`, `.env.example`,
 * `evals/example.yaml`, the lines of `.gitignore` that keep keys, results and the cache out of git,
 * and a GitHub Actions workflow that runs the evals and uploads the reports, at the repository
 * root (the nearest folder with `.git`, else DIR), the only place GitHub runs workflows from. It
 * never overwrites: when any of those files exists it lists them, writes nothing and exits 2.
 *
 * @module
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { INIT_GITIGNORE, INIT_RESULTS_DIR, initFiles } from "./init_templates.ts";
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

/**
 * The nearest folder at or above `dir` (which may not exist yet) holding `.git` (`git: true`),
 * else `dir`.
 */
async function repositoryRoot(dir: string): Promise<{ root: string; git: boolean }> {
  for (let at = dir;; at = dirname(at)) {
    if (await Deno.lstat(join(at, ".git")).then(() => true, () => false)) {
      return { root: at, git: true };
    }
    if (dirname(at) === at) return { root: dir, git: false };
  }
}

/** Checks the folder `init` writes into; a usage error when it is a file or inside one. */
async function checkFolder(dir: string, shown: string): Promise<void> {
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
}

/** Writes `text` to `path` (a new file, its folders created); a usage error when denied. */
async function writeNew(path: string, text: string, io: CommandIO, append = false) {
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    // createNew: a file that appeared since the check is still never overwritten.
    await Deno.writeTextFile(path, text, append ? { append: true } : { createNew: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
    throw new UsageError(
      `Cannot write '${displayPath(path, io.cwd)}': permission denied`,
      "run agentv init in a folder you can write to",
    );
  }
}

/**
 * Adds the lines of {@link INIT_GITIGNORE} that the project's `.gitignore` lacks (creating it);
 * returns what was done, for the listing.
 */
async function updateGitignore(dir: string, io: CommandIO): Promise<string | undefined> {
  const path = join(dir, ".gitignore");
  const current = await Deno.readTextFile(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  const have = new Set((current ?? "").split(/\r?\n/).map((l) => l.trim()));
  const missing = INIT_GITIGNORE.filter((line) => !have.has(line));
  if (missing.length === 0) return undefined;
  const block = (current === undefined || current === "" || current.endsWith("\n") ? "" : "\n") +
    `# agentv: keys, results and the response cache stay out of git\n${missing.join("\n")}\n`;
  await writeNew(path, block, io, current !== undefined);
  return `${current === undefined ? "created" : "updated"} ${displayPath(path, io.cwd)}`;
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length > 1) {
    throw new UsageError("agentv init takes at most one folder", "e.g. agentv init my-evals");
  }
  const dir = resolve(io.cwd, args.positionals[0] ?? ".");
  const shown = displayPath(dir, io.cwd) || ".";
  await checkFolder(dir, shown);
  // GitHub runs workflows only from the repository root: the workflow goes there.
  const { root: repo, git } = await repositoryRoot(dir);
  const projectDir = relative(repo, dir).split(sep).join("/");
  const files = initFiles({ version: denoJson.version, projectDir });
  // Check every file before writing any, so a refusal leaves the folder as it was.
  const existing = new Set<string>();
  for (const file of files) {
    const found = await obstacle(repo, file.path);
    if (found !== undefined) existing.add(displayPath(join(repo, found), dir));
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
    const path = join(repo, file.path);
    await writeNew(path, file.text, io);
    io.stdout(`  created ${displayPath(path, io.cwd)}\n`);
  }
  const ignored = await updateGitignore(dir, io);
  if (ignored !== undefined) io.stdout(`  ${ignored} (${INIT_GITIGNORE.join(", ")})\n`);
  io.stdout(nextSteps({ shown, repo, git, projectDir, cwd: io.cwd }));
  return 0;
}

/** The next steps, and where the workflow went and why. */
function nextSteps(
  at: { shown: string; repo: string; git: boolean; projectDir: string; cwd: string },
): string {
  const cd = at.shown === "." ? "" : `  cd ${at.shown}\n`;
  const workflow = displayPath(join(at.repo, ".github/workflows/agentv.yml"), at.cwd);
  const uploads = `uploads the results and reports\n(${INIT_RESULTS_DIR}/)`;
  const actions = at.projectDir !== ""
    ? `GitHub Actions: ${workflow} is at the repository root (${
      displayPath(at.repo, at.cwd) || "."
    }), where GitHub\nruns workflows; it runs the evals in ${at.projectDir}/ and ${uploads}.\n`
    : at.git
    ? `GitHub Actions: ${workflow} (at the repository root, where GitHub runs\nworkflows) runs the evals and ${uploads}.\n`
    : `GitHub Actions: ${workflow} runs the evals and ${uploads} once this folder is a repository's root (no .git at or above it).\n`;
  return `\nNext steps:\n${cd}` +
    `  agentv validate          check the eval files, targets and config\n` +
    `  agentv run               run the example evals against the mock target (no key needed)\n` +
    `Then put a real target in .agentv/targets.yaml (copy .env.example to .env for its key),\n` +
    `write your cases in evals/, and commit.\n${actions}` +
    `Add your targets' keys as repository secrets.\n`;
}

/** The `init` command. */
export const initCommand: Command = {
  ...commandInfo("init"),
  usage: "agentv init [DIR]",
  options: {},
  run,
};
