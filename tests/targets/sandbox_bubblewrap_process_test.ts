/**
 * The bubblewrap sandbox for real (`bwrap`, the relay process and the forwarder): what a process
 * inside can read, write and reach, each attempt also made without the sandbox to show that the
 * sandbox is what stops it.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openSandbox, type SandboxRequest } from "../../lib/targets/sandbox_launch.ts";
import type { SandboxPolicy } from "../../lib/targets/sandbox_policy.ts";
import type { NetworkMode } from "../../lib/schema/sandbox.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const PROBE = fileURLToPath(new URL("./_sandbox_probe.ts", import.meta.url));
const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

function policy(network: NetworkMode, extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return { mode: "bubblewrap", network, allowHosts: [], readOnly: [], writable: [], ...extra };
}

/** Runs `request` in `box` (or without a sandbox); resolves to its exit code and output. */
async function run(
  box: { argv: string[]; env: Record<string, string> } | undefined,
  request: SandboxRequest,
): Promise<{ code: number; out: string; err: string }> {
  const [program, ...args] = box?.argv ?? request.argv;
  const output = await new Deno.Command(program, {
    args,
    cwd: request.cwd,
    env: { ...(box?.env ?? request.env) },
    clearEnv: true,
    stdin: "null",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

/** A folder tree for one test: a fake home with a key, a workspace and a folder outside it. */
async function setting(): Promise<Tree> {
  return await tempTree({
    "home/.ssh/id_rsa": "FAKE PRIVATE KEY\n",
    "home/.bash_history": "secret command\n",
    "workspace/README.md": "the task\n",
    "outside/.keep": "",
  }, { prefix: "agentv-sandbox-" });
}

/** A shell script that tries each escape and prints what succeeded. */
function escapes(tree: Tree, marker: string): string {
  return [
    `cat "$HOME/.ssh/id_rsa" > /dev/null 2>&1 && echo READ_KEY`,
    `cat '${tree.path("home/.ssh/id_rsa")}' > /dev/null 2>&1 && echo READ_KEY_BY_PATH`,
    `touch '${tree.path("outside")}/${marker}' 2>/dev/null && echo WROTE_OUTSIDE`,
    `echo done > written.txt && echo WROTE_WORKSPACE`,
    `touch /tmp/${marker} && echo WROTE_TMP`,
    `echo "HOME_ENTRIES=$(ls -A "$HOME" | wc -l)"`,
    `echo "PIDS=$(ls /proc | grep -c '^[0-9]')"`,
  ].join("; ");
}

Deno.test({
  name:
    "bubblewrap: the home is empty, nothing outside the workspace is writable, /tmp is private and the PIDs are its own; without the sandbox each attempt succeeds",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await setting();
    const marker = `agentv-escape-${crypto.randomUUID()}`;
    const request: SandboxRequest = {
      argv: [
        "sh",
        "-c",
        `${escapes(tree, marker)}; touch /etc/${marker} 2>/dev/null && echo WROTE_ETC; true`,
      ],
      env: { PATH, HOME: tree.path("home") },
      cwd: tree.path("workspace"),
      writable: [tree.path("workspace")],
    };
    const box = await openSandbox(policy("none"), request);
    let inside;
    try {
      inside = await run(box, request);
    } finally {
      await box.close();
      await Deno.remove(`/etc/${marker}`).catch(() => {});
    }
    assert.equal(inside.code, 0, inside.err);
    const said = inside.out.trim().split("\n");
    assert.deepEqual(said.filter((l) => /^(READ|WROTE)_/.test(l)), [
      "WROTE_WORKSPACE",
      "WROTE_TMP",
    ]);
    assert.ok(said.includes("HOME_ENTRIES=0"), inside.out);
    const pids = Number(said.find((l) => l.startsWith("PIDS="))?.slice(5));
    assert.ok(pids > 0 && pids < 10, `${pids} processes visible inside`);
    // What it wrote in the workspace is there; its /tmp was its own.
    assert.equal(await Deno.readTextFile(tree.path("workspace/written.txt")), "done\n");
    await assert.rejects(Deno.stat(`/tmp/${marker}`), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(tree.path(`outside/${marker}`)), Deno.errors.NotFound);

    // The same attempts without the sandbox (harmless ones only: no /etc) all succeed.
    const outside = await run(undefined, { ...request, argv: ["sh", "-c", escapes(tree, marker)] });
    await Deno.remove(`/tmp/${marker}`).catch(() => {});
    assert.deepEqual(
      outside.out.trim().split("\n").filter((l) => /^(READ|WROTE)_/.test(l)),
      ["READ_KEY", "READ_KEY_BY_PATH", "WROTE_OUTSIDE", "WROTE_WORKSPACE", "WROTE_TMP"],
    );
  },
});

/** Two loopback servers: the model endpoint and another one; each counts the requests it got. */
function servers() {
  const seen = { model: 0, other: 0 };
  const serve = (name: "model" | "other") =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
      seen[name]++;
      return new Response(`hello from ${name}\n`);
    });
  const model = serve("model");
  const other = serve("other");
  return {
    seen,
    model: model.addr.port,
    other: other.addr.port,
    async [Symbol.asyncDispose]() {
      await model.shutdown();
      await other.shutdown();
    },
  };
}

