/**
 * Which files `agentv validate` checks besides eval files: the `.agentv/targets.*` and
 * `.agentv/config.yaml` files named by, or found under, its arguments.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { FileKind } from "../dataset/sandbox_protocol.ts";

/**
 * Whether `path` is a targets or config file: `targets.yaml|yml|jsonc` or `config.yaml|yml`
 * inside a `.agentv/` folder (an explicitly named `targets.*` counts anywhere).
 */
export function settingsKind(path: string, options: { explicit: boolean }): FileKind | undefined {
  const name = basename(path).toLowerCase();
  const inAgentv = basename(dirname(path)) === ".agentv";
  if (/^targets\.(ya?ml|jsonc?)$/.test(name) && (inAgentv || options.explicit)) return "targets";
  if (/^config\.ya?ml$/.test(name) && inAgentv) return "config";
  return undefined;
}

/**
 * Every `.agentv/targets.*` and `.agentv/config.yaml` below `dir` (not following symlinked
 * folders). Entries that are symlinks, FIFOs or devices are listed, so that validating them
 * reports why `run` would refuse them instead of skipping them silently.
 */
export async function findSettingsFiles(dir: string): Promise<Map<string, FileKind>> {
  const found = new Map<string, FileKind>();
  const walk = async (current: string) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(current)) entries.push(entry);
    } catch {
      return; // unreadable folders are reported by discovery when they matter
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(current, entry.name);
      if ((entry.isDirectory || entry.isSymlink) && entry.name === ".agentv") {
        // A linked `.agentv/` too: its files are reported as outside the root when it leads out.
        let inners: Deno.DirEntry[] = [];
        try {
          inners = await Array.fromAsync(Deno.readDir(path));
        } catch {
          // not a folder (or a broken link): nothing to validate
        }
        for (const inner of inners) {
          // Symlinks, FIFOs and devices too: validating them reports why they are refused.
          const kind = !inner.isDirectory
            ? settingsKind(join(path, inner.name), { explicit: false })
            : undefined;
          if (kind) found.set(join(path, inner.name), kind);
        }
      } else if (
        entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules"
      ) {
        await walk(path);
      }
    }
  };
  if (basename(dir) === ".agentv") await walk(dirname(dir));
  else await walk(dir);
  return found;
}
