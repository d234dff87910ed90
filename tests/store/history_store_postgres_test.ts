/**
 * The team store on a real PostgreSQL server (started on loopback for this file): the same store
 * contract as SQLite, pushes from several writers at once, and a password kept out of messages.
 */
import assert from "node:assert/strict";
import { openHistoryStore } from "../../lib/store/open_store.ts";
import { AgentvError } from "../../lib/errors/agentv_error.ts";
import { locatePostgres, startPostgres } from "../_helpers/postgres.ts";
import { day } from "../_helpers/history_runs.ts";
import { storeContract, storedRun } from "./_store_contract.ts";

const postgres = await locatePostgres();

Deno.test({
  name: "the PostgreSQL store keeps the store contract, and concurrent writers agree",
  ignore: postgres.ignore,
  async fn(t) {
    const server = await startPostgres(postgres.require());
    try {
      const store = await openHistoryStore({ store: server.url, root: "/nonexistent" });
      try {
        await storeContract(t, store);
      } finally {
        await store.close();
      }
      await t.step("stores opened at once by several jobs push the same runs once", async () => {
        const stores = await Promise.all(
          [1, 2, 3].map(() => openHistoryStore({ store: server.url, root: "/nonexistent" })),
        );
        try {
          const run = storedRun({ runId: "shared", startedAt: day(30), scores: [1, 0, 1] });
          await Promise.all(stores.map((s) => s.putRun(run)));
          const held = await stores[0].listRuns({ from: day(30) });
          assert.deepEqual(held.map((r) => [r.run_id, r.rows]), [["shared", 3]]);
        } finally {
          await Promise.all(stores.map((s) => s.close()));
        }
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test({
  name: "a store that cannot be reached is named without its password",
  ignore: postgres.ignore,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = listener.addr as Deno.NetAddr;
    listener.close();
    const error = await openHistoryStore({
      store: `postgres://agentv:s3cret-pw@127.0.0.1:${port}/agentv`,
      root: "/nonexistent",
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof AgentvError, String(error));
    assert.equal(error.code, "store_unreachable");
    assert.match(
      error.message,
      /Cannot connect to the store postgres:\/\/agentv:\*\*\*@127\.0\.0\.1/,
    );
    assert.equal(error.message.includes("s3cret-pw"), false);
  },
});
