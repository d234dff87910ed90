/**
 * Loader: globs (`--filter`, `guideline_patterns`) are matched in linear time with the
 * documented semantics, and an unusable glob is reported instead of crashing.
 */
import assert from "node:assert/strict";
import { globProblem, globToRegExp, loadGlobs, matchGlob } from "../../lib/text/glob.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";

const EVIL_GLOB = "*a*a*a*a*a*a*a*b";
const LONG_ID = "a".repeat(60);

Deno.test("globs keep their semantics: *, **, ?, {a,b} and [...] classes", async () => {
  const cases: [string, string, boolean][] = [
    ["case-*", "case-12", true],
    ["case-*", "case-1/2", false],
    ["src/**", "src/a/b.ts", true],
    ["**/*.md", "a.md", true],
    ["**/*.md", "x/y/a.md", true],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["{x,y{1,2}}.yaml", "y2.yaml", true],
    ["{x,y{1,2}}.yaml", "y3.yaml", false],
    ["[a-c]1", "b1", true],
    ["[!a-c]1", "d1", true],
    ["[!a-c]1", "a1", false],
    ["[^a]1", "a1", false],
    ["a[b", "a[b", true],
    ["(x).+$", "(x).+$", true],
    [EVIL_GLOB, LONG_ID + "b", true],
    [EVIL_GLOB, LONG_ID, false],
  ];
  await loadGlobs(cases.map(([glob]) => glob));
  for (const [glob, path, expected] of cases) {
    assert.equal(matchGlob(glob, path), expected, `${glob} on ${path}`);
  }
});

Deno.test("simple globs match without the regex engine exactly as the engine would", async () => {
  // Simple globs (an optional leading `**\/` and one segment of literals and single `*`s) take a
  // path of their own; every answer is checked against the compiled pattern.
  const globs = ["*", "*.md", "**/*.md", "**/SKILL.md", "case-*", "a*b*c", "**/a*b*a", "x", "**/"];
  const paths = [
    "",
    "a.md",
    "x/y/a.md",
    "SKILL.md",
    "d/SKILL.md",
    "case-",
    "case-12",
    "case-1/2",
    "abc",
    "aXbYc",
    "acb",
    "z/aba",
    "z/ab",
    "x",
    "x/",
    "y/x",
    ".md",
    "a.md/b",
  ];
  const fast = globs.map((g) => paths.map((p) => matchGlob(g, p)));
  await loadGlobs(["{force,the,engine}"]);
  globs.forEach((g, i) =>
    paths.forEach((p, j) => assert.equal(fast[i][j], globToRegExp(g).test(p), `${g} on '${p}'`))
  );
});

Deno.test("an invalid glob in --filter or a path argument is a usage error", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"]]),
  });
  await loadGlobs(["[z-a]"]);
  assert.match(globProblem("[z-a]") ?? "", /^glob '\[z-a\]' is invalid: /);
  const r = await cli(["run", "evals", "--filter", "[z-a]"], p.dir);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /--filter: glob '\[z-a\]' is invalid/);
  const v = await cli(["validate", "evals/[z-a].yaml"], p.dir);
  assert.equal(v.code, 2, v.err);
  assert.match(v.err, /Glob 'evals\/\[z-a\]\.yaml' is invalid/);
});
