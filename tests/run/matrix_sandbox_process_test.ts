/**
 * The sandbox of each target of a run of several (`--target a,b`), for real (`bwrap`, a scripted
 * stand-in for Codex): each target's own `sandbox` setting holds for its rows, one extending the
 * other included, and the run's `--sandbox` replaces it for every target.
 */
import assert from "node:assert/strict";
import { runEval } from "../../lib/run/run_eval.ts";
import type { SandboxMode } from "../../lib/schema/sandbox.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { containsSuite } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { scriptedCodex } from "./_scripted_codex.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

Deno.test({
  name:
    "each target of a multi-target run keeps its own sandbox (boxed, or sandbox: none through extends:); --sandbox replaces it for every target",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "home/secret.txt": "the user's secret\n",
      "evals/a.yaml": containsSuite("d", [["look", "Done"]]),
      "bin/.keep": "",
    }, { git: true, prefix: "agentv-matrix-box-" });
    const executable = await scriptedCodex(tree.path("bin"), {
      steps: [`cat "$HOME/secret.txt"`],
      answer: "Done.",
    });
    await Deno.mkdir(tree.path(".agentv"));
    await Deno.writeTextFile(
      tree.path(".agentv/targets.yaml"),
      `targets:
  - name: boxed
    provider: codex
    executable: ${executable}
    network: none
  - name: open
    extends: boxed
    sandbox: none
`,
    );
    /** Whether each target's agent could read the home's secret, under `--sandbox mode`. */
    const reads = async (mode?: SandboxMode) => {
      const { rows } = await runEval({
        files: [tree.path("evals")],
        cwd: tree.root,
        env: { PATH, HOME: tree.path("home") },
        allowRun: true,
        target: ["boxed", "open"],
        ...(mode !== undefined ? { sandboxMode: mode } : {}),
      });
      return Object.fromEntries(rows.map((row) => {
        assert.equal(row.status, "ok", row.error ?? "");
        const call = row.output_messages.flatMap((m) => m.tool_calls ?? [])[0];
        return [row.target, call?.status === "ok" && /user's secret/.test(String(call.output))];
      }));
    };
    assert.deepEqual(await reads(), { boxed: false, open: true });
    assert.deepEqual(await reads("bubblewrap"), { boxed: false, open: false });
    assert.deepEqual(await reads("none"), { boxed: true, open: true });
  },
});
