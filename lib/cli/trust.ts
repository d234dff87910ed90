/**
 * `agentv trust [DIR]`: lets the commands a dataset defines run (subprocess code judges, `cli`
 * targets and command healthchecks in targets files inside the root). It lists every command,
 * then records the dataset root with the SHA-256 of each file that defines one in the user's
 * trust store (see `trust_store.ts`); `agentv run` then runs them until one of those files
 * changes. `--list` shows the trusted roots, `--revoke` forgets one.
 *
 * @module
 */
import { join, resolve } from "node:path";
import {
  type CommandFile,
  scanEvalFileCommands,
  scanTargetsFileCommands,
} from "../loader/dataset_commands.ts";
import { discoverEvalFiles } from "../loader/discover.ts";
import {
  commandDiagnostic,
  type RunPermission,
  type UntrustedDatasetError,
} from "../runner/run_permission.ts";
import { discoverTargetsFile, TARGETS_FILE_NAMES } from "../targets/targets_file.ts";
import { type Command, type CommandIO, type ParsedArgs, UsageError } from "./command.ts";
import { commandInfo } from "./commands.ts";
import { createPaint, displayPath, renderDiagnostics, renderDiagnosticsFor } from "./render.ts";
import { sandboxRoot } from "./sandbox.ts";
import { isTrusted, readTrustStore, trustFilePath, writeTrustStore } from "./trust_store.ts";

/** A permission that allows the roots the user trusted with `agentv trust` (files unchanged). */
export async function trustStorePermission(io: CommandIO): Promise<RunPermission> {
  const store = await readTrustStore(trustFilePath(io.env));
  return (request) => isTrusted(store, request);
}

/** The hint of an untrusted dataset: both ways to allow its commands. */
export function trustHint(error: UntrustedDatasetError, io: CommandIO): string {
  const roots = error.requests.map((r) => displayPath(r.root, io.cwd) || ".");
  return `review the commands above, then either pass --allow-run to run them this once, or run ` +
    roots.map((r) => `\`agentv trust ${quoteArg(r)}\``).join(" and ") +
    ` to allow them until these files change (--dry-run runs nothing)`;
}

/** Prints an untrusted dataset's commands, the reason and both fixes; returns exit code 2. */
export function reportUntrusted(error: UntrustedDatasetError, io: CommandIO): number {
  const paint = createPaint(io.color);
  io.stderr(
    renderDiagnosticsFor(error.diagnostics, io) + "\n" +
      `${paint.red(paint.bold("error"))}: ${error.message}\n` +
      `${paint.dim("hint")}: ${trustHint(error, io)}\n`,
  );
  return 2;
}

function quoteArg(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'"'"'`)}'`;
}

/** The dataset root of `dir` (a folder or a file), as `agentv run` finds it. */
async function rootOf(dir: string): Promise<string> {
  let isFile = false;
  try {
    isFile = (await Deno.stat(dir)).isFile;
  } catch {
    throw new UsageError(`'${dir}' does not exist`, "name a dataset folder: agentv trust evals/");
  }
  return await sandboxRoot(isFile ? dir : join(dir, ".agentv-trust-probe"));
}

/**
 * Every file under `root` that defines commands: eval files (and sidecars) with subprocess
 * code judges, and targets files inside the root with `cli` targets or command healthchecks.
 */
export async function findRootCommands(root: string): Promise<CommandFile[]> {
  const { files } = await discoverEvalFiles([root], { cwd: root });
  const out = new Map<string, CommandFile>();
  const targetsFiles = new Set<string>(TARGETS_FILE_NAMES.map((n) => join(root, ".agentv", n)));
  for (const file of files) {
    const abs = resolve(root, file);
    for (const found of await scanEvalFileCommands(abs, { root })) out.set(found.file, found);
    const targets = await discoverTargetsFile(abs, { root }).catch(() => undefined);
    if (targets !== undefined) targetsFiles.add(resolve(targets));
  }
  for (const file of targetsFiles) {
    const found = await scanTargetsFileCommands(file, { root });
    if (found) out.set(found.file, found);
  }
  return [...out.values()].sort((a, b) => a.file.localeCompare(b.file));
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const v = args.values;
  const storePath = trustFilePath(io.env);
  if (v.list === true) {
    const store = await readTrustStore(storePath);
    const roots = Object.entries(store.roots);
    if (roots.length === 0) io.stdout("No trusted dataset roots\n");
    for (const [root, record] of roots) {
      io.stdout(
        `${root}  (trusted ${record.trusted_at}, ${Object.keys(record.files).length} file${
          Object.keys(record.files).length === 1 ? "" : "s"
        } with commands)\n`,
      );
    }
    return 0;
  }
  if (args.positionals.length > 1) {
    throw new UsageError("agentv trust takes at most one folder", "e.g. agentv trust evals/");
  }
  if (storePath === undefined) {
    throw new UsageError(
      "Cannot find your config folder: neither XDG_CONFIG_HOME nor HOME is set",
      "set HOME, or use agentv run --allow-run for one run",
    );
  }
  const root = await rootOf(resolve(io.cwd, args.positionals[0] ?? "."));
  const store = await readTrustStore(storePath);
  if (v.revoke === true) {
    if (store.roots[root] === undefined) {
      io.stdout(`${root} was not trusted\n`);
      return 0;
    }
    delete store.roots[root];
    await writeTrustStore(storePath, store);
    io.stdout(`Revoked trust in ${root}: its commands no longer run without --allow-run\n`);
    return 0;
  }
  const files = await findRootCommands(root);
  const commands = files.flatMap((f) => f.commands);
  if (commands.length === 0) {
    io.stdout(
      `No commands found in ${root}: module code judges and targets without commands need no trust\n`,
    );
    return 0;
  }
  io.stdout(
    `Commands defined in ${root}:\n` +
      renderDiagnostics(commands.map((c) => ({ ...commandDiagnostic(c), severity: "warning" })), {
        cwd: io.cwd,
        color: io.color,
      }) + "\n",
  );
  store.roots[root] = {
    trusted_at: new Date(io.now()).toISOString(),
    files: Object.fromEntries(files.map((f) => [f.file, f.sha256])),
  };
  await writeTrustStore(storePath, store);
  io.stdout(
    `Trusted ${displayPath(root, io.cwd)}: ${commands.length} command${
      commands.length === 1 ? "" : "s"
    } in ${files.length} file${files.length === 1 ? "" : "s"} may run until one of them changes ` +
      `(recorded in ${storePath}; agentv trust --revoke undoes it)\n`,
  );
  return 0;
}

/** The `trust` command. */
export const trustCommand: Command = {
  ...commandInfo("trust"),
  usage: "agentv trust [DIR] [--list] [--revoke]",
  options: {
    list: { type: "boolean", description: "List the trusted dataset roots" },
    revoke: { type: "boolean", description: "Forget the dataset root of DIR" },
  },
  run,
};
