/**
 * The tier guard (tests/project/test_tiers_test.ts) reads the tasks' paths and `--ignore` globs
 * itself; here Deno runs each tier's own `deno test` arguments over probe files named for every
 * tier, and takes exactly the files the guard says it takes.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { takes, tiers } from "./_tiers.ts";

const PROBES = [
  "tests/a_test.ts",
  "tests/cli/b_test.ts",
  "tests/scoring/code_judge_subprocess_test.ts",
  "tests/cli/main_process_test.ts",
  "tests/process_test.ts",
  "tests/render/page_browser_test.ts",
  "tests/targets/deep/agent_e2e_test.ts",
  "tests/fuzz/loader_fuzz_test.ts",
  "tests/project/jsr_publish_test.ts",
];

Deno.test("Deno runs in each tier exactly the probe files the tier guard says it takes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agentv-tiers-" });
  try {
    await Deno.writeTextFile(join(dir, "deno.json"), "{}\n");
    for (const file of PROBES) {
      await Deno.mkdir(join(dir, dirname(file)), { recursive: true });
      await Deno.writeTextFile(join(dir, file), `Deno.test(${JSON.stringify(file)}, () => {});\n`);
    }
    for (const tier of tiers()) {
      const output = await new Deno.Command(Deno.execPath(), {
        // Without --parallel, which changes only the order and the report's form.
        args: ["test", "--no-check", ...tier.args.filter((a) => a !== "--parallel")],
        cwd: dir,
        env: { NO_COLOR: "1" },
        stdin: "null",
      }).output();
      const text = new TextDecoder().decode(output.stdout);
      assert.equal(output.code, 0, text + new TextDecoder().decode(output.stderr));
      const ran = [...text.matchAll(/^running \d+ tests? from \.\/(\S+)$/gm)].map((m) => m[1]!);
      assert.deepEqual(ran.sort(), PROBES.filter((f) => takes(tier, f)).sort(), tier.task);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
