/**
 * Installing the `agentv` command from a clone (`deno task install`): the task grants exactly the
 * permission flags of the compiled binaries, and the command it installs works from any folder,
 * writing into that folder, not into the clone. The URL form the README documents (`deno install`
 * of `main.ts` with agentv's `deno.json` as the import map) is installed the same way, from a
 * `file:` URL of this clone. Everything runs offline, from Deno's cache.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };
import { tempTree } from "../_helpers/temp_tree.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

const TASKS = denoJson.tasks as Record<string, string>;

/** The runtime flags (permissions, unstable features) among a task's arguments. */
function runtimeFlags(task: string): string[] {
  return task.split(/\s+/).filter((arg) =>
    /^--(allow|deny)-[a-z-]+(=.*)?$/.test(arg) || /^--unstable-[a-z-]+$/.test(arg)
  );
}

/** The files `agentv init` writes. */
const INIT_FILES = [
  ".agentv/targets.yaml",
  ".agentv/config.yaml",
  ".env.example",
  "evals/example.yaml",
  ".github/workflows/agentv.yml",
];

async function output(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const result = await new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return { code: result.code, out: text.decode(result.stdout) + text.decode(result.stderr) };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** `agentv --version`, then `agentv init` and `agentv run` in an empty folder of `tree`. */
async function useInstalled(bin: string, tree: { path(rel: string): string }): Promise<void> {
  const version = await output(bin, ["--version"], tree.path("."));
  assert.equal(version.code, 0, version.out);
  assert.equal(version.out, `agentv ${denoJson.version}\n`);
  const project = tree.path("project");
  await Deno.mkdir(project);
  const init = await output(bin, ["init"], project);
  assert.equal(init.code, 0, init.out);
  for (const file of INIT_FILES) {
    assert.ok(await exists(join(project, file)), `init wrote ${file} in the current folder`);
    assert.ok(!(await exists(join(REPO_ROOT, file))) || file.startsWith(".agentv/"), file);
  }
  assert.equal(await exists(join(REPO_ROOT, "evals/example.yaml")), false, "not in the clone");
  assert.equal(await exists(join(REPO_ROOT, ".env.example")), false, "not in the clone");
  const run = await output(bin, ["run", "--quiet"], project);
  assert.equal(run.code, 0, run.out);
  assert.match(run.out, /Results: +\.agentv\/results\/example-/);
}

Deno.test("deno task install grants exactly the compile task's permission flags", () => {
  const install = TASKS.install;
  assert.ok(install, "deno.json has an install task");
  const args = install.split(/\s+/);
  assert.deepEqual(args.slice(0, 3), ["deno", "install", "--global"]);
  assert.ok(args.includes("--force"), "it replaces an earlier install");
  assert.equal(args[args.indexOf("--name") + 1], "agentv");
  // Without it a global install copies an empty config: no import map, so `zod` is not found.
  assert.equal(args[args.indexOf("--config") + 1], "deno.json", "it takes agentv's imports");
  assert.equal(args.at(-1), "main.ts");
  assert.deepEqual(runtimeFlags(install), runtimeFlags(TASKS["compile:linux-x64"]));
});

Deno.test("deno task install from the clone gives an agentv command that works in another folder", async () => {
  await using tree = await tempTree({});
  const root = tree.path("install-root");
  const installed = await output(Deno.execPath(), ["task", "install"], REPO_ROOT, {
    DENO_INSTALL_ROOT: root,
  });
  assert.equal(installed.code, 0, installed.out);
  await useInstalled(join(root, "bin", "agentv"), tree);
});

Deno.test("deno install of main.ts by URL with agentv's deno.json as import map works", async () => {
  await using tree = await tempTree({});
  const root = tree.path("install-root");
  const url = (file: string) => pathToFileURL(join(REPO_ROOT, file)).href;
  const installed = await output(
    Deno.execPath(),
    [
      "install",
      "--global",
      "--force",
      "--name",
      "agentv",
      ...runtimeFlags(TASKS.install),
      `--import-map=${url("deno.json")}`,
      url("main.ts"),
    ],
    tree.path("."),
    { DENO_INSTALL_ROOT: root },
  );
  assert.equal(installed.code, 0, installed.out);
  await useInstalled(join(root, "bin", "agentv"), tree);
});
