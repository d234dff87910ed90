/**
 * The one reader of config-like files (`.env`, `.agentv/targets.*`, `.agentv/config.yaml`). They
 * are read by the main process, outside the sandbox worker, so this reader applies the sandbox's
 * rules itself: a link (the file or any folder on its path) that leads outside the dataset root is
 * refused (both sides compared after `realpath`), only regular files are opened (a FIFO, device or
 * socket is refused before it is opened, so nothing blocks), at most `maxBytes + 1` bytes are read
 * (a link to `/dev/zero` cannot eat memory) and the bytes must be UTF-8 text. A refusal is a
 * {@link Diagnostic} on the file, without a line: nothing of a refused file is ever echoed.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Diagnostic } from "../schema/eval_case.ts";
import { decodeText } from "./decode.ts";
import { isInside } from "./resolve.ts";
import { AgentvError } from "../errors/agentv_error.ts";

/** The size cap of config-like files: 1 MiB. */
export const CONFIG_FILE_MAX_BYTES: number = 1024 * 1024;

/** Options of {@link readConfinedText}. */
export interface ConfinedReadOptions {
  /** What the file is, for messages, e.g. `targets file`, `config file`, `.env file`. */
  label: string;
  /**
   * The dataset root: the file's real path (every symlink resolved) must lie inside the root's
   * real path. Omit it for a file the user named explicitly (`--targets`): it is then only held
   * to the regular-file and size rules.
   */
  root?: string;
  /** Largest size accepted, in bytes (default {@link CONFIG_FILE_MAX_BYTES}). */
  maxBytes?: number;
}

/** Why a config-like file was not read. */
export interface ConfinedRefusal {
  /** Always false. */
  ok: false;
  /**
   * `missing`: nothing at the path; `directory`: a folder; `refused`: the file must not be read
   * (see `diagnostic`); `invalid`: it was read but is not UTF-8 text.
   */
  reason: "missing" | "directory" | "refused" | "invalid";
  /** The problem, on the file (no line unless `invalid`: a refused file is never shown). */
  diagnostic: Diagnostic;
}

/** The answer of {@link readConfinedText}. */
export type ConfinedText = { ok: true; text: string } | ConfinedRefusal;

/**
 * Checks a config-like file without opening it: the link, root, file-type and size rules of
 * {@link readConfinedText}. Lets a caller report a refusal where the file is not read (e.g.
 * `validate` before handing the file to the sandbox worker).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.mkdir(`${repo}/.agentv`);
 * await Deno.writeTextFile(`${repo}/.agentv/config.yaml`, "guideline_patterns: []\n");
 * const checked = await checkConfinedFile(`${repo}/.agentv/config.yaml`, {
 *   label: "config file",
 *   root: repo,
 * });
 * assert.equal(checked.ok, true);
 * // A folder where the file should be is not read.
 * const folder = await checkConfinedFile(`${repo}/.agentv`, { label: "config file", root: repo });
 * assert.equal(folder.ok ? "read" : folder.reason, "directory");
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function checkConfinedFile(
  path: string,
  options: ConfinedReadOptions,
): Promise<{ ok: true; info: Deno.FileInfo } | ConfinedRefusal> {
  const { label } = options;
  const maxBytes = options.maxBytes ?? CONFIG_FILE_MAX_BYTES;
  const fail = (reason: ConfinedRefusal["reason"], message: string): ConfinedRefusal => ({
    ok: false,
    reason,
    diagnostic: { severity: "error", file: path, message },
  });
  const refuse = (message: string) => fail("refused", message);
  const inaccessible = (error: unknown) =>
    refuse(
      `The ${label} cannot be accessed (${
        errorText(error)
      }); expected a readable file; check the path and its permissions`,
    );

  let link: Deno.FileInfo;
  try {
    link = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return fail("missing", `The ${label} does not exist`);
    }
    return inaccessible(error);
  }
  if (options.root !== undefined) {
    const root = resolve(options.root);
    const real = await realPathOf(path);
    if (real === undefined) {
      return refuse(
        `The ${label} is a symbolic link whose target does not exist or cannot be resolved; expected a regular file inside the dataset root '${root}'; replace the link with the file itself`,
      );
    }
    const realRoot = (await realPathOf(root)) ?? root;
    if (!isInside(real, realRoot)) {
      const how = link.isSymlink
        ? `is a symbolic link to '${real}'`
        : real === resolve(path)
        ? `is '${real}'`
        : `lies in a linked folder: its real path is '${real}'`;
      return refuse(
        `Refused to read the ${label}: it ${how}, outside the dataset root '${root}'; expected a regular file inside the root; copy the file into the root, or pass --root with a folder that contains '${real}'`,
      );
    }
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return refuse(
        `The ${label} is a symbolic link whose target does not exist; expected a regular file; replace the link with the file itself`,
      );
    }
    return inaccessible(error);
  }
  if (info.isDirectory) {
    return fail(
      "directory",
      `Expected a ${label} but found a folder; expected a regular file; name the file itself`,
    );
  }
  if (!info.isFile) {
    return refuse(
      `Refused to read the ${label}: it is ${
        describeKind(info)
      }; expected a regular file; replace it with a regular file`,
    );
  }
  if (info.size > maxBytes) return refuse(tooLarge(label, info.size, maxBytes));
  return { ok: true, info };
}

/**
 * Reads a config-like file as UTF-8 text under the sandbox's rules (see the module doc). Never
 * throws for a problem with the file; it comes back as a diagnostic.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = await Deno.realPath(await Deno.makeTempDir());
 * const outside = await Deno.makeTempFile();
 * await Deno.mkdir(`${repo}/.agentv`);
 * await Deno.symlink(outside, `${repo}/.agentv/targets.yaml`);
 * // A link that leads out of the root is refused, never read.
 * const read = await readConfinedText(`${repo}/.agentv/targets.yaml`, {
 *   label: "targets file",
 *   root: repo,
 * });
 * assert.equal(read.ok ? "read" : read.reason, "refused");
 * await Deno.remove(repo, { recursive: true });
 * await Deno.remove(outside);
 * ```
 */
