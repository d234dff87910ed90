/**
 * The `docker` sandbox's contract, against a stand-in `docker` on `PATH` that records its
 * arguments and runs the container's command on the host (there is no Docker daemon here): the
 * `docker run` command line, and `docker kill <name>` on a timeout and on an interruption. Not
 * verified against a real daemon.
 */
import assert from "node:assert/strict";
import { openSandbox } from "../../lib/targets/sandbox_launch.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import type { TargetRequest } from "../../lib/targets/types.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const IMAGE = "agentv-test-image";

/** The stand-in: logs each call (`---`, then one argument a line); `run` execs what follows the image. */
const STAND_IN = `#!/bin/sh
dir=$(dirname "$0")
{ echo ---; for a in "$@"; do printf '%s\\n' "$a"; done; } >> "$dir/calls.log"
case "$1" in
  kill) [ -f "$dir/$2.pid" ] && kill -9 "$(cat "$dir/$2.pid")"; exit 0 ;;
  run)
    name=""; prev=""
    while [ $# -gt 0 ]; do
      [ "$prev" = "--name" ] && name="$1"
      if [ "$1" = "${IMAGE}" ]; then shift; break; fi
      prev="$1"; shift
    done
    echo $$ > "$dir/$name.pid"
    exec "$@" ;;
esac
`;

async function standIn(): Promise<Tree> {
  const tree = await tempTree({
    "bin/docker": STAND_IN,
    "workspace/.keep": "",
    "evals/.keep": "",
  }, { prefix: "agentv-docker-" });
  await Deno.chmod(tree.path("bin/docker"), 0o755);
  return tree;
}

/** The calls the stand-in received, each as its argument list. */
async function calls(tree: Tree): Promise<string[][]> {
  const text = await Deno.readTextFile(tree.path("bin/calls.log")).catch(() => "");
  return text.split("---\n").slice(1).map((call) => call.replace(/\n$/, "").split("\n"));
}

function pathWith(tree: Tree): string {
  return `${tree.path("bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

Deno.test("docker: run --rm -i, named, no network, no capabilities, the workspace at its path or workdir, variables by name only, then the image and the command", async () => {
  await using tree = await standIn();
  const request = {
    argv: ["claude", "-p"],
    env: { PATH: pathWith(tree), HOME: "/home/someone", ANTHROPIC_API_KEY: "sk-SECRET-1" },
    cwd: tree.path("workspace"),
    writable: [tree.path("workspace")],
  };
  const policy = {
    mode: "docker" as const,
    network: "none" as const,
    allowHosts: [],
    readOnly: [],
    writable: [],
    image: IMAGE,
  };
  const box = await openSandbox(policy, request);
  await box.close();
  const [docker, ...args] = box.argv;
  assert.equal(docker, tree.path("bin/docker"));
  assert.deepEqual(args.slice(0, 4), ["run", "--rm", "-i", "--name"]);
  assert.match(args[4], /^agentv-[0-9a-f-]{36}$/);
  const after = (flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));
  assert.deepEqual(after("--network"), ["none"]);
  assert.deepEqual(after("--cap-drop"), ["ALL"]);
  assert.deepEqual(after("--security-opt"), ["no-new-privileges"]);
  assert.match(after("--user")[0], /^\d+:\d+$/, "files it writes are the user's");
  assert.deepEqual(after("-w"), [tree.path("workspace")]);
  assert.ok(
    after("--mount").includes(
      `type=bind,source=${tree.path("workspace")},target=${tree.path("workspace")}`,
    ),
  );
  assert.deepEqual(after("-e").sort(), ["ANTHROPIC_API_KEY", "HOME", "PATH", "TMPDIR"]);
  assert.ok(!box.argv.some((a) => a.includes("sk-SECRET-1")), "values never on the command line");
  assert.equal(box.env.ANTHROPIC_API_KEY, "sk-SECRET-1", "the client passes them by name");
  assert.deepEqual(args.slice(-3), [IMAGE, "claude", "-p"]);

  // workdir: the workspace is mounted there and the command starts there.
  const moved = await openSandbox({ ...policy, workdir: "/work" }, request);
  await moved.close();
  const movedArgs = moved.argv.slice(1);
  const at = (flag: string) => movedArgs.flatMap((a, i) => (a === flag ? [movedArgs[i + 1]] : []));
  assert.deepEqual(at("-w"), ["/work"]);
  assert.ok(at("--mount").includes(`type=bind,source=${tree.path("workspace")},target=/work`));

  // model-only: still no network of its own, the forwarder first, the relay's sockets mounted.
  const boxed = await openSandbox({ ...policy, network: "model-only" }, {
    ...request,
    endpoints: [{ host: "127.0.0.1", port: 9 }],
  });
  await boxed.close();
  assert.ok(boxed.argv.includes("none"));
  assert.ok(boxed.argv.some((a) => /target=\/run\/agentv,readonly$/.test(a)));
  const image = boxed.argv.indexOf(IMAGE);
  assert.equal(boxed.argv.at(-3), "--");
  assert.deepEqual(boxed.argv.slice(-2), ["claude", "-p"]);
  assert.ok(image > 0 && image < boxed.argv.length - 3, "the forwarder runs in the container");
});

function request(tree: Tree, signal: AbortSignal): TargetRequest {
  return {
    evalCase: { id: "c1", file_paths: [] } as unknown as EvalCase,
    prompt: "hi",
    messages: [{ role: "user", content: "hi" }],
    guidelines: "",
    attempt: 0,
    evalDir: tree.path("evals"),
    cwd: tree.path("workspace"),
    signal,
  };
}

Deno.test("docker: a command past its timeout, or interrupted, has its container killed by name", async () => {
  await using tree = await standIn();
  const target = (timeout?: number) =>
    createTarget({
      name: "boxed",
      provider: "cli",
      command_template: "echo started; sleep 30",
      sandbox: "docker",
      image: IMAGE,
      ...(timeout !== undefined ? { timeout_seconds: timeout } : {}),
    }, { env: { PATH: pathWith(tree) } });
  await assert.rejects(
    target(0.5).invoke(request(tree, new AbortController().signal)),
    /timed out after 0.5s/,
  );
  const controller = new AbortController();
  const interrupted = target().invoke(request(tree, controller.signal));
  // Interrupt once the stand-in's second container has started.
  while ((await calls(tree)).filter((c) => c[0] === "run").length < 2) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  await assert.rejects(interrupted, /was aborted/);
  const log = await calls(tree);
  const runs = log.filter((c) => c[0] === "run").map((c) => c[c.indexOf("--name") + 1]);
  const kills = log.filter((c) => c[0] === "kill").map((c) => c[1]);
  assert.equal(runs.length, 2);
  assert.deepEqual(kills, runs, "each container was killed by its own name");
});
