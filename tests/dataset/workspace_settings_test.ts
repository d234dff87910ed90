/**
 * Loader: the workspace and integrity settings of an `execution:` block (`workspace_repo`,
 * `protected`, `post_checks`, `integrity`) are validated with located errors, in a case and at
 * the file level, and a case's own workspace replaces the file's.
 */
import assert from "node:assert/strict";
import { dataset, load } from "./_helpers.ts";
import { loadEvalCases } from "../../mod.ts";

const SHA = "5fc617818d9bda1aeef3d45515131a7a4287db1c";

function caseWith(id: string, execution: string): string {
  return `  - id: ${id}\n    expected_outcome: G\n    input: hi\n    execution:\n${
    execution.split("\n").map((l) => `      ${l}`).join("\n")
  }\n`;
}

Deno.test("workspace_repo, protected, post_checks and integrity mistakes are errors at their line and column", async () => {
  await using ds = await dataset({
    "evals/e.yaml": "evalcases:\n" + [
      caseWith("short-sha", `workspace_repo: {url: ../repo, commit: abc123}`),
      caseWith("no-url", `workspace_repo: {commit: "${SHA}"}`),
      caseWith("outside", `workspace_repo: {url: ../../elsewhere, commit: "${SHA}"}`),
      caseWith("ext", `workspace_repo: {url: "ext::sh -c id", commit: "${SHA}"}`),
      caseWith("empty-setup", `workspace_repo: {url: ../repo, commit: "${SHA}", setup: [[]]}`),
      caseWith(
        "both",
        `workspace_repo: {url: ../repo, commit: "${SHA}"}\nworkspace_template: ../t`,
      ),
      caseWith("abs-glob", `protected: [/etc/passwd]`),
      caseWith("up-glob", `protected: [tests/../../x]`),
      caseWith("checks-outside", `post_checks: ../../hidden`),
      caseWith("integrity", `integrity: maybe`),
      caseWith("ok", `workspace_repo: {url: ../repo, commit: "${SHA}", setup: [[npm, ci]]}`),
      caseWith("remote", `workspace_repo: {url: "git@example.com:o/r.git", commit: "${SHA}"}`),
      caseWith("guard", `protected: ["tests/**"]\npost_checks: ../hidden\nintegrity: off`),
    ].join(""),
  });
  const { cases, diagnostics } = await load(ds.path("evals/e.yaml"));
  assert.deepEqual(cases.map((c) => c.id), ["ok", "remote", "guard"]);
  const at = (id: string) => {
    const d = diagnostics.find((d) => d.message.startsWith(`Case '${id}'`));
    assert.ok(d, `no diagnostic for ${id}: ${diagnostics.map((d) => d.message).join("\n")}`);
    return d;
  };
  const located = (id: string) => [at(id).line, at(id).column, at(id).path];
  // The first case's settings are on line 6; each case takes 5 lines (6 with two settings).
  assert.deepEqual(located("short-sha"), [6, 46, "evalcases[0].execution.workspace_repo.commit"]);
  assert.match(at("short-sha").message, /'abc123' is not a full commit SHA: expected 40 hex/);
  assert.match(at("short-sha").message, /git rev-parse abc123/);
  assert.deepEqual(located("no-url"), [11, 23, "evalcases[1].execution.workspace_repo.url"]);
  assert.match(at("no-url").message, /missing url; add `url:`/);
  assert.deepEqual(located("outside"), [16, 29, "evalcases[2].execution.workspace_repo.url"]);
  assert.match(at("outside").message, /outside the dataset root .*; expected a repository inside/);
  assert.match(at("ext").message, /'ext::sh -c id' is refused: .*can run a command/);
  assert.match(at("empty-setup").message, /a setup command must not be empty/);
  assert.match(at("both").message, /workspace_repo and workspace_template both name/);
  assert.match(at("abs-glob").message, /'\/etc\/passwd' must be relative to the workspace/);
  assert.match(at("up-glob").message, /'tests\/\.\.\/\.\.\/x' must be relative/);
  assert.deepEqual(located("checks-outside"), [47, 20, "evalcases[8].execution.post_checks"]);
  assert.match(at("checks-outside").message, /outside the dataset root/);
  assert.match(at("integrity").message, /integrity must be on, off or a mapping/);
  assert.equal(diagnostics.length, 10);
});

Deno.test("file-level workspace settings are checked where they are written and given to every case; a case's own workspace replaces the file's", async () => {
  await using bad = await dataset({
    "evals/e.yaml":
      `execution:\n  workspace_repo:\n    url: /elsewhere/repo\n    commit: "${SHA}"\n` +
      "evalcases:\n" + caseWith("a", "target: default"),
  });
  const diagnostics: { line?: number; column?: number; message: string }[] = [];
  await assert.rejects(
    loadEvalCases(bad.path("evals/e.yaml"), { onDiagnostic: (d) => diagnostics.push(d) }),
    (e: Error & { diagnostics?: typeof diagnostics }) => {
      const [d] = e.diagnostics ?? [];
      assert.deepEqual([d?.line, d?.column], [3, 10]);
      assert.match(d?.message ?? "", /'\/elsewhere\/repo' resolves to \/elsewhere\/repo, outside/);
      return true;
    },
  );
  await using ds = await dataset({
    "evals/e.yaml": `execution:\n  workspace_repo: {url: ../repo, commit: "${SHA}"}\n` +
      "  protected: [tests/**]\nevalcases:\n" + caseWith("inherits", "target: default") +
      caseWith("template", "workspace_template: ../t") +
      caseWith("own-repo", `workspace_repo: {url: ../other, commit: "${"b".repeat(40)}"}`),
  });
  const { cases } = await load(ds.path("evals/e.yaml"));
  const by = Object.fromEntries(cases.map((c) => [c.id, c.execution]));
  assert.deepEqual(by.inherits.workspace_repo, { url: "../repo", commit: SHA });
  assert.deepEqual(by.inherits.protected, ["tests/**"]);
  assert.equal(by.template.workspace_repo, undefined);
  assert.equal(by.template.workspace_template, "../t");
  assert.equal((by["own-repo"].workspace_repo as { url: string }).url, "../other");
});
