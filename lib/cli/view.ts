/**
 * `agentv view [DIR…]`: indexes the results files of `.agentv/results/` (and the folders given)
 * into the history store, copies `.agentv/labels.jsonl` into it, and serves the viewer on
 * 127.0.0.1 until Ctrl-C. It prints the URL to open, which holds a per-process token; nothing else
 * on the machine can drive it (see `lib/view/guard.ts`).
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { openStoreArg, ROOT_OPTION, STORE_OPTION } from "./store_args.ts";
import { importLabelsFile, indexResults } from "../store/index_results.ts";
import { LABELS_FILE } from "../results/labels.ts";
import { serveView } from "../view/serve_view.ts";
import { DEFAULT_WINDOW } from "../compare/drift.ts";
import { displayPath } from "../fs/display_path.ts";

function portOf(value: unknown): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new UsageError(
      `--port must be a port from 0 to 65535, got '${value}'`,
      "e.g. --port 8080",
    );
  }
  return n;
}

function reviewerOf(args: ParsedArgs, io: CommandIO): string {
  const given = args.values.reviewer;
  if (given !== undefined && (typeof given !== "string" || given.trim() === "")) {
    throw new UsageError("--reviewer must name someone", "e.g. --reviewer ana");
  }
  return (given as string | undefined)?.trim() || io.env("AGENTV_REVIEWER") || io.env("USER") ||
    "reviewer";
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const port = portOf(args.values.port);
  const reviewer = reviewerOf(args, io);
  const opened = await openStoreArg(args, io);
  const { store, root } = opened;
  try {
    if (opened.team && args.positionals.length > 0) {
      throw new UsageError(
        "agentv view shows a team store as it is; it does not index folders into it",
        "push the results first: agentv push <folder> --store <url>",
      );
    }
    if (!opened.team) {
      const dirs = [
        join(root, ".agentv", "results"),
        ...args.positionals.map((d) => resolve(io.cwd, d)),
      ];
      const report = await indexResults(store, dirs, { signal: io.signal });
      io.stderr(
        `Indexed ${report.indexed} new or changed results file(s), ${report.unchanged} unchanged` +
          (report.skipped > 0 ? `, ${report.skipped} skipped (no result rows)` : "") +
          (report.removed > 0 ? `, ${report.removed} run(s) whose file is gone taken out` : "") +
          "\n",
      );
    }
    const labelsFile = join(root, LABELS_FILE);
    await importLabelsFile(store, labelsFile);
    const runs = (await store.listRuns({ limit: 100_000 })).length;
    const view = serveView({
      store,
      labelsFile,
      reviewer,
      listenPort: port,
      now: io.now,
      last: DEFAULT_WINDOW,
      onError: (error) => io.stderr(`agentv view: ${(error as Error).stack ?? error}\n`),
    });
    io.stdout(
      `agentv view: ${runs} run(s) in ${
        opened.team ? store.driver.location : displayPath(store.driver.location, io.cwd)
      }\nOpen ${view.url}\nPress Ctrl-C to stop.\n`,
    );
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      io.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await view.shutdown();
    return 0;
  } finally {
    await store.close();
  }
}

/** The `view` command. */
export const viewCommand: Command = {
  ...commandInfo("view"),
  usage: "agentv view [DIR...] [--store URL|FILE] [--port N] [--reviewer NAME]",
  options: {
    store: STORE_OPTION,
    root: ROOT_OPTION,
    port: {
      type: "string",
      valueName: "N",
      description: "Port on 127.0.0.1 (default: a free one)",
    },
    reviewer: {
      type: "string",
      valueName: "NAME",
      description: "Name a label form starts with (default $AGENTV_REVIEWER, else $USER)",
    },
  },
  details:
    "The viewer listens on 127.0.0.1 only and answers only requests that carry the token of\n" +
    "the URL it prints and name it in Host; it is read-only except for labels, which are appended\n" +
    `to ${LABELS_FILE} and written to the store. Stop it with Ctrl-C.`,
  run,
};
