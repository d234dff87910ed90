import assert from "node:assert/strict";
import { generateCommand } from "../../lib/cli/generate.ts";
import { UsageError } from "../../lib/errors/agentv_error.ts";
import { type RecordedRequest, startProviderServer } from "../_helpers/provider_servers.ts";
import { createBufferIO } from "./_buffer_io.ts";
import { FIXTURES, userPrompt } from "../scoring/judged/_judge.ts";

function rubricsFor(request: RecordedRequest): string {
  const outcome =
    userPrompt(request.body).split("[[ ## expected_outcome ## ]]\n")[1].split("\n")[0];
  return JSON.stringify({ rubrics: [{ id: "r1", description: `${outcome} (checked)` }] });
}

async function workspace(serverUrl: string, judgeTarget = "judge"): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/.agentv`);
  await Deno.mkdir(`${dir}/evals`);
  await Deno.writeTextFile(
    `${dir}/.agentv/targets.yaml`,
    [
      "targets:",
      "  - name: default",
      "    provider: mock",
      "    response: hi",
      `    judge_target: ${judgeTarget}`,
      "  - name: judge",
      "    provider: openai",
      `    base_url: ${serverUrl}`,
      "    api_key: ${{ JUDGE_KEY }}",
      "    model: judge-model",
      "    max_retries: 0",
      "",
    ].join("\n"),
  );
  await Deno.copyFile(`${FIXTURES}/generate/dataset.yaml`, `${dir}/evals/dataset.yaml`);
  return dir;
}

const args = (positionals: string[], values: Record<string, string | boolean> = {}) => ({
  positionals,
  values,
});

Deno.test("generate rubrics --dry-run prints the diff and leaves the file alone", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: rubricsFor },
  });
  const dir = await workspace(server.url);
  try {
    const io = createBufferIO({ cwd: dir, env: { JUDGE_KEY: "sk-test-SECRET-123" } });
    const before = await Deno.readTextFile(`${dir}/evals/dataset.yaml`);
    // --allow-run: ${{ JUDGE_KEY }} goes to a loopback judge (the dataset's targets file).
    const code = await generateCommand.run(
      args(["evals/dataset.yaml"], { "dry-run": true, "allow-run": true }),
      io,
    );
    assert.equal(code, 0, io.err());
    assert.equal(await Deno.readTextFile(`${dir}/evals/dataset.yaml`), before);
    assert.match(io.out(), /^--- a\/dataset\.yaml\n\+\+\+ b\/dataset\.yaml\n@@ /);
    assert.match(
      io.out(),
      /\n\+ {4}rubrics:\n\+ {6}- id: r1\n\+ {8}description: Explains recursion with a base case \(checked\)\n/,
    );
    assert.match(io.err(), /Generating rubrics for: evals\/dataset\.yaml \(judge: judge\)/);
    assert.match(io.err(), /Would update 3 eval cases with generated rubrics/);
    assert.match(
      io.err(),
      /Skipped 2 eval cases: has-rubrics \(already has rubrics\), no-outcome-yet \(no expected_outcome\)/,
    );
    assert.equal(server.requests[0].headers.authorization, "Bearer sk-test-SECRET-123");
    assert.ok(!io.out().includes("SECRET") && !io.err().includes("SECRET"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("generate rubrics writes the file", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: rubricsFor },
  });
  const dir = await workspace(server.url);
  try {
    const io = createBufferIO({ cwd: dir, env: { JUDGE_KEY: "k-123456" } });
    const code = await generateCommand.run(args(["evals/dataset.yaml"], { "allow-run": true }), io);
    assert.equal(code, 0, io.err());
    assert.match(io.out(), /Updated 3 eval cases with generated rubrics/);
    const after = await Deno.readTextFile(`${dir}/evals/dataset.yaml`);
    assert.match(after, /# trailing comment inside the last case\n$/);
    assert.equal(after.match(/id: r1/g)?.length, 2); // two block cases; the flow case holds JSON
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("generate rubrics: a judge_target naming no target is a usage error", async () => {
  await using server = startProviderServer("openai");
  const dir = await workspace(server.url, "jugde");
  try {
    const io = createBufferIO({ cwd: dir, env: { JUDGE_KEY: "k-123456" } });
    await assert.rejects(
      () => generateCommand.run(args(["evals/dataset.yaml"]), io),
      (e) =>
        e instanceof UsageError &&
        /targets.yaml:5:19: judge_target 'jugde' is not defined/.test(e.message),
    );
    assert.equal(server.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("generate rubrics: unknown --target and --judge-target names are usage errors", async () => {
  await using server = startProviderServer("openai");
  const dir = await workspace(server.url);
  try {
    const io = createBufferIO({ cwd: dir, env: { JUDGE_KEY: "k-123456" } });
    await assert.rejects(
      () => generateCommand.run(args(["evals/dataset.yaml"], { target: "nope" }), io),
      (e) => e instanceof UsageError && /Unknown target 'nope'/.test(e.message),
    );
    await assert.rejects(
      () => generateCommand.run(args(["evals/dataset.yaml"], { "judge-target": "gone" }), io),
      (e) => e instanceof UsageError && /--judge-target 'gone' names no target/.test(e.message),
    );
    await assert.rejects(() => generateCommand.run(args([]), io), UsageError);
    assert.equal(server.requests.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("generate rubrics: no 'has no judge_target' note when the target judges itself; when every judge call failed it says so", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "status", status: 400, message: "bad request" },
  });
  const dir = await workspace(server.url);
  try {
    // The judge target is the judge itself (judge_target: judge on 'judge').
    const targets = await Deno.readTextFile(`${dir}/.agentv/targets.yaml`);
    await Deno.writeTextFile(
      `${dir}/.agentv/targets.yaml`,
      targets.replace("    max_retries: 0\n", "    max_retries: 0\n    judge_target: judge\n"),
    );
    const io = createBufferIO({ cwd: dir, env: { JUDGE_KEY: "k-123456" } });
    const code = await generateCommand.run(
      args(["evals/dataset.yaml"], { target: "judge", "allow-run": true }),
      io,
    );
    assert.equal(code, 1);
    assert.doesNotMatch(io.err(), /has no judge_target/);
    assert.match(
      io.out(),
      /^No eval case updated: the judge failed for all 3 cases that needed rubrics \(errors below\)$/m,
    );
    assert.doesNotMatch(io.out(), /already have rubrics/);
    assert.equal(io.err().match(/^Error: /gm)?.length, 3, io.err());
    // Without a judge_target the target writes them itself, and the note says so.
    await Deno.writeTextFile(`${dir}/.agentv/targets.yaml`, targets);
    const fallback = createBufferIO({ cwd: dir, env: { JUDGE_KEY: "k-123456" } });
    await generateCommand.run(
      args(["evals/dataset.yaml"], { target: "judge", "allow-run": true }),
      fallback,
    );
    assert.match(fallback.err(), /Note: target 'judge' has no judge_target; using it/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