/** Runs the network probe with `attempts` in a sandbox with `network`. */
async function probe(
  tree: Tree,
  network: NetworkMode,
  model: number,
  attempts: string[],
  readOnly: string[] = [],
): Promise<{ results: Record<string, string>; refused: string[] }> {
  const request: SandboxRequest = {
    argv: [Deno.execPath(), "run", "--quiet", "--no-config", "--no-lock", "-A", PROBE, ...attempts],
    env: { PATH, HOME: tree.path("home") },
    cwd: tree.path("workspace"),
    writable: [tree.path("workspace")],
    readOnly: [PROBE, ...readOnly],
    endpoints: [{ host: "127.0.0.1", port: model }],
  };
  const box = await openSandbox(policy(network), request);
  try {
    const { code, out, err } = await run(box, request);
    assert.equal(code, 0, err);
    return { results: JSON.parse(out), refused: box.refused() };
  } finally {
    await box.close();
  }
}

Deno.test({
  name:
    "bubblewrap, network model-only: only the model endpoint answers; another loopback port and other hosts are refused, and the refusals are reported",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await setting();
    await using s = servers();
    const attempts = [
      `get:http://127.0.0.1:${s.model}/v1`,
      `tcp:127.0.0.1:${s.other}`,
      `get:http://example.com/`,
      `connect:3128:127.0.0.1:${s.model}`,
      `connect:3128:127.0.0.1:${s.other}`,
    ];
    const { results, refused } = await probe(tree, "model-only", s.model, attempts);
    assert.deepEqual(results, {
      [attempts[0]]: "ok: 200 hello from model",
      [attempts[1]]: "refused: ConnectionRefused",
      [attempts[2]]: "ok: 403 agentv sandbox: example.com:80 is not allowed " +
        "(network: model-only; see allow_hosts)",
      [attempts[3]]: "ok: HTTP/1.0 200 OK",
      [attempts[4]]: "ok: proxy: HTTP/1.1 403 Forbidden",
    });
    assert.deepEqual(refused, ["example.com:80", `127.0.0.1:${s.other}`]);
    assert.deepEqual(s.seen, { model: 2, other: 0 });
  },
});

Deno.test({
  name:
    "bubblewrap: network none reaches nothing, not even the model endpoint; network host reaches the host's loopback",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    await using tree = await setting();
    await using s = servers();
    const attempts = [`tcp:127.0.0.1:${s.model}`, `tcp:127.0.0.1:${s.other}`];
    const none = await probe(tree, "none", s.model, attempts);
    assert.deepEqual(Object.values(none.results), [
      "refused: ConnectionRefused",
      "refused: ConnectionRefused",
    ]);
    const host = await probe(tree, "host", s.model, attempts);
    assert.deepEqual(Object.values(host.results), ["ok: HTTP/1.0 200 OK", "ok: HTTP/1.0 200 OK"]);
    assert.deepEqual(s.seen, { model: 1, other: 1 });
  },
});

Deno.test({
  name:
    "bubblewrap: a folder the caller hides is empty inside except what is bound in it; one holding a system folder is never hidden",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    // Hidden areas are made from a visible folder: the system's own /usr/share (not a system
    // folder itself), with one folder of it bound back.
    const share = await Array.fromAsync(Deno.readDir("/usr/share"));
    const kept = share.find((e) => e.isDirectory)!.name;
    await using tree = await setting();
    const request: SandboxRequest = {
      argv: ["sh", "-c", `ls -A /usr/share | tr '\\n' ' '; echo; ls /usr/bin | wc -l`],
      env: { PATH, HOME: tree.path("home") },
      cwd: tree.path("workspace"),
      writable: [tree.path("workspace")],
      readOnly: [`/usr/share/${kept}`],
      hide: ["/", "/usr", "/usr/share"],
    };
    const box = await openSandbox(policy("none"), request);
    try {
      const { code, out, err } = await run(box, request);
      assert.equal(code, 0, err);
      const [listed, programs] = out.trim().split("\n");
      assert.equal(listed.trim(), kept, "only the folder bound back is in the hidden one");
      assert.ok(Number(programs) > 0, "/ and /usr, which hold the system, stay visible");
    } finally {
      await box.close();
    }
  },
});

/** A self-signed certificate and key for `localhost` (made with `openssl`), in `dir`. */
async function certificate(dir: string): Promise<{ cert: string; key: string; file: string }> {
  const file = `${dir}/cert.pem`;
  const keyFile = `${dir}/key.pem`;
  const made = await new Deno.Command("openssl", {
    args: ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
      .concat([
        "-addext",
        "subjectAltName=DNS:localhost",
        "-addext",
        "basicConstraints=critical,CA:FALSE",
      ])
      .concat(["-keyout", keyFile, "-out", file]),
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
  return { cert: await Deno.readTextFile(file), key: await Deno.readTextFile(keyFile), file };
}

const OPENSSL = (() => {
  try {
    return new Deno.Command("openssl", { args: ["version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name:
    "bubblewrap, network model-only: TLS to an allowed endpoint runs end to end through the proxy's CONNECT tunnel",
  ignore: bubblewrap.ignore || !OPENSSL,
  async fn() {
    bubblewrap.require();
    await using tree = await setting();
    const { cert, key, file } = await certificate(tree.path("outside"));
    const seen: string[] = [];
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
      (request) => {
        seen.push(new URL(request.url).protocol);
        return new Response("over tls\n");
      },
    );
    const attempt = `tls:3128:127.0.0.1:${server.addr.port}:${file}`;
    const { results } = await probe(tree, "model-only", server.addr.port, [attempt], [file]);
    assert.deepEqual(results, { [attempt]: "ok: HTTP/1.0 200 OK" });
    assert.deepEqual(seen, ["https:"]);
  },
});
