/**
 * Temporary file trees for loader tests.
 *
 * @module
 */
import { dirname, join } from "node:path";

/** A temporary folder; removed on dispose. */
export interface Tree extends AsyncDisposable {
  /** Absolute path of the folder. */
  root: string;
  /** Absolute path of `rel` inside the folder. */
  path(rel: string): string;
}

/** Creates a temporary folder holding `files` (relative path → text or bytes). */
export async function tempTree(files: Record<string, string | Uint8Array>): Promise<Tree> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentv-loader-" }));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(dirname(path), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  return {
    root,
    path: (rel: string) => join(root, rel),
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}
