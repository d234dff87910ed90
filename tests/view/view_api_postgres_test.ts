/** The viewer's API and guard over a PostgreSQL team store: the same suite as over SQLite. */
import { openHistoryStore } from "../../lib/store/open_store.ts";
import { locatePostgres, startPostgres } from "../_helpers/postgres.ts";
import { viewContract } from "./_view_contract.ts";

const postgres = await locatePostgres();

Deno.test({
  name: "the viewer's API over PostgreSQL answers, labels and refuses as it should",
  ignore: postgres.ignore,
  async fn(t) {
    const server = await startPostgres(postgres.require());
    const dir = await Deno.makeTempDir({ prefix: "agentv-view-pg-" });
    try {
      const store = await openHistoryStore({ store: server.url, root: dir });
      try {
        await viewContract(t, store, dir);
      } finally {
        await store.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
      await server.stop();
    }
  },
});
