/**
 * "Comparing targets: a model sweep" (docs/commands/compare.md) stays true: its targets file loads (each
 * `extends:` resolved, no diagnostic) and its commands run as written, end to end, offline (the
 * run with `--dry-run` added: no key is needed, every target is a mock).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadTargetsFile } from "../../lib/dataset/targets_file.ts";
import { cli, containsSuite, project } from "../_helpers/run_project.ts";

const page = await Deno.readTextFile(new URL("../../docs/commands/compare.md", import.meta.url));
const section = page.slice(
  page.indexOf("## Comparing targets: a model sweep"),
  page.indexOf("## Comparing runs"),
);
const yaml = /```yaml\n([\s\S]+?)```/.exec(section)?.[1] ?? "";
const commands = (/```sh\n([\s\S]+?)```/.exec(section)?.[1] ?? "").trim().split("\n")
  .map((line) => line.replace(/\s+#.*$/, "").trim().split(/\s+/));

Deno.test("the docs' sweep targets file loads with each extends resolved", async () => {
  await using p = await project({ ".agentv/targets.yaml": yaml });
  const file = await loadTargetsFile(join(p.dir, ".agentv/targets.yaml"));
  assert.deepEqual(file.diagnostics, []);
  const mini = file.targets.find((t) => t.name === "gpt-4o-mini")!;
  assert.deepEqual([mini.provider, mini.model, mini.temperature, mini.judge_target], [
    "openai",
    "gpt-4o-mini",
    0,
    "judge",
  ]);
  const warm = file.targets.find((t) => t.name === "gpt-4o-warm")!;
  assert.deepEqual([warm.model, warm.temperature], ["gpt-4o", 0.7]);
});

Deno.test("the docs' sweep commands run as written (the run dry)", async () => {
  assert.equal(commands.length, 4, section);
  await using p = await project({
    ".agentv/targets.yaml": yaml,
    "evals/a.yaml": containsSuite("d", [["c1", "Mock"], ["c2", "Mock"], ["c3", "Mock"]]),
  });
  const [run, ...compares] = commands;
  assert.equal(run[0], "agentv");
  const ran = await cli([...run.slice(1), "--dry-run"], p.dir);
  assert.equal(ran.code, 0, ran.err + ran.out);
  assert.match(ran.out, /Targets: {3}3 /);
  const shown = await cli(compares[0].slice(1), p.dir);
  assert.equal(shown.code, 0, shown.err);
  assert.match(shown.out, /^Comparing 3 targets \(baseline gpt-4o\): 3 cases, 27 rows/m);
  const md = await cli(compares[1].slice(1), p.dir);
  assert.equal(md.code, 0, md.err);
  assert.match(await Deno.readTextFile(join(p.dir, "sweep.md")), /^## agentv compare: 3 targets/);
  const best = await cli(compares[2].slice(1), p.dir);
  assert.equal(best.code, 0, best.err); // the mocks answer alike: nobody is beaten
});
