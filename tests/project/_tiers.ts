/**
 * The test tiers as `deno.json` declares them, read the way Deno reads them: the slow tiers'
 * `deno test` commands, the paths they name and the globs they ignore, the fast tier's lanes
 * (tests/_fast/lanes.ts), and which tiers take a given test file. Also the doc examples of a
 * source file, as `deno test --doc` extracts them.
 *
 * @module
 */
import { join, relative } from "node:path";
import denoJson from "../../deno.json" with { type: "json" };
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { fastTestFiles, SLOW_TIERS } from "../_fast/lanes.ts";

/** The project's tasks. */
export const TASKS: Record<string, string> = denoJson.tasks;

/** One `deno test` command of a task. */
export interface TestCommand {
  /** The task. */
  task: string;
  /** Its arguments after `deno test`. */
  args: string[];
  /** The paths (or globs) it names. */
  paths: string[];
  /** The globs of its `--ignore=`. */
  ignore: string[];
}

/** The `&&`-separated steps of a task. */
export function taskSteps(task: string): string[] {
  return (TASKS[task] ?? "").split("&&").map((step) => step.trim()).filter((s) => s !== "");
}

/** The `deno test` command of `task`, if it has one; quotes are removed as the shell would. */
export function testCommand(task: string): TestCommand | undefined {
  // A step may set environment variables first (`DENO_JOBS=6 deno test …`).
  const step = taskSteps(task).map((s) => s.replace(/^(\w+=\S*\s+)+/, ""))
    .find((s) => s.startsWith("deno test"));
  if (step === undefined) return undefined;
  const args = step.split(/\s+/).slice(2).map((arg) => arg.replace(/'/g, ""));
  const ignore = args.filter((a) => a.startsWith("--ignore=")).flatMap((a) =>
    a.slice("--ignore=".length).split(",")
  );
  const paths = args.filter((a) => !a.startsWith("-"));
  return { task, args, paths, ignore };
}

/** The slow tiers: the `test:<tier>` tasks of {@link SLOW_TIERS}, each a `deno test` command. */
export function slowTiers(): TestCommand[] {
  return SLOW_TIERS.flatMap((tier) => testCommand(`test:${tier}`) ?? []);
}

/**
 * The tiers that run the test file `file` (relative to `root`, default the project's): `test:fast`
 * when its lanes import it, and each slow tier whose paths take it.
 */
export function tiersOf(file: string, root: string = REPO_ROOT): string[] {
  return [
    ...(fastTestFiles(root).includes(file) ? ["test:fast"] : []),
    ...slowTiers().filter((tier) => takes(tier, file)).map((tier) => tier.task),
  ];
}

/**
 * A glob as Deno's `--ignore` and path arguments read it, as a regular expression over paths
 * relative to the project root: `**` any folders (none included), `*` any part of a name.
 * A plain path names itself and, when a folder, everything below it.
 */
export function globRegExp(glob: string): RegExp {
  if (!glob.includes("*")) {
    const plain = glob.replace(/\/$/, "").replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`^${plain}(/.*)?$`);
  }
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith("**/", i)) {
      out += "(?:.*/)?";
      i += 2;
    } else if (glob[i] === "*") out += "[^/]*";
    else out += glob[i]!.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Whether `command` runs the test file `file` (relative to the project root). */
export function takes(command: TestCommand, file: string): boolean {
  return command.paths.some((p) => globRegExp(p).test(file)) &&
    !command.ignore.some((g) => globRegExp(g).test(file));
}

/** Every test module under `tests/` (`*_test.ts`), relative to the project root, sorted. */
export function testFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith("_test.ts")) {
        out.push(relative(REPO_ROOT, path).replaceAll("\\", "/"));
      }
    }
  };
  walk(join(REPO_ROOT, "tests"));
  return out.sort();
}

/** A code example of a doc comment, as `deno test --doc` extracts it. */
export interface DocExample {
  /** The file, relative to the project root. */
  file: string;
  /** The 1-based line of its opening fence. */
  line: number;
  /** Its code. */
  code: string;
}

const RUN_LANGUAGES = new Set(["js", "javascript", "mjs", "cjs", "ts", "typescript", "jsx", "tsx"]);

/**
 * The examples of `file`'s JSDoc comments that `deno test --doc` type-checks and runs: fenced
 * blocks in a JavaScript or TypeScript language without the `ignore` attribute.
 */
export function docExamples(file: string): DocExample[] {
  const text = Deno.readTextFileSync(join(REPO_ROOT, file));
  const examples: DocExample[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = text.slice(0, comment.index).split("\n").length;
    const lines = comment[0].split("\n").map((l) => l.replace(/^\s*\*? ?/, ""));
    for (let i = 0; i < lines.length; i++) {
      const fence = /^```(\S*)(.*)$/.exec(lines[i]!);
      if (fence === null) continue;
      const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
      const attributes = fence[2]!.split(/[\s,]+/);
      if (RUN_LANGUAGES.has(fence[1]!) && !attributes.includes("ignore")) {
        examples.push({ file, line: firstLine + i, code: lines.slice(i + 1, end).join("\n") });
      }
      i = end;
    }
  }
  return examples;
}

/**
 * Whether an example asserts something: it calls `assert`, `assert.*` or an `assertX` function
 * (node:assert, or any assert helper), or throws, so running it can fail.
 */
export function asserts(code: string): boolean {
  return /\bassert(?:\.\w+|[A-Z]\w*)?\s*\(|\bthrow\b/.test(code);
}

/** The library's source files: `mod.ts` and every `.ts` under `lib/`, relative, sorted. */
export function sourceFiles(): string[] {
  const out = ["mod.ts"];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".ts")) {
        out.push(relative(REPO_ROOT, path).replaceAll("\\", "/"));
      }
    }
  };
  walk(join(REPO_ROOT, "lib"));
  return out.sort();
}
