/**
 * `cli` targets with `sandbox: bubblewrap` (default none): the command writes its workspace and
 * its `{OUTPUT_FILE}`, reads its folders, and reaches nothing (`network: none`); the same command
 * without the sandbox reads the home, writes outside and reaches the host's loopback.
 */
import assert from "node:assert/strict";
import { createTarget } from "../../lib/targets/registry.ts";
import type { TargetRequest } from "../../lib/targets/types.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

function request(tree: Tree): TargetRequest {
  return {
    evalCase: { id: "c1", file_paths: [] } as unknown as EvalCase,
    prompt: "hi",
    messages: [{ role: "user", content: "hi" }],
    guidelines: "",
    attempt: 0,
    evalDir: tree.path("evals"),
    cwd: tree.path("workspace"),
    signal: new AbortController().signal,
  };
}

Deno.test({
  name:
    "a sandboxed cli target writes its workspace and {OUTPUT_FILE} only and reaches nothing; unsandboxed the same command escapes",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "home/.ssh/id_rsa": "FAKE KEY\n",
      "evals/.keep": "",
      "workspace/.keep": "",
      "outside/.keep": "",
    });
    const seen: string[] = [];
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
      seen.push("called");
      return new Response("pong");
    });
    const tries = [
      `cat "$HOME/.ssh/id_rsa" > /dev/null 2>&1 && echo READ_KEY`,
      `touch '${tree.path("outside/x")}' 2>/dev/null && echo WROTE_OUTSIDE`,
      `echo hi > {WORKSPACE}/made.txt && echo WROTE_WORKSPACE`,
      `${Deno.execPath()} eval --quiet "await fetch('http://127.0.0.1:${server.addr.port}')" ` +
      `> /dev/null 2>&1 && echo REACHED_HOST`,
    ].join("; ");
    const answers: Record<string, string> = {};
    for (const sandbox of ["bubblewrap", "none"]) {
      const target = createTarget({
        name: "cli",
        provider: "cli",
        command_template: `{ ${tries}; } | tr '\\n' ' ' > {OUTPUT_FILE}`,
        sandbox,
      }, { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: tree.path("home") } });
      const response = await target.invoke(request(tree));
      answers[sandbox] = String(response.output_messages.at(-1)?.content).trim();
      await Deno.remove(tree.path("outside/x")).catch(() => {});
    }
    assert.deepEqual(answers, {
      bubblewrap: "WROTE_WORKSPACE",
      none: "READ_KEY WROTE_OUTSIDE WROTE_WORKSPACE REACHED_HOST",
    });
    assert.equal(seen.length, 1, "only the unsandboxed command reached the server");
  },
});

Deno.test({
  name: "a sandboxed cli target's command healthcheck runs in its sandbox too",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "evals/.keep": "",
      "workspace/.keep": "",
      "outside/.keep": "",
    });
    for (const sandbox of ["bubblewrap", "none"]) {
      const target = createTarget({
        name: "checked",
        provider: "cli",
        command_template: "echo ok",
        healthcheck: { type: "command", command_template: `touch '${tree.path("outside/H")}'` },
        sandbox,
      }, { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" } });
      const invoked = target.invoke(request(tree));
      if (sandbox === "bubblewrap") {
        await assert.rejects(invoked, /CLI healthcheck failed for 'checked': exited with code 1/);
        await assert.rejects(Deno.stat(tree.path("outside/H")), Deno.errors.NotFound);
      } else {
        await invoked;
        assert.ok((await Deno.stat(tree.path("outside/H"))).isFile);
      }
    }
  },
});
