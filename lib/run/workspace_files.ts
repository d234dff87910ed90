/**
 * Removing a case's folders (its workspace, agentv's repository of a checkout) whatever the agent
 * left in them.
 *
 * @module
 */
import { join } from "node:path";

/** Makes every folder under `path` writable (an agent may leave read-only folders behind). */
async function makeWritable(path: string): Promise<void> {
  const info = await Deno.lstat(path);
  if (!info.isDirectory) return;
  await Deno.chmod(path, 0o700);
  for await (const entry of Deno.readDir(path)) {
    if (entry.isDirectory) await makeWritable(join(path, entry.name));
  }
}

/**
 * Removes a folder tree; read-only folders (e.g. a Go module cache the agent filled) are made
 * writable first. Never throws: what cannot be removed stays, and the next run tries again.
 */
export async function removeQuietly(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
    return;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
  }
  try {
    await makeWritable(path);
    await Deno.remove(path, { recursive: true });
  } catch {
    // Left for the next run's clean-up of stale folders.
  }
}
