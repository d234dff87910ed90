/**
 * Writing a file whole or not at all: the content goes to a hidden temporary file beside it
 * (unique per process and call, created new), which is then renamed over the target, so a reader
 * or a crash never sees half a file and concurrent writers (shards sharing a cache) never mix.
 * Results files' run records, reports, merged results, resumed results, cache entries and the
 * trust store are all written this way.
 *
 * @module
 */

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Create the file's folder first (default false). */
  mkdir?: boolean;
  /** File mode of a new file (e.g. `0o600`), where the platform has modes. */
  mode?: number;
}

/** The temporary file for `path`: hidden, in the same folder (a rename never crosses devices). */
function tempPath(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1;
  const unique = `${Deno.pid}.${crypto.randomUUID().slice(0, 8)}`;
  return `${path.slice(0, cut)}.${path.slice(cut)}.${unique}.tmp`;
}

function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut <= 0 ? (cut === 0 ? path.slice(0, 1) : ".") : path.slice(0, cut);
}

/**
 * Writes `data` to `path` atomically (see the module doc). The temporary file is removed when
 * the write or the rename fails, and the error is rethrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/out/report.md`, "# Report\n", { mkdir: true });
 * assert.equal(await Deno.readTextFile(`${dir}/out/report.md`), "# Report\n");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (options.mkdir) await Deno.mkdir(parentOf(path), { recursive: true });
  const temp = tempPath(path);
  const write = { createNew: true, ...(options.mode !== undefined ? { mode: options.mode } : {}) };
  try {
    if (typeof data === "string") await Deno.writeTextFile(temp, data, write);
    else await Deno.writeFile(temp, data, write);
    await Deno.rename(temp, path);
  } catch (e) {
    await Deno.remove(temp).catch(() => {});
    throw e;
  }
}

/**
 * {@link writeFileAtomic}, synchronously (for records written from event handlers that must not
 * interleave with other writes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * writeFileAtomicSync(`${dir}/run.json`, "{}\n");
 * assert.equal(Deno.readTextFileSync(`${dir}/run.json`), "{}\n");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const temp = tempPath(path);
  try {
    if (typeof data === "string") Deno.writeTextFileSync(temp, data, { createNew: true });
    else Deno.writeFileSync(temp, data, { createNew: true });
    Deno.renameSync(temp, path);
  } catch (e) {
    try {
      Deno.removeSync(temp);
    } catch { /* never written */ }
    throw e;
  }
}
