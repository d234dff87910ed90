/**
 * Repository-backed workspaces (`execution.workspace_repo`), end to end through `runEval` with a
 * real `cli` target and a real git repository built in the test (offline): the case runs in a
 * checkout of its pinned commit (not the branch tip), after its setup commands, and its diff is
 * relative to that commit as set up; the repository is cloned once into the cache and fetched
 * only when a commit is missing; setup commands are the dataset's commands (consent as usual).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { UntrustedDatasetError } from "../../lib/run/run_permission.ts";
import type { WorkspaceChanges } from "../../lib/schema/workspace.ts";
import { commitFiles, git } from "../_helpers/git_repo.ts";
import { project } from "../_helpers/run_project.ts";

/**
 * The agent: lists its folder, reads what setup built, fixes the bug and prints every commit any
 * ref of its repository leads to (HEAD's history only: no branch, tag or remote is there).
 */
const AGENT = "ls -A > listing.txt && cat build.txt > seen.txt && " +
  "sed -i.bak 's/a - b/a + b/' calc.sh && rm calc.sh.bak && git log --all --format=%H";

function evalFile(commit: string, setup = `[[sh, -c, "echo built > build.txt"], [touch, .ready]]`) {
  return `evalcases:
  - id: fix
    expected_outcome: fixes add
    input: fix it
    execution:
      workspace_repo:
        url: ../repo
        commit: "${commit}"
        setup: ${setup}
    evaluators:
      - type: file_changes
        expected:
          - { path: calc.sh, change: modified, contains: "a + b" }
          - { path: listing.txt, change: added }
`;
}

const TARGETS = `targets:
  - name: default
    provider: cli
    command_template: ${JSON.stringify(AGENT)}
`;

async function repoProject() {
  const p = await project({ ".agentv/targets.yaml": TARGETS, "evals/.keep": "" });
  const [first, second] = await commitFiles(join(p.dir, "repo"), [
    { "calc.sh": "add() { echo $((a - b)); }\n", "README.md": "calc\n" },
    { "future.txt": "written after the pinned commit\n" },
  ]);
  return { p, first, second };
}

async function mirrors(root: string): Promise<string[]> {
  const dir = join(root, ".agentv", "cache", "repos");
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("workspace_repo: the case runs in a checkout of its pinned commit after its setup, and its diff is relative to it", async () => {
  const { p, first } = await repoProject();
  await using _ = p;
  await Deno.writeTextFile(p.path("evals/fix.yaml"), evalFile(first));
  const { rows } = await runEval({
    files: ["evals"],
    cwd: p.dir,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    allowRun: true,
  });
  const row = rows[0];
  assert.equal(row.error, null, String(row.error));
  assert.equal(row.score, 1, row.misses.join("; "));
  // HEAD is the pinned commit, not the tip: no ref leads to the later commit.
  assert.equal(row.candidate_answer.trim(), first);
  const changes = row.workspace as WorkspaceChanges;
  assert.deepEqual(changes.repo, { url: "../repo", commit: first });
  // What setup made is not the agent's change; what the agent did is, relative to the commit.
  assert.deepEqual(changes.added, ["listing.txt", "seen.txt"]);
  assert.deepEqual(changes.modified, ["calc.sh"]);
  assert.deepEqual(changes.deleted, []);
  assert.match(changes.diff, /^--- a\/calc\.sh\n\+\+\+ b\/calc\.sh\n/m);
  assert.match(changes.diff, /^-add\(\) \{ echo \$\(\(a - b\)\); \}$/m);
  assert.match(changes.diff, /^\+add\(\) \{ echo \$\(\(a \+ b\)\); \}$/m);
  assert.match(changes.diff, /^\+\.git$/m); // the listing: the checkout is a repository
  assert.doesNotMatch(changes.diff, /future\.txt/);
  assert.match(changes.diff, /^\+built$/m); // seen.txt: setup ran before the agent
  assert.match(changes.diff, /^\+\.ready$/m);
  // The source repository is untouched; the mirror is in the cache.
  assert.equal(await git(join(p.dir, "repo"), "status", "--porcelain"), "");
  assert.equal((await mirrors(p.dir)).length, 1);
});

Deno.test("workspace_repo: the repository is cloned once and fetched only when a pinned commit is missing", async () => {
  const { p, first, second } = await repoProject();
  await using _ = p;
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  await Deno.writeTextFile(p.path("evals/fix.yaml"), evalFile(first));
  await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: true });
  const [mirror] = await mirrors(p.dir);
  const mirrorDir = join(p.dir, ".agentv", "cache", "repos", mirror);
  const fetchHead = join(mirrorDir, "FETCH_HEAD");
  await assert.rejects(Deno.stat(fetchHead)); // cloned, never fetched
  // The same commits again: no fetch.
  await Deno.writeTextFile(p.path("evals/fix.yaml"), evalFile(second));
  const again = await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: true });
  assert.equal(again.rows[0].candidate_answer.trim(), `${second}\n${first}`);
  await assert.rejects(Deno.stat(fetchHead));
  // A commit made after the clone: fetched into the same mirror.
  const [third] = await commitFiles(join(p.dir, "repo"), [{ "calc.sh": "add() { :; }\n" }]);
  await Deno.writeTextFile(p.path("evals/fix.yaml"), evalFile(third));
  const fetched = await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: true });
  assert.equal(fetched.rows[0].candidate_answer.split("\n")[0], third);
  assert.ok((await Deno.stat(fetchHead)).isFile);
  assert.deepEqual(await mirrors(p.dir), [mirror]);
});

