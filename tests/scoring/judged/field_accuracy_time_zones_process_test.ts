/**
 * Judged evaluators: `field_accuracy` under time zones other than the machine's. A zone is set
 * per process (`TZ`), so these run Deno processes: a probe that scores dates under two zones,
 * and the CLI scoring the numbers fixture, the same under two zones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ResultRow } from "../../../mod.ts";
import { evaluator } from "./_helpers.ts";

/** The fixtures folder of these tests. */
const FIXTURES = fileURLToPath(new URL("../../../fixtures/judged/", import.meta.url));

/** The `field_accuracy` fixture dataset. */
const FIELDS_EVAL = join(FIXTURES, "field_accuracy/evals/invoice.yaml");

/** Runs the field fixture through the CLI in a subprocess with `TZ` set; rows by id. */
async function fieldRowsUnderTz(tz: string): Promise<Record<string, ResultRow>> {
  const out = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const main = fileURLToPath(new URL("../../../main.ts", import.meta.url));
    const config = fileURLToPath(new URL("../../../deno.json", import.meta.url));
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--unstable-worker-options",
        "--config",
        config,
        main,
        "run",
        FIELDS_EVAL,
        "--out",
        out,
        "--quiet",
      ],
      env: { TZ: tz, NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(code === 0 || code === 1, new TextDecoder().decode(stderr));
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
      JSON.parse(l) as ResultRow
    );
    return Object.fromEntries(rows.map((r) => [r.eval_id, r]));
  } finally {
    await Deno.remove(out);
  }
}

Deno.test("field_accuracy: exact numbers, expected-missing skipped and noted, same under two TZ", async () => {
  const results = await Promise.all(
    ["Pacific/Kiritimati", "America/Los_Angeles"].map(fieldRowsUnderTz),
  );
  for (const r of results) {
    const weighted = evaluator(r.weighted, "fields");
    // invoice_number(2) hit, total(1) hit, tax(1) miss (5% > 4%), issued(1) hit; po_number skipped
    assert.equal(weighted.score, 0.8);
    assert.equal(weighted.hits.length, 3);
    assert.equal(weighted.misses.length, 1);
    assert.match(weighted.misses[0], /tax/);
    assert.ok(!weighted.hits.some((h) => h.includes("po_number")), "skipped field is no hit");
    assert.match(JSON.stringify([weighted.reasoning, weighted.details]), /po_number/);
    const dates = evaluator(r["dates-and-relative"], "fields");
    assert.equal(dates.score, 1, JSON.stringify(dates.misses));
    assert.equal(dates.hits.length, 3);
    const aon = evaluator(r["all-or-nothing"], "fields");
    assert.equal(aon.score, 0);
    assert.equal(aon.hits.length, 1);
  }
  assert.deepEqual(
    results[0].weighted.evaluator_results,
    results[1].weighted.evaluator_results,
  );
  assert.deepEqual(
    results[0]["dates-and-relative"].evaluator_results,
    results[1]["dates-and-relative"].evaluator_results,
  );
});

for (const tz of ["America/New_York", "Asia/Tokyo"]) {
  Deno.test(`field_accuracy dates compare as calendar dates under TZ=${tz}`, async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--allow-env", `${FIXTURES}/tz_probe.ts`],
      env: { TZ: tz },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const probe = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(probe.tz, tz);
    // The zone really is in effect (negative offset in New York, positive in Tokyo).
    assert.equal(probe.offset, tz === "Asia/Tokyo" ? -540 : 300);
    assert.equal(probe.outcome.score, 1, JSON.stringify(probe.outcome.misses));
    assert.deepEqual(probe.outcome.misses, []);
    assert.equal(probe.outcome.hits.length, 4);
  });
}
