/**
 * The team store end to end on a real PostgreSQL server: CI jobs push their runs (each twice, as
 * a retried job would), `agentv trend` on the team store gives the verdicts it gives on the
 * embedded store, and `agentv view --store` serves it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { day, writeRun } from "../_helpers/history_runs.ts";
import { locatePostgres, startPostgres } from "../_helpers/postgres.ts";
import { createBufferIO } from "./_buffer_io.ts";

const postgres = await locatePostgres();

Deno.test({
  name: "agentv push and trend work on a PostgreSQL team store as on the embedded one",
  ignore: postgres.ignore,
  async fn() {
    const server = await startPostgres(postgres.require());
    const root = await Deno.makeTempDir({ prefix: "agentv-team-" });
    try {
      const cli = async (...args: string[]) => {
        const io = createBufferIO({ cwd: root, env: { AGENTV_STORE: server.url } });
        return { code: await runCli(args, io), out: io.out(), err: io.err() };
      };
      const flat = [0.9, 0.8, 1, 0.7, 0.9, 0.6, 1, 0.8];
      for (let i = 0; i < 5; i++) {
        // Each "CI job" writes its run on its own machine and pushes it (twice: a retry).
        const dir = join(root, `job-${i}`);
        const file = await writeRun(dir, { runId: `run-${i}`, startedAt: day(i), scores: flat });
        assert.equal((await cli("push", file)).code, 0);
        assert.equal((await cli("push", file)).code, 0);
      }
      const flatTrend = await cli("trend", "--fail-on-degrading");
      assert.equal(flatTrend.code, 0, flatTrend.err);
      assert.match(flatTrend.out, /qa on gpt: 5 run\(s\)/);
      const down = await writeRun(join(root, "job-5"), {
        runId: "latest",
        startedAt: day(9),
        scores: [0.3, 0.2, 0.5, 0.1, 0.4, 0.2, 0.5, 0.3],
      });
      assert.equal((await cli("push", down)).code, 0);
      const degrading = await cli("trend", "--fail-on-degrading");
      assert.equal(degrading.code, 1, degrading.out + degrading.err);
      assert.match(degrading.out, /degrading: latest vs the 5 runs before it: mean Δ -0\.525/);
      const folders = await cli("trend", join(root, "job-0"));
      assert.equal(folders.code, 2);
      assert.match(folders.err, /does not index folders into it/);

      const io = createBufferIO({ cwd: root, env: { AGENTV_STORE: server.url } });
      const exit = runCli(["view"], io);
      try {
        await Promise.race([io.waitFor(/Open http:\/\/127\.0\.0\.1:\d+\/\?token=/), exit]);
        assert.match(
          io.out(),
          /agentv view: 6 run\(s\) in postgres:\/\/agentv@127\.0\.0\.1:\d+\/postgres/,
        );
        const url = new URL(/Open (\S+)/.exec(io.out())![1]);
        const res = await fetch(new URL("/api/runs", url), {
          headers: { "x-agentv-token": url.searchParams.get("token")! },
        });
        assert.equal((await res.json()).runs.length, 6);
      } finally {
        io.interrupt();
        assert.equal(await exit, 0, io.err());
      }
    } finally {
      await Deno.remove(root, { recursive: true });
      await server.stop();
    }
  },
});
