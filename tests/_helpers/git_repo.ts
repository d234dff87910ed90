/**
 * Builds small git repositories for tests (offline, in a temp folder): each commit writes the given
 * files (a `null` deletes one) and the helper returns the commits' full SHAs. Git runs with a
 * fixed identity and without the user's or the system's configuration.
 *
 * ```ts ignore
 * const [first, second] = await commitFiles(dir, [{ "a.txt": "1\n" }, { "a.txt": "2\n" }]);
 * ```
 *
 * @module
 */
import { dirname, join } from "node:path";

/** Runs git in `dir` with a fixed identity and no user or system configuration. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "init.defaultBranch=main", ...args],
    cwd: dir,
    env: {
      GIT_AUTHOR_NAME: "agentv test",
      GIT_AUTHOR_EMAIL: "test@agentv.invalid",
      GIT_COMMITTER_NAME: "agentv test",
      GIT_COMMITTER_EMAIL: "test@agentv.invalid",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** One commit: path → content (`null` deletes the file); a `mode` entry makes a file executable. */
export type CommitFiles = Record<string, string | null>;

/**
 * Makes `dir` a repository (when it is not one yet) and adds one commit per entry of `commits`;
 * resolves to their full SHAs, in order.
 */
export async function commitFiles(dir: string, commits: CommitFiles[]): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  try {
    await Deno.stat(join(dir, ".git"));
  } catch {
    await git(dir, "init", "--quiet");
  }
  const shas: string[] = [];
  for (const [i, files] of commits.entries()) {
    for (const [path, content] of Object.entries(files)) {
      const file = join(dir, path);
      if (content === null) {
        await Deno.remove(file);
        continue;
      }
      await Deno.mkdir(dirname(file), { recursive: true });
      await Deno.writeTextFile(file, content);
    }
    await git(dir, "add", "--all");
    await git(dir, "commit", "--quiet", "--allow-empty", "-m", `commit ${i + 1}`);
    shas.push(await git(dir, "rev-parse", "HEAD"));
  }
  return shas;
}
