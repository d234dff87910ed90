/**
 * Targets: an HTTP target's errors name the URL and the cause (connection refused, a host that
 * does not resolve, a TLS failure, a timeout), and a 404 from a URL without `/v1` says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectionProblem, notFoundHint } from "../../lib/targets/http_errors.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The error of the one case of a run against an openai target at `baseUrl`. */
async function runError(baseUrl: string, extra: string[] = []): Promise<string> {
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    api_key: sk-test-key-123456\n    model: m\n    base_url: ${baseUrl}\n    max_retries: 0\n`,
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"]]),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run", ...extra], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.status, "error");
  assert.doesNotMatch(row.error ?? "", /sk-test-key-123456/);
  return row.error ?? "";
}

Deno.test("an HTTP target whose server is not listening says 'connection refused' and names the URL", async () => {
  const port = closedPort();
  const error = await runError(`http://127.0.0.1:${port}/v1`);
  assert.match(
    error,
    new RegExp(`connection refused to http://127\\.0\\.0\\.1:${port}/v1/chat/completions`),
  );
  assert.match(error, /start the server or fix the URL/);
});

Deno.test("an HTTP target over https to a plain-http server says it is a TLS error and names the URL", async () => {
  await using server = startProviderServer("openai");
  const port = new URL(server.url).port;
  const error = await runError(`https://127.0.0.1:${port}/v1`);
  assert.match(
    error,
    new RegExp(`TLS error with https://127\\.0\\.0\\.1:${port}/v1/chat/completions`),
  );
  assert.match(error, /speaks https there \(or use http:\/\/\)/);
});

Deno.test("an HTTP target that does not answer in time names the URL it waited for", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "hang" } });
  const error = await runError(server.url, ["--timeout", "0.2"]);
  assert.match(
    error,
    new RegExp(
      `timed out after .* with no reply from ${server.url.replace(/[.]/g, "\\.")}/chat/completions`,
    ),
  );
});

Deno.test("a 404 from a base_url without /v1 hints at the missing /v1", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "status", status: 404, message: "Not Found" },
  });
  const origin = new URL(server.url).origin;
  const error = await runError(origin);
  assert.match(error, new RegExp(`HTTP 404: Not Found \\(POST ${origin}/chat/completions\\)`));
  assert.match(error, new RegExp(`does base_url need it \\(e\\.g\\. ${origin}/v1\\)\\?`));
  assert.equal(
    notFoundHint(`${origin}/v1/chat/completions`),
    undefined,
    "no hint when /v1 is there",
  );
});

Deno.test("connectionProblem() reads a DNS failure from the runtime's error chain and names the host", () => {
  // What Deno's fetch throws for a host that does not resolve (the test may not use the network).
  const cause = new Error(
    "error sending request for url (http://llm.internal.invalid/v1/chat/completions?key=abc): client error (Connect): dns error: failed to lookup address information: Name or service not known",
  );
  const problem = connectionProblem(
    new TypeError("fetch failed", { cause }),
    "http://llm.internal.invalid/v1/chat/completions?key=abc",
  );
  assert.match(
    problem,
    /^cannot resolve the host 'llm\.internal\.invalid' of http:\/\/llm\.internal\.invalid\/v1\/chat\/completions \(DNS lookup failed\)/,
  );
  assert.doesNotMatch(problem.split("(DNS")[0], /key=abc/, "the URL is shown without its query");
});

Deno.test("a model API that redirects is not followed: the key never reaches the other URL, the row says where it pointed", async () => {
  const seen: string[] = [];
  const other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${req.headers.get("authorization") ?? ""}`);
    return Response.json({ choices: [{ message: { role: "assistant", content: "Paris" } }] });
  });
  const elsewhere = `http://127.0.0.1:${other.addr.port}/steal`;
  const statuses = [301, 302, 303, 307, 308];
  // One run: a target per status, each behind its own redirecting server, a case per target.
  const servers = statuses.map((status) =>
    Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response(null, { status, headers: { location: `${elsewhere}?k=1` } }),
    )
  );
  try {
    await using p = await project({
      ".agentv/targets.yaml": "targets:\n" +
        statuses.map((status, i) =>
          `  - name: r${status}\n    provider: openai\n    api_key: sk-test-key-123456\n` +
          `    model: m\n    base_url: http://127.0.0.1:${servers[i].addr.port}/v1\n` +
          "    max_retries: 0\n"
        ).join(""),
      "evals/a.yaml": containsSuite(
        "a",
        statuses.map((status) => [`c${status}`, "Paris"]),
      ).replace(/( {2}- id: c(\d+)\n)/g, "$1    execution: {target: r$2}\n"),
    });
    const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir);
    assert.equal(r.code, 1, r.out + r.err);
    const rows = await rowsOf(join(p.dir, "o.jsonl"));
    assert.deepEqual(rows.map((row) => row.eval_id).sort(), statuses.map((s) => `c${s}`));
    for (const row of rows) {
      const status = row.eval_id.slice(1);
      assert.equal(row.status, "error");
      assert.doesNotMatch(row.error ?? "", /sk-test-key-123456/);
      assert.match(
        row.error ?? "",
        new RegExp(`redirected POST .* to ${elsewhere} \\(HTTP ${status}\\)`),
      );
      assert.match(row.error ?? "", /set base_url to the URL it redirects to/);
    }
  } finally {
    for (const server of servers) await server.shutdown();
    await other.shutdown();
  }
  assert.deepEqual(seen, [], "nothing reached the URL the redirects pointed at");
});
