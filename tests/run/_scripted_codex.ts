/**
 * A scripted stand-in for the Codex CLI, for in-process tests of what agentv does around an agent
 * (the real CLIs are tested in `tests/targets/*_e2e_test.ts`). Started as a `codex` target's
 * `executable` through a small wrapper (see {@link scriptedCodex}), it reads the prompt on stdin,
 * runs each scripted shell command for real in its working folder (`sh -c`), and prints Codex's
 * `--json` event stream: every command as a `command_execution` item with its output and exit
 * code, then the scripted answer.
 *
 * @module
 */
import { join } from "node:path";

/** What the stand-in does: shell commands in order, then its answer. */
export interface AgentScript {
  /** Shell command lines, run with `sh -c` in the workspace. */
  steps: string[];
  /** The final answer. */
  answer: string;
}

/**
 * Writes the stand-in's wrapper into `dir` and returns its path (a `codex` target's
 * `executable`).
 */
export async function scriptedCodex(dir: string, script: AgentScript): Promise<string> {
  const scriptFile = join(dir, "agent-script.json");
  await Deno.writeTextFile(scriptFile, JSON.stringify(script));
  // A copy beside the wrapper: a sandbox lets the agent read its executable's folder, not the
  // folder this repository was cloned into (which may be under a /tmp the sandbox replaces).
  const self = join(dir, "scripted_codex.ts");
  await Deno.copyFile(new URL(import.meta.url), self);
  const wrapper = join(dir, "codex");
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\nexec '${Deno.execPath()}' run --quiet --allow-read --allow-run '${self}' '${scriptFile}'\n`,
  );
  await Deno.chmod(wrapper, 0o755);
  return wrapper;
}

async function main(scriptFile: string): Promise<void> {
  const script = JSON.parse(await Deno.readTextFile(scriptFile)) as AgentScript;
  await new Response(Deno.stdin.readable).text(); // the prompt
  const emit = (event: unknown) => console.log(JSON.stringify(event));
  emit({ type: "thread.started", thread_id: "scripted" });
  emit({ type: "turn.started" });
  for (const [i, command] of script.steps.entries()) {
    const id = `item_${i}`;
    const item = { id, type: "command_execution", command, aggregated_output: "" };
    emit({ type: "item.started", item: { ...item, exit_code: null, status: "in_progress" } });
    const out = await new Deno.Command("sh", {
      args: ["-c", command],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    emit({
      type: "item.completed",
      item: {
        ...item,
        aggregated_output: text(out.stdout) + text(out.stderr),
        exit_code: out.code,
        status: out.code === 0 ? "completed" : "failed",
      },
    });
  }
  emit({
    type: "item.completed",
    item: { id: "answer", type: "agent_message", text: script.answer },
  });
  emit({ type: "turn.completed", usage: { input_tokens: 10, output_tokens: 5 } });
}

if (import.meta.main) await main(Deno.args[0]);
