/**
 * Temporary file trees for tests: a real folder holding the given files, removed on dispose.
 *
 * ```ts
 * import { tempTree } from "./temp_tree.ts";
 *
 * await using tree = await tempTree({ "evals/a.yaml": "evalcases: []\n" }, { git: true });
 * tree.path("evals/a.yaml");
 * ```
 *
 * @module
 */
import { dirname, join } from "node:path";

/** A temporary folder; removed on dispose. */
export interface Tree extends AsyncDisposable {
  /** Absolute (real) path of the folder. */
  root: string;
  /** Same as `root`. */
  dir: string;
  /** Absolute path of `rel` inside the folder. */
  path(rel: string): string;
}

/**
 * Creates a temporary folder holding `files` (relative path → text or bytes); with `git`, also an
 * empty `.git` folder so the tree is its own dataset root; in `dir` (made when missing) instead of
 * the OS temp folder when given.
 */
export async function tempTree(
  files: Record<string, string | Uint8Array>,
  options: { prefix?: string; git?: boolean; dir?: string } = {},
): Promise<Tree> {
  if (options.dir !== undefined) await Deno.mkdir(options.dir, { recursive: true });
  const root = await Deno.realPath(
    await Deno.makeTempDir({
      prefix: options.prefix ?? "agentv-test-",
      ...(options.dir !== undefined ? { dir: options.dir } : {}),
    }),
  );
  if (options.git) await Deno.mkdir(join(root, ".git"));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await Deno.mkdir(dirname(path), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  return {
    root,
    dir: root,
    path: (rel: string) => join(root, rel),
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}
