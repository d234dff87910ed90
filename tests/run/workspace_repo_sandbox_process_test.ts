/**
 * A repository-backed case in its sandbox, for real (`bwrap`, a scripted stand-in for Codex that
 * runs its shell steps in the workspace): the `workspace_repo` setup commands run in the case's
 * sandbox (the checkout writable, the home private, the dataset root out of reach), `git` works
 * in the checkout for the setup and for the agent (the mirror it borrows its objects from is
 * readable), and the agent cannot read the dataset root, where hidden checks and expected answers
 * live. The same case with `sandbox: none` reaches each of them, so the sandbox is what stops them.
 *
 * The dataset root is made under the repository's git-ignored `tmp/`, not the OS temp folder: a
 * sandbox's `/tmp` is its own, so a root there would be out of reach whatever agentv hid. (A
 * checkout under a home is hidden with the home as well.)
 */
import assert from "node:assert/strict";
import { toolCalls as calls } from "../_helpers/agent_run.ts";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { commitFiles } from "../_helpers/git_repo.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { scriptedCodex } from "./_scripted_codex.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const SECRET = "THE EXPECTED ANSWER 42";

/**
 * What setup records in the checkout (git's HEAD, how many entries its home has), and its try
 * at writing the dataset root, judged on the host by {@link escaped}: inside a sandbox whose
 * `/tmp` is its own, a root under `/tmp` may exist as an empty folder that takes the write.
 */
function setupScript(root: string): string {
  return [
    "git rev-parse HEAD > setup-head.txt",
    `ls -A "$HOME" | wc -l | tr -d ' ' > setup-home.txt`,
    `touch '${root}/setup-escaped' 2>/dev/null`,
    "true",
  ].join("; ");
}

/** Whether setup's write reached the real dataset root ("escaped"), else "refused"; resets it. */
async function escaped(tree: Tree): Promise<"escaped" | "refused"> {
  const found = await Deno.stat(tree.path("setup-escaped")).then(() => true, () => false);
  await Deno.remove(tree.path("setup-escaped")).catch(() => {});
  return found ? "escaped" : "refused";
}

/** A dataset root (outside /tmp) with a repository, a hidden answer and one repo-backed case. */
async function dataset(): Promise<{ tree: Tree; commit: string }> {
  const tree = await tempTree({
    "hidden/answer.txt": `${SECRET}\n`,
    "home/.keep": "",
  }, { git: true, dir: join(REPO_ROOT, "tmp"), prefix: "agentv-repo-box-" });
  const [commit] = await commitFiles(tree.path("repo"), [{ "calc.sh": "echo 1\n" }]);
  await Deno.mkdir(tree.path("evals"));
  await Deno.writeTextFile(
    tree.path("evals/fix.yaml"),
    `evalcases:
  - id: fix
    expected_outcome: reports
    input: look around
    execution:
      workspace_repo:
        url: ../repo
        commit: "${commit}"
        setup: [[sh, -c, ${JSON.stringify(setupScript(tree.root))}]]
    evaluators: [{type: contains, value: Done}]
`,
  );
  return { tree, commit };
}

/** Runs the case with a scripted agent (its target settings extended by `extra`). */
async function run(
  tree: Tree,
  extra: string,
  sandboxMode?: "bubblewrap",
): Promise<{ row: ResultRow; root: "escaped" | "refused" }> {
  const bin = tree.path(`bin-${crypto.randomUUID()}`);
  await Deno.mkdir(bin);
  const executable = await scriptedCodex(bin, {
    steps: [
      "git rev-parse HEAD",
      "git status --porcelain",
      `cat '${tree.path("hidden/answer.txt")}'`,
      "cat setup-head.txt setup-home.txt",
    ],
    answer: "Done.",
  });
  await Deno.mkdir(tree.path(".agentv"), { recursive: true });
  await Deno.writeTextFile(
    tree.path(".agentv/targets.yaml"),
    `targets:\n  - name: default\n    provider: codex\n    executable: ${executable}\n${extra}`,
  );
  const { rows } = await runEval({
    files: [tree.path("evals")],
    cwd: tree.root,
    env: { PATH, HOME: tree.path("home") },
    allowRun: true,
    workers: 1,
    ...(sandboxMode !== undefined ? { sandboxMode } : {}),
  });
  return { row: rows[0]!, root: await escaped(tree) };
}

