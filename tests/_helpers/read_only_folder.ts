/**
 * A folder that refuses writes to the process running the tests, root included. Permission bits
 * (0o555) stop an ordinary user but not root (CAP_DAC_OVERRIDE writes through them), so for root
 * the folder also gets the immutable attribute (`chattr +i`, Linux), which stops root too. It
 * needs CAP_LINUX_IMMUTABLE and a file system that keeps the attribute (ext4, xfs, btrfs, tmpfs
 * since Linux 6.0).
 *
 * ```ts
 * import { readOnlyFolder } from "./read_only_folder.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await using folder = await readOnlyFolder(`${dir}/ro`);
 * // folder.how: "permission bits" or "immutable attribute"; undefined: this machine cannot
 * ```
 *
 * @module
 */
import { join } from "node:path";

/** How a folder was made to refuse writes. */
export type ReadOnlyHow = "permission bits" | "immutable attribute";

/** A folder that refuses writes until disposed. */
export interface ReadOnlyFolder extends AsyncDisposable {
  /** The folder. */
  path: string;
  /** What refuses the writes. */
  how: ReadOnlyHow;
}

/**
 * Creates `path` (a new folder) and makes it refuse writes, checked by a probe write; undefined
 * when neither mechanism stops this process (root without CAP_LINUX_IMMUTABLE, say). Disposing
 * makes it writable again.
 */
export async function readOnlyFolder(path: string): Promise<ReadOnlyFolder | undefined> {
  await Deno.mkdir(path);
  await Deno.chmod(path, 0o555);
  const writable = () => Deno.chmod(path, 0o755);
  if (!await acceptsWrites(path)) {
    return { path, how: "permission bits", [Symbol.asyncDispose]: writable };
  }
  if (await chattr("+i", path)) {
    const mutable = async () => {
      await chattr("-i", path);
      await writable();
    };
    if (!await acceptsWrites(path)) {
      return { path, how: "immutable attribute", [Symbol.asyncDispose]: mutable };
    }
    await mutable();
  } else await writable();
  return undefined;
}

/**
 * How this machine makes a folder refuse this process's writes, tried in a temporary folder;
 * undefined when it cannot (a test then is ignored, saying why, instead of asserting nothing).
 */
export async function readOnlyHow(): Promise<ReadOnlyHow | undefined> {
  const dir = await Deno.makeTempDir({ prefix: "agentv-ro-probe-" });
  try {
    await using folder = await readOnlyFolder(join(dir, "ro"));
    return folder?.how;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function acceptsWrites(dir: string): Promise<boolean> {
  const probe = join(dir, ".probe");
  try {
    await Deno.writeTextFile(probe, "");
  } catch {
    return false;
  }
  await Deno.remove(probe);
  return true;
}

async function chattr(flag: "+i" | "-i", path: string): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("chattr", {
      args: [flag, path],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false; // no chattr (not Linux, or e2fsprogs missing)
  }
}
