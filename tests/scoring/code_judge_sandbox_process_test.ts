/**
 * Script code judges with `sandbox: bubblewrap` (default none): the script reads the dataset root
 * and writes the case's workspace, nothing else; `network: none` unless set, yet a judge with
 * `target:` still reaches the judge proxy, and only it.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { evaluateCodeJudge } from "../../lib/scoring/code_judge.ts";
import { CodeJudgeSchema } from "../../lib/schema/evaluator.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { makeContext } from "./_context.ts";

const ROOT = fileURLToPath(new URL("../../fixtures/evaluators/", import.meta.url));
const JUDGES = fileURLToPath(new URL("../../fixtures/evaluators/judges/", import.meta.url));

function judge(config: Record<string, unknown>) {
  return CodeJudgeSchema.parse({ type: "code_judge", name: "judge", ...config });
}

Deno.test({
  name:
    "a sandboxed script code judge reads the root and writes the workspace only; the same judge unsandboxed reads the home and writes anywhere",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await tempTree({
      "home/.aws/credentials": "FAKE\n",
      "workspace/out.txt": "",
      "outside/.keep": "",
    });
    const script = [
      `cat '${tree.path("home/.aws/credentials")}' > /dev/null 2>&1 && echo READ_HOME >&2`,
      `cat judges/proxy_judge.ts > /dev/null && echo READ_ROOT >&2`,
      `touch '${tree.path("outside/x")}' 2>/dev/null && echo WROTE_OUTSIDE >&2`,
      `echo judged > "$AGENTV_WORKSPACE_PATH/out.txt" && echo WROTE_WORKSPACE >&2`,
      `echo '{"score": 1}'`,
    ].join("; ");
    const found: Record<string, string[]> = {};
    for (const sandbox of ["bubblewrap", "none"]) {
      const outcome = await evaluateCodeJudge(
        judge({ script: ["sh", "-c", `${script}; exit 3`], sandbox }),
        makeContext({
          evalDir: ROOT,
          root: ROOT,
          env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: tree.path("home") },
          workspacePath: tree.path("workspace"),
        }),
      );
      // Exit 3 makes the stderr (what succeeded) part of the error.
      found[sandbox] = [...(outcome.error ?? "").matchAll(/[A-Z]+_[A-Z]+/g)].map((m) => m[0]);
      await Deno.remove(tree.path("outside/x")).catch(() => {});
    }
    assert.deepEqual(found, {
      bubblewrap: ["READ_ROOT", "WROTE_WORKSPACE"],
      none: ["READ_HOME", "READ_ROOT", "WROTE_OUTSIDE", "WROTE_WORKSPACE"],
    });
  },
});

Deno.test({
  name: "a sandboxed code judge with target: reaches the judge proxy through its sandbox",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    const judgeClient = {
      target: "judge-mock",
      complete: (req: { system: string; user: string }) =>
        Promise.resolve({ text: `judged: ${req.user}`, request: {} }),
    };
    const script = [
      Deno.execPath(),
      "run",
      "--no-config",
      "--quiet",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "proxy_judge.ts",
    ];
    const outcome = await evaluateCodeJudge(
      judge({ script, target: { max_calls: 2 }, sandbox: "bubblewrap" }),
      makeContext({
        evalDir: JUDGES,
        root: ROOT,
        judge: judgeClient,
        outputMessages: [{ role: "assistant", content: "Paris" }],
      }),
    );
    assert.equal(outcome.status, "ok", outcome.error ?? "");
    assert.equal((outcome.details as { raw_text: string }).raw_text, 'judged: Is "Paris" right?');
  },
});

Deno.test("a code judge asking for a sandbox it cannot have is an error row, not a run", async () => {
  const outcome = await evaluateCodeJudge(
    judge({ script: ["sh", "-c", "echo '{\"score\": 1}'"], sandbox: "docker" }),
    makeContext({ evalDir: ROOT, root: ROOT }),
  );
  assert.equal(outcome.status, "error");
  assert.match(
    outcome.error ?? "",
    /Code judge 'judge' asks for sandbox: docker but names no image/,
  );
});
