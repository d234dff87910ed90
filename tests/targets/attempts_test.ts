/**
 * A row's `attempts` counts every request sent, transport re-sends included: against a server
 * that reads a request and then closes the connection without answering, the sum of `attempts`
 * over the rows equals the number of requests the server received.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

/**
 * A raw HTTP/1.1 server on 127.0.0.1: answers an OpenAI-style reply and keeps the connection
 * alive, except that every request whose number is a multiple of `faultEvery` is read and then
 * dropped (the connection closes without a reply). Counts every request head it reads.
 */
function startDroppingServer(faultEvery: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const handlers = new Set<Promise<void>>();
  let requests = 0;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const body = JSON.stringify({
    choices: [{ message: { role: "assistant", content: "ok" } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  const reply = encoder.encode(
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n` +
      `connection: keep-alive\r\n\r\n${body}`,
  );

  async function serve(conn: Deno.Conn): Promise<void> {
    const chunk = new Uint8Array(64 * 1024);
    let buffered = "";
    const more = async () => {
      const n = await conn.read(chunk);
      if (n === null) return false;
      buffered += decoder.decode(chunk.subarray(0, n));
      return true;
    };
    try {
      for (;;) {
        let end: number;
        while ((end = buffered.indexOf("\r\n\r\n")) < 0) if (!await more()) return;
        const head = buffered.slice(0, end);
        if (/transfer-encoding: *chunked/i.test(head)) {
          // A chunked body ends with the zero-length chunk.
          let last: number;
          while ((last = buffered.indexOf("\r\n0\r\n\r\n", end)) < 0) if (!await more()) return;
          buffered = buffered.slice(last + 7);
        } else {
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          while (buffered.length < end + 4 + length) if (!await more()) return;
          buffered = buffered.slice(end + 4 + length);
        }
        requests++;
        if (requests % faultEvery === 0) return; // read it, then drop the connection
        await conn.write(reply);
      }
    } catch {
      // the client went away
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  }

  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      const handler = serve(conn);
      handlers.add(handler);
      handler.finally(() => handlers.delete(handler));
    }
  })();

  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/v1`,
    get requests() {
      return requests;
    },
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await accepting.catch(() => {});
      await Promise.all(handlers);
    },
  };
}

Deno.test("attempts equals the requests the server received when connections are dropped", async () => {
  const server = startDroppingServer(3);
  const cases = 24;
  try {
    await using tree = await tempTree({
      ".agentv/targets.yaml": [
        "targets:",
        "  - name: default",
        "    provider: openai",
        `    base_url: ${server.url}`,
        "    api_key: sk-local",
        "    model: m",
        "    max_retries: 5",
        "    retry_initial_delay_ms: 0",
        "",
      ].join("\n"),
      "evals/ds.yaml": [
        "execution:",
        "  evaluators:",
        "    - {type: contains, value: ok}",
        "evalcases:",
        ...Array.from({ length: cases }, (_, i) => [
          `  - id: c${i}`,
          "    expected_outcome: Says ok",
          "    input: Say ok",
        ]).flat(),
        "",
      ].join("\n"),
    }, { git: true });
    const { rows } = await runEval({
      files: [join(tree.root, "evals/ds.yaml")],
      env: {},
      cwd: tree.root,
      // one case at a time: every request after the first goes out on a kept-alive connection
      workers: 1,
      timeoutMs: 30_000,
    });
    assert.equal(rows.length, cases);
    assert.ok(rows.every((r) => r.status === "ok"), JSON.stringify(rows.map((r) => r.error)));
    const attempts = rows.reduce((sum, r) => sum + r.attempts, 0);
    assert.equal(
      attempts,
      server.requests,
      `rows record ${attempts} attempts, the server received ${server.requests} requests`,
    );
    assert.ok(attempts > cases, "no request was dropped: the test proves nothing");
  } finally {
    await server.close();
  }
});
