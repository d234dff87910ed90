/**
 * The fast tier's lanes. `deno task test:fast` runs its test files in {@link LANES} lanes
 * (`tests/_fast/lane_<i>.ts`), each one Deno isolate that imports its share of the files, instead
 * of one isolate per file: the library and its npm packages are then loaded once per lane, not
 * once per file (~0.16 s of CPU each, ~30 s for the tier on 2 cores). Like Vitest's
 * `isolate: false`, files of a lane share module state; each test still runs with Deno's
 * sanitizers, and a file run alone (`deno test tests/x_test.ts`) gets an isolate of its own.
 *
 * A test file is in the fast tier unless its name puts it in a slow one: `*_<tier>_test.ts` for
 * each of {@link SLOW_TIERS} (deno.json's `test:<tier>` tasks).
 *
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { lendSandboxWorkers } from "../../lib/dataset/sandbox_worker.ts";

/** The slow tiers: a file named `*_<tier>_test.ts` runs in `deno task test:<tier>`. */
export const SLOW_TIERS = ["process", "browser", "postgres", "e2e", "fuzz", "publish"] as const;

/** How many lanes the fast tier runs (`tests/_fast/lane_0.ts` … `lane_5.ts`). */
export const LANES = 6;

const SLOW = new RegExp(`_(${SLOW_TIERS.join("|")})_test\\.ts$`);

/** The project root, from this file's place in it. */
export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The fast tier's test files under `root`'s `tests/` (relative, `/`-separated, sorted): every
 * `*_test.ts` that no slow tier takes.
 */
export function fastTestFiles(root: string = ROOT): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith("_test.ts") && !SLOW.test(entry.name)) {
        files.push(relative(root, path).replaceAll("\\", "/"));
      }
    }
  };
  walk(join(root, "tests"));
  return files.sort();
}

/** The files of lane `index`: every {@link LANES}th file, so heavy folders are spread out. */
export function laneFiles(index: number, root: string = ROOT): string[] {
  return fastTestFiles(root).filter((_, n) => n % LANES === index);
}

/**
 * Imports the files of lane `index`, one after another, registering their tests. The lane's
 * sandboxes lend their workers to the next command over the same dataset root (see
 * `lendSandboxWorkers`): most tests run `validate` or `run` several times over one project.
 */
export async function runLane(index: number, root: string = ROOT): Promise<void> {
  lendSandboxWorkers(true);
  for (const file of laneFiles(index, root)) {
    await import(pathToFileURL(join(root, file)).href);
  }
}