Deno.test({
  name:
    "workspace_repo in the sandbox: setup and the agent run git in the checkout, setup cannot write the dataset root and the agent cannot read it; with sandbox: none both can",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    const { tree, commit } = await dataset();
    await using _ = tree;
    const { row: boxed, root: boxedRoot } = await run(tree, "");
    assert.equal(boxed.status, "ok", boxed.error ?? "");
    const [head, status, hidden, setup] = calls(boxed);
    assert.equal(head.status, "ok", String(head.output));
    assert.equal(String(head.output).trim(), commit);
    assert.equal(status.status, "ok", String(status.output));
    assert.equal(hidden.status, "error", "the agent read the dataset root");
    assert.doesNotMatch(JSON.stringify(boxed), new RegExp(SECRET));
    // Setup saw the checkout's HEAD, an empty home, and could not write the root.
    assert.deepEqual(String(setup.output).trim().split("\n"), [commit, "0"]);
    assert.equal(boxedRoot, "refused");

    const { row: open, root: openRoot } = await run(tree, "    sandbox: none\n");
    assert.equal(open.status, "ok", open.error ?? "");
    const [, , read, seen] = calls(open);
    assert.equal(read.status, "ok");
    assert.match(String(read.output), new RegExp(SECRET));
    const [seenHead, seenHome] = String(seen.output).trim().split("\n");
    assert.deepEqual([seenHead, openRoot], [commit, "escaped"]);
    assert.notEqual(seenHome, "0", "setup saw the user's home");
  },
});

Deno.test({
  name: "workspace_repo setup of a target that starts no command runs in the run's --sandbox",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    const { tree, commit } = await dataset();
    await using _ = tree;
    // A mock target starts nothing itself; --sandbox still boxes the case's setup commands.
    await Deno.mkdir(tree.path(".agentv"));
    await Deno.writeTextFile(
      tree.path(".agentv/targets.yaml"),
      "targets:\n  - name: default\n    provider: mock\n    response: Done.\n",
    );
    const results = tree.path("results.jsonl");
    const runs = { boxed: "bubblewrap", open: undefined } as const;
    for (const [name, sandboxMode] of Object.entries(runs)) {
      const { rows } = await runEval({
        files: [tree.path("evals")],
        cwd: tree.root,
        env: { PATH, HOME: tree.path("home") },
        allowRun: true,
        keepWorkspaces: true,
        out: results,
        ...(sandboxMode !== undefined ? { sandboxMode } : {}),
      });
      assert.equal(rows[0]!.status, "ok", rows[0]!.error ?? "");
      const kept = (rows[0]!.workspace as { path: string }).path;
      const seen = await Promise.all(
        ["setup-head.txt", "setup-home.txt"]
          .map(async (f) => (await Deno.readTextFile(join(kept, f))).trim()),
      );
      const boxed = name === "boxed";
      const root = await escaped(tree);
      assert.deepEqual([seen[0], root], [commit, boxed ? "refused" : "escaped"], name);
      assert.equal(seen[1] === "0", boxed, `${name}: the home setup saw had ${seen[1]} entries`);
    }
  },
});

Deno.test({
  name:
    "what setup and the agent write into the checkout's .git never makes agentv's own git run a command outside the sandbox (a clean filter, an ssh command for a lazy fetch)",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    const { tree, commit } = await dataset();
    await using _ = tree;
    const filtered = tree.path("filter-ran");
    const fetched = tree.path("ssh-ran");
    // Setup defines a clean filter on every file: agentv records the baseline after setup.
    const setup = `git config filter.x.clean "touch '${filtered}'; cat" && ` +
      `echo '* filter=x' > .gitattributes`;
    const evalFile = tree.path("evals/fix.yaml");
    const text = await Deno.readTextFile(evalFile);
    await Deno.writeTextFile(
      evalFile,
      text.replace(/setup: .*\n/, `setup: [[sh, -c, ${JSON.stringify(setup)}]]\n`),
    );
    // The agent makes its repository a partial clone whose objects are gone: reading the
    // baseline of calc.sh there would fetch them through an ssh command of its choosing.
    const bin = tree.path("bin");
    await Deno.mkdir(bin);
    const executable = await scriptedCodex(bin, {
      steps: [
        [
          "git config core.repositoryformatversion 1",
          "git config extensions.partialClone origin",
          "git config remote.origin.url ssh://example.invalid/x",
          "git config remote.origin.promisor true",
          `git config core.sshCommand "touch '${fetched}'; false"`,
          ": > .git/objects/info/alternates",
          "echo 2 > calc.sh",
        ].join(" && "),
      ],
      answer: "Done.",
    });
    await Deno.mkdir(tree.path(".agentv"));
    await Deno.writeTextFile(
      tree.path(".agentv/targets.yaml"),
      `targets:\n  - name: default\n    provider: codex\n    executable: ${executable}\n`,
    );
    const { rows } = await runEval({
      files: [tree.path("evals")],
      cwd: tree.root,
      env: { PATH, HOME: tree.path("home") },
      allowRun: true,
    });
    const row = rows[0]!;
    assert.equal(row.status, "ok", row.error ?? "");
    assert.equal(calls(row)[0]?.status, "ok", String(calls(row)[0]?.output));
    await assert.rejects(Deno.stat(filtered), Deno.errors.NotFound, "the clean filter ran");
    await assert.rejects(Deno.stat(fetched), Deno.errors.NotFound, "the ssh command ran");
    // The diff still compares with the commit as set up.
    const changes = row.workspace as { modified: string[]; diff: string; repo: unknown };
    assert.deepEqual(changes.repo, { url: "../repo", commit });
    assert.deepEqual(changes.modified, ["calc.sh"]);
    assert.match(changes.diff, /^-echo 1$/m);
  },
});
