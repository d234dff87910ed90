/**
 * `agentv trust [DIR]`: consents to what the dataset root of `DIR` asks for (see
 * `root_consent.ts`): the commands it defines (script code judges and code aggregators, `cli`
 * targets, command healthchecks and agent targets in targets files inside the root) and the
 * `${{ VAR }}` values its targets send to a host other than their provider's default. It lists
 * each at `file:line:col`, then records the root in the user's trust store (`trust_store.ts`) with
 * the SHA-256 of every file consent covers and a hash of every need. `agentv run` then goes ahead
 * until a file changes or a need is added. `--include GLOB` adds the files it matches (what a
 * script imports or sources) to what is hashed; `--list` shows the listing of the root and the
 * trusted roots; `--revoke` forgets the root.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import type { RunPermission, UntrustedDatasetError } from "../run/run_permission.ts";
import { TARGETS_FILE_NAMES } from "../dataset/targets_file.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import {
  consentNeeds,
  consentSection,
  consentSummary,
  renderConsent,
  rootConsent,
} from "./root_consent.ts";
import { sandboxRoot } from "../dataset/sandbox.ts";
import { hashIncluded } from "../run/trust_include.ts";
import {
  includedGaps,
  needHash,
  readTrustStore,
  retrustChanges,
  storeCheck,
  trustFilePath,
  trustGaps,
  type TrustStore,
  writeTrustStore,
} from "../run/trust_store.ts";

/**
 * A permission that allows the roots the user trusted with `agentv trust` (every file unchanged,
 * every need listed then, the `--include` files unchanged).
 */
export async function trustStorePermission(io: CommandIO): Promise<RunPermission> {
  return storeCheck(await readTrustStore(trustFilePath(io.env)));
}

/** The hint of an untrusted dataset: both ways to allow what it asks for. */
export function trustHint(error: UntrustedDatasetError, io: CommandIO): string {
  const commands = error.requests.map((r) => {
    const root = displayPath(r.root, io.cwd) || ".";
    // A targets file `agentv trust` would not find by itself is named.
    const targets = r.files.find((f) =>
      f.commands.some((c) => ["cli_target", "agent_target", "healthcheck"].includes(c.kind)) &&
      !TARGETS_FILE_NAMES.some((n) => f.file === join(r.root, ".agentv", n)) &&
      !/[/\\]\.agentv[/\\]targets\.(ya?ml|jsonc)$/.test(f.file)
    );
    return `\`agentv trust ${quoteArg(root)}${
      targets ? ` --targets ${quoteArg(displayPath(targets.file, io.cwd))}` : ""
    }\``;
  });
  return `review the list above, then either pass --allow-run to allow it this once, or run ` +
    commands.join(" and ") +
    ` to allow it until these files change (--dry-run runs nothing)`;
}

/**
 * Prints an untrusted dataset's needs, why the trust store does not cover them (a file that
 * changed, a need added since) and both fixes; resolves to exit code 2.
 */