export async function readConfinedText(
  path: string,
  options: ConfinedReadOptions,
): Promise<ConfinedText> {
  const checked = await checkConfinedFile(path, options);
  if (!checked.ok) return checked;
  const { info } = checked;
  const { label } = options;
  const maxBytes = options.maxBytes ?? CONFIG_FILE_MAX_BYTES;
  const refuse = (message: string): ConfinedText => ({
    ok: false,
    reason: "refused",
    diagnostic: { severity: "error", file: path, message },
  });
  const unreadable = (error: unknown) =>
    refuse(
      `The ${label} could not be read (${
        errorText(error)
      }); expected a readable file; check its permissions`,
    );
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    return unreadable(error);
  }
  let bytes: Uint8Array;
  try {
    // The file may have been swapped since it was checked: check what was opened.
    const opened = await file.stat();
    if (
      !opened.isFile || (info.ino !== null && (opened.ino !== info.ino || opened.dev !== info.dev))
    ) {
      return refuse(
        `Refused to read the ${label}: it changed while it was being opened; expected a regular file that stays in place; run the command again`,
      );
    }
    bytes = await readAtMost(file, maxBytes + 1);
  } catch (error) {
    return unreadable(error);
  } finally {
    file.close();
  }
  if (bytes.length > maxBytes) return refuse(tooLarge(label, undefined, maxBytes));
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    return {
      ok: false,
      reason: "invalid",
      diagnostic: {
        severity: "error",
        file: path,
        ...decoded.position,
        message: `The ${label} cannot be used: ${decoded.message}`,
      },
    };
  }
  return { ok: true, text: decoded.text };
}

/**
 * Whether something other than a folder is at `path` (a symlink is followed; a broken one counts).
 * Discovery of config-like files uses it so that a symlink, FIFO or device is handed to
 * {@link readConfinedText} and refused with a diagnostic, never skipped silently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = await Deno.realPath(await Deno.makeTempDir());
 * assert.equal(await isNonFolderEntry(`${repo}/.env`), false); // nothing there
 * await Deno.symlink(`${repo}/missing`, `${repo}/.env`);
 * assert.equal(await isNonFolderEntry(`${repo}/.env`), true); // a broken link counts
 * await Deno.remove(repo, { recursive: true });
 * ```
 */
export async function isNonFolderEntry(path: string): Promise<boolean> {
  let link: Deno.FileInfo;
  try {
    link = await Deno.lstat(path);
  } catch {
    return false;
  }
  if (!link.isSymlink) return !link.isDirectory;
  try {
    return !(await Deno.stat(path)).isDirectory;
  } catch {
    return true; // a broken or forbidden link: the reader reports it
  }
}

/** Thrown by readers that cannot go on after a refusal (e.g. `.env` files for a run). */
export class ConfinedReadError extends AgentvError {
  /** The refused file. */
  readonly file: string;

  /** Creates the error from the refusal's diagnostic. */
  constructor(diagnostic: Diagnostic) {
    super("confined_read", `${diagnostic.file}: ${diagnostic.message}`, {
      diagnostics: [diagnostic],
    });
    this.name = "ConfinedReadError";
    this.file = diagnostic.file;
  }
}

function tooLarge(label: string, size: number | undefined, maxBytes: number): string {
  const limit = formatBytes(maxBytes);
  return `Refused to read the ${label}: it is ${
    size === undefined ? `larger than ${limit}` : `${size} bytes`
  }; expected at most ${limit}; make the file smaller (config-like files hold settings, not data)`;
}

/** Up to `limit` bytes from the start of `file`, in chunks (small files stay small). */
async function readAtMost(file: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = new Uint8Array(Math.min(64 * 1024, limit - total));
    const n = await file.read(chunk);
    if (n === null) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function realPathOf(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

function describeKind(info: Deno.FileInfo): string {
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