Deno.test("workspace_repo: a commit the repository does not have, and a setup command that fails, are error rows and the target never starts", async () => {
  const { p, first } = await repoProject();
  await using _ = p;
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  await Deno.writeTextFile(p.path("evals/fix.yaml"), evalFile("0".repeat(40)));
  const missing = await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: true });
  assert.equal(missing.rows[0].status, "error");
  assert.match(missing.rows[0].error ?? "", /Commit 0{40} is not in workspace_repo/);
  assert.equal(missing.rows[0].attempts, 0);

  await Deno.writeTextFile(
    p.path("evals/fix.yaml"),
    evalFile(first, `[[sh, -c, "echo broken >&2; exit 3"]]`),
  );
  const broken = await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: true });
  assert.equal(broken.rows[0].status, "error");
  assert.match(
    broken.rows[0].error ?? "",
    /Setup command "sh -c echo broken >&2; exit 3" of workspace_repo exited with code 3: broken/,
  );
  assert.equal(broken.rows[0].attempts, 0);
});

Deno.test("workspace_repo: setup commands are listed for consent at their line and column, and nothing starts when refused", async () => {
  const { p, first } = await repoProject();
  await using _ = p;
  await Deno.writeTextFile(
    p.path("evals/fix.yaml"),
    evalFile(first, `[[sh, -c, "touch ${p.dir}/SETUP_RAN"]]`),
  );
  const error = await runEval({
    files: ["evals"],
    cwd: p.dir,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    allowRun: false,
  }).then(() => undefined, (e) => e);
  assert.ok(error instanceof UntrustedDatasetError, String(error));
  const needs = error.requests.flatMap((r) => r.files.flatMap((f) => f.commands));
  const setup = needs.find((n) => n.kind === "workspace_setup");
  assert.ok(setup, JSON.stringify(needs));
  assert.equal(setup.file, join(p.dir, "evals", "fix.yaml"));
  assert.deepEqual([setup.line, setup.column], [9, 17]); // the first command of `setup:`
  assert.equal(setup.name, `../repo@${first}`);
  assert.deepEqual(setup.argv, ["sh", "-c", `touch ${p.dir}/SETUP_RAN`]);
  await assert.rejects(Deno.stat(join(p.dir, "SETUP_RAN")));
  await assert.rejects(Deno.stat(join(p.dir, ".agentv", "cache", "repos")));
});