export async function reportUntrusted(
  error: UntrustedDatasetError,
  io: CommandIO,
): Promise<number> {
  const paint = createPaint(io.color);
  const store = await readTrustStore(trustFilePath(io.env));
  const gaps: string[] = [];
  for (const r of error.requests) {
    if (store.roots[r.root] === undefined) continue;
    gaps.push(...trustGaps(store, r), ...await includedGaps(r.root, store.roots[r.root]));
  }
  const notes = gaps.map((gap) => `${paint.dim("note")}: ${gap}\n`);
  io.stderr(
    renderDiagnosticsFor(error.diagnostics, io) + "\n" +
      `${paint.red(paint.bold("error"))}: ${error.message}\n` + [...new Set(notes)].join("") +
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

function listTrustedRoots(store: TrustStore, io: CommandIO): void {
  const roots = Object.entries(store.roots);
  if (roots.length === 0) io.stdout("No trusted dataset roots\n");
  for (const [root, record] of roots) {
    const n = Object.keys(record.files).length;
    io.stdout(
      `${root}  (trusted ${record.trusted_at}, ${n} file${n === 1 ? "" : "s"}${
        (record.include ?? []).length > 0 ? `, --include ${record.include!.join(" ")}` : ""
      })\n`,
    );
  }
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const v = args.values;
  const storePath = trustFilePath(io.env);
  if (args.positionals.length > 1) {
    throw new UsageError("agentv trust takes at most one folder", "e.g. agentv trust evals/");
  }
  const targetsFile = typeof v.targets === "string" ? resolve(io.cwd, v.targets) : undefined;
  const include = (v.include as string[] | undefined) ?? [];
  if (v.list === true) {
    const store = await readTrustStore(storePath);
    listTrustedRoots(store, io);
    // The listing of a root is shown for the folder named (never a search of the whole cwd).
    if (args.positionals[0] === undefined) return 0;
    const root = await rootOf(resolve(io.cwd, args.positionals[0]));
    const consent = await rootConsent(root, {
      env: io.envAll(),
      ...(targetsFile ? { targetsFile } : {}),
    });
    const section = await consentSection(root, consent, { io, trusted: storeCheck(store) });
    io.stdout(section === "" ? `\n${root} asks consent for nothing\n` : `\n${section}`);
    return 0;
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
  return await trustRoot(root, { io, storePath, store, include, targetsFile });
}

async function trustRoot(
  root: string,
  options: {
    io: CommandIO;
    storePath: string;
    store: TrustStore;
    include: string[];
    targetsFile: string | undefined;
  },
): Promise<number> {
  const { io, store } = options;
  const consent = await rootConsent(root, {
    env: io.envAll(),
    ...(options.targetsFile ? { targetsFile: options.targetsFile } : {}),
  });
  for (const file of consent.unloaded) {
    io.stderr(
      `warning: ${
        displayPath(file, io.cwd)
      } could not be loaded; its commands are not trusted (agentv validate shows why)\n`,
    );
  }
  const needs = consentNeeds(consent);
  if (needs.length === 0) {
    io.stdout(
      `No commands found in ${root}: module code judges and targets that neither start a ` +
        `command nor send environment values to another host need no trust\n`,
    );
    return 0;
  }
  io.stdout(`Commands defined in ${root}:\n${renderConsent(consent, io)}\n`);
  // Trusted before: say what changed since, so the user knows what they agree to again.
  const previous = store.roots[root];
  if (previous !== undefined) {
    const changes = await retrustChanges(previous, consent.requests);
    io.stdout(
      changes.length === 0
        ? `Nothing changed since ${displayPath(root, io.cwd) || "."} was trusted\n`
        : `Since ${displayPath(root, io.cwd) || "."} was trusted (${previous.trusted_at}):\n` +
          changes.map((c) => `  ${c}\n`).join(""),
    );
  }
  const included = options.include.length > 0 ? await hashIncluded(root, options.include) : {};
  const files: Record<string, string> = {};
  for (const request of consent.requests) {
    for (const f of request.files) if (f.sha256 !== "") files[f.file] = f.sha256;
  }
  store.roots[root] = {
    trusted_at: new Date(io.now()).toISOString(),
    files,
    needs: [...new Set(needs.map(needHash))],
    ...(options.include.length > 0 ? { include: options.include, included } : {}),
  };
  await writeTrustStore(options.storePath, store);
  const extra = Object.keys(included).length;
  io.stdout(
    `Trusted ${displayPath(root, io.cwd) || "."}: ${consentSummary(consent)}${
      extra > 0
        ? ` (and ${extra} file${extra === 1 ? "" : "s"} --include matched: ${
          Object.keys(included).slice(0, 5).map((f) => relative(root, f)).join(", ")
        }${extra > 5 ? ", …" : ""})`
        : ""
    } may run until one of them changes (recorded in ${options.storePath}; agentv trust --revoke undoes it)\n`,
  );
  return 0;
}

/** The `trust` command. */
export const trustCommand: Command = {
  ...commandInfo("trust"),
  usage: "agentv trust [DIR] [--include GLOB]... [--targets FILE] [--list] [--revoke]",
  options: {
    include: {
      type: "string",
      multiple: true,
      valueName: "GLOB",
      description:
        "Also hash the files GLOB matches under the root (what a script imports or sources)",
    },
    targets: {
      type: "string",
      valueName: "FILE",
      description: "Targets file the runs use instead of the discovered ones (as run --targets)",
    },
    list: {
      type: "boolean",
      description: "List what the root of DIR asks consent for, and the trusted roots",
    },
    revoke: { type: "boolean", description: "Forget the dataset root of DIR" },
  },
  run,
};
