/**
 * CLI: the live progress line of `agentv run` in a real pseudo-terminal (util-linux `script`),
 * 40 columns wide, against a local OpenAI-compatible server that holds its replies until the
 * test has seen the line redraw while the calls are pending.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_buffer_io.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";

const COLUMNS = 40;
const WORKERS = 2;

/** Single-quotes `text` for `sh -c`. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

// deno-lint-ignore no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");

/** The live-line frames in raw terminal output: text written between `\r` and `ESC [K`. */
function frames(raw: string): string[] {
  // deno-lint-ignore no-control-regex
  return [...raw.replaceAll("\r\n", "\n").matchAll(/\r([^\r\n]*?)\x1b\[K/g)]
    .map((m) => stripAnsi(m[1]))
    .filter((f) => f !== "");
}

/** The elapsed time a frame shows (its first duration). */
function elapsed(frame: string): string | undefined {
  return frame.match(/(?:^|\s)(\d+ms|\d+\.\ds|\d+m\d\ds)(?:\s|$)/)?.[1];
}

async function scriptAvailable(): Promise<boolean> {
  try {
    return (await new Deno.Command("script", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output()).success;
  } catch {
    return false;
  }
}

Deno.test({
  // util-linux `script` (Linux); BSD `script` on macOS takes other flags, Windows has no pty.
  ignore: Deno.build.os !== "linux",
  name:
    "run in a 40-column terminal redraws one clipped progress line while calls are pending and ends on the rows written",
  async fn() {
    if (!await scriptAvailable()) {
      throw new Error(
        "util-linux `script` is needed to give `agentv run` a pseudo-terminal: " +
          "apt-get install -y bsdutils (Debian) or util-linux",
      );
    }
    // The first WORKERS calls are held until one more request arrives: the test sends it once it
    // has seen the line redraw with a new elapsed time while those calls were pending.
    await using server = startProviderServer("openai", {
      fallback: "The capital is Paris",
      barrier: WORKERS + 1,
    });
    const ids = ["c1", "c2", "c3", "c4", "c5"];
    await using tree = await tempTree({
      ".agentv/targets.yaml":
        `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: sk-test\n    model: m\n`,
      "evals/slow.yaml": `evalcases:\n${
        ids.map((id, i) =>
          `  - id: ${id}\n    expected_outcome: names the city\n    input: Which city?\n    evaluators: [{type: contains, value: ${
            i === 1 ? "Rome" : "Paris"
          }}]\n`
        ).join("")
      }`,
    }, { git: true });
    const out = join(tree.dir, "out.jsonl");
    const command = [
      Deno.execPath(),
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "--allow-run",
      "--unstable-worker-options",
      join(REPO_ROOT, "main.ts"),
      "run",
      "evals",
      "--out",
      out,
      "--workers",
      String(WORKERS),
      "--timeout",
      "60",
    ].map(shellQuote).join(" ");
    const child = new Deno.Command("script", {
      args: ["-qfec", `stty cols ${COLUMNS} rows 24; exec ${command}`, "/dev/null"],
      cwd: tree.dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(child.stderr).text();

    let raw = "";
    let released = false;
    let pendingFrames: string[] = [];
    let heldFrom = -1;
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      raw += chunk;
      if (released) continue;
      if (heldFrom === -1 && server.requests.length >= WORKERS) heldFrom = frames(raw).length;
      if (heldFrom === -1) continue;
      pendingFrames = frames(raw).slice(heldFrom);
      const times = new Set(pendingFrames.map(elapsed));
      if (pendingFrames.length >= 2 && times.size >= 2) {
        released = true;
        const reply = await fetch(`${server.url}/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ messages: [{ role: "user", content: "release" }] }),
        });
        await reply.body?.cancel();
      }
    }
    const status = await child.status;
    const context = `exit ${status.code}\n--- raw output ---\n${
      JSON.stringify(raw)
    }\n--- stderr ---\n${await stderr}`;
    assert.ok(released, `the progress line never redrew while calls were pending\n${context}`);

    // While the calls were held, every frame showed 0 done and the elapsed time moved on.
    assert.ok(pendingFrames.every((f) => f.startsWith(`0/${ids.length} `)), context);
    const times = pendingFrames.map(elapsed);
    assert.ok(times.every((t) => t !== undefined), context);
    assert.notEqual(times[0], times.at(-1), context);

    // No frame is wider than the terminal (the frames hold only one-column characters).
    const all = frames(raw);
    for (const frame of all) assert.ok([...frame].length <= COLUMNS, `${frame}\n${context}`);

    // The last frame's counts are the rows in the results file.
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(rows.length, ids.length);
    const last = all.at(-1)!;
    const verdicts = (v: string) => rows.filter((r) => r.status === "ok" && r.verdict === v).length;
    const errors = rows.filter((r) => r.status === "error").length;
    assert.match(
      last,
      new RegExp(
        `^${rows.length}/${ids.length} +✓${verdicts("pass")} ~${verdicts("borderline")} ✗${
          verdicts("fail")
        } !${errors} `,
      ),
      context,
    );
    assert.equal(verdicts("fail"), 1, "c2 expects Rome");
    assert.equal(status.code, 1, context);
    assert.match(stripAnsi(raw), new RegExp(`Cases: +${rows.length} run`), context);
    assert.match(stripAnsi(raw), /Failed \(1\)\r?\n +✗ c2 \[default\] +0\.000/, context);
  },
});