Deno.test("workspace_repo on a target: its cases run in a checkout (its url relative to the targets file) unless a case names its own workspace; its setup is consented at the targets file", async () => {
  const p = await project({ "evals/.keep": "", "template/own.txt": "own\n" });
  await using _ = p;
  const [commit] = await commitFiles(join(p.dir, "repo"), [{ "calc.sh": "a - b\n" }]);
  await Deno.mkdir(join(p.dir, ".agentv"));
  await Deno.writeTextFile(
    join(p.dir, ".agentv/targets.yaml"),
    `targets:
  - name: default
    provider: cli
    command_template: "ls -A"
    workspace_repo:
      url: ../repo
      commit: "${commit}"
      setup: [[touch, .from-target]]
`,
  );
  await Deno.writeTextFile(
    p.path("evals/a.yaml"),
    `evalcases:
  - id: target-repo
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: calc.sh}]
  - id: own-template
    expected_outcome: x
    input: x
    execution: {workspace_template: ../template}
    evaluators: [{type: contains, value: own.txt}]
`,
  );
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  const refused = await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: false })
    .then(() => undefined, (e) => e);
  assert.ok(refused instanceof UntrustedDatasetError);
  const setup = refused.requests.flatMap((r) => r.files.flatMap((f) => f.commands))
    .find((n) => n.kind === "workspace_setup");
  assert.equal(setup?.file, join(p.dir, ".agentv", "targets.yaml"));
  assert.deepEqual([setup?.line, setup?.column], [8, 15]);

  const { rows } = await runEval({ files: ["evals"], cwd: p.dir, env, allowRun: true });
  const by = Object.fromEntries(rows.map((r) => [r.eval_id, r]));
  assert.deepEqual(by["target-repo"].candidate_answer.trim().split("\n"), [
    ".from-target",
    ".git",
    "calc.sh",
  ]);
  assert.deepEqual((by["target-repo"].workspace as WorkspaceChanges).repo, {
    url: "../repo",
    commit,
  });
  assert.equal(by["own-template"].candidate_answer.trim(), "own.txt");
  assert.equal((by["own-template"].workspace as WorkspaceChanges).repo, undefined);
});

Deno.test("a target's workspace_repo is refused with a ${{ }} reference in it, or beside a workspace_template", () => {
  const base = { name: "t", provider: "cli", command_template: "ls" };
  const repo = { url: "../repo", commit: "a".repeat(40) };
  assert.throws(
    () =>
      createTarget({ ...base, workspace_repo: { ...repo, url: "${{ REPO }}" } }, {
        env: { REPO: "https://example.com/r.git" },
      }),
    /Target 't': workspace_repo cannot use \$\{\{ \}\} references/,
  );
  assert.throws(
    () => createTarget({ ...base, workspace_repo: repo, workspace_template: "../t" }, { env: {} }),
    /names both workspace_repo and workspace_template/,
  );
  assert.throws(
    () => createTarget({ ...base, workspace_repo: { ...repo, commit: "main" } }, { env: {} }),
    /'main' is not a full commit SHA/,
  );
});

Deno.test("workspace_repo in a dry run: nothing is fetched, checked out or set up", async () => {
  const p = await project({ "evals/.keep": "" });
  await using _ = p;
  await Deno.writeTextFile(
    p.path("evals/fix.yaml"),
    evalFile("a".repeat(40), `[[sh, -c, "touch ${p.dir}/SETUP_RAN"]]`).replace(
      "url: ../repo",
      "url: https://127.0.0.1:1/unreachable.git",
    ),
  );
  const { rows } = await runEval({
    files: ["evals"],
    cwd: p.dir,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    dryRun: true,
  });
  assert.equal(rows[0].error, null, String(rows[0].error));
  assert.equal(rows[0].dry_run, true);
  await assert.rejects(Deno.stat(join(p.dir, "SETUP_RAN")));
  await assert.rejects(Deno.stat(join(p.dir, ".agentv", "cache", "repos")));
});
