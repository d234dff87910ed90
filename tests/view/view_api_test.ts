/**
 * The viewer's API and guard over the embedded SQLite store (handlers called directly), and the
 * guard's refusals of raw requests a browser would never send.
 */
import assert from "node:assert/strict";
import { openHistoryStore } from "../../lib/store/open_store.ts";
import { checkRequest, climbs } from "../../lib/view/guard.ts";
import { viewContract } from "./_view_contract.ts";

Deno.test("the viewer's API over SQLite answers, labels and refuses as it should", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "agentv-view-" });
  try {
    const store = await openHistoryStore({ root: dir });
    try {
      await viewContract(t, store, dir);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("climbs() finds .. in every spelling, and nothing in ordinary paths", () => {
  for (
    const path of [
      "/..",
      "/a/../b",
      "/%2e%2e/x",
      "/%2E%2e%2Fx",
      "/%252e%252e/x",
      "/a\\b",
      "/%5c",
      "/%zz",
    ]
  ) {
    assert.equal(climbs(path), true, path);
  }
  for (const path of ["/", "/run", "/api/runs", "/a..b", "/..a", "/case"]) {
    assert.equal(climbs(path), false, path);
  }
});

Deno.test("checkRequest() reads .. from the URL as sent, before it is normalised", () => {
  // A URL object would turn /a/../api/runs into /api/runs: the guard looks at the text.
  const req = {
    url: "http://127.0.0.1:1/a/../api/runs",
    headers: new Headers({ host: "127.0.0.1:1" }),
    method: "GET",
  } as unknown as Request;
  assert.equal(checkRequest(req, { token: "t", port: 1 })?.status, 400);
});
