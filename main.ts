/**
 * The agentv command-line entry point. It is the only module that reads `Deno.args` or calls
 * `Deno.exit`: it builds the process's {@link CommandIO} and hands over to `runCli`.
 *
 * The first Ctrl-C aborts `io.signal` (commands stop and report what they have); a second one
 * exits with code 130 at once.
 *
 * A compiled agentv started by itself with the hidden first argument `__agentv_judge_host` is
 * the judge host that module code judges run in (`lib/scoring/module_judge_host.ts`); with
 * `__agentv_sandbox_relay` the network relay of a sandbox (`lib/targets/sandbox_relay.ts`), and
 * with `__agentv_sandbox_forwarder` the forwarder inside one (`lib/targets/sandbox_forwarder.ts`).
 *
 * @module
 */
import { runCli } from "./lib/cli/app.ts";
import type { CommandIO } from "./lib/cli/command.ts";
import { JUDGE_HOST_ARG, runJudgeHost } from "./lib/scoring/module_judge_host.ts";
import { FORWARDER_ARG, runForwarder } from "./lib/targets/sandbox_forwarder.ts";
import { RELAY_ARG, runRelay } from "./lib/targets/sandbox_relay.ts";

const encoder = new TextEncoder();

/** Writes all of `text` to a synchronous stream; a closed pipe (e.g. `| head`) is ignored. */
function writer(stream: { writeSync(p: Uint8Array): number }): (text: string) => void {
  let closed = false;
  return (text) => {
    if (closed) return;
    let bytes = encoder.encode(text);
    try {
      while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
    } catch (error) {
      if (error instanceof Deno.errors.BrokenPipe) closed = true;
      else throw error;
    }
  };
}

/** Reads an env var without ever prompting: without permission it is simply unset. */
function readEnv(name: string): string | undefined {
  try {
    const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
    return state === "granted" ? Deno.env.get(name) : undefined;
  } catch {
    return undefined;
  }
}

/** The whole environment, or `{}` without (full) env permission. */
function readEnvAll(): Record<string, string> {
  try {
    const state = Deno.permissions.querySync({ name: "env" }).state;
    return state === "granted" ? Deno.env.toObject() : {};
  } catch {
    return {};
  }
}

async function main(): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) Deno.exit(130);
    controller.abort(new DOMException("Interrupted", "AbortError"));
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  const isTTY = Deno.stdout.isTerminal();
  const noColor = readEnv("NO_COLOR");
  const io: CommandIO = {
    stdout: writer(Deno.stdout),
    stderr: writer(Deno.stderr),
    isTTY,
    stderrIsTTY: Deno.stderr.isTerminal(),
    color: isTTY && (noColor === undefined || noColor === ""),
    env: readEnv,
    envAll: readEnvAll,
    cwd: Deno.cwd(),
    signal: controller.signal,
    now: Date.now,
  };
  try {
    return await runCli(Deno.args, io);
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}

/** The hidden modes of a compiled agentv started by itself, by first argument. */
const MODES: Record<string, (args: string[]) => Promise<number>> = {
  [JUDGE_HOST_ARG]: () => runJudgeHost(),
  [RELAY_ARG]: runRelay,
  [FORWARDER_ARG]: runForwarder,
};

if (import.meta.main) {
  const first = Deno.args[0] ?? "";
  const mode = Object.hasOwn(MODES, first) ? MODES[first] : undefined;
  Deno.exit(mode !== undefined ? await mode(Deno.args.slice(1)) : await main());
}
