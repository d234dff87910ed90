/**
 * Config-like files (`.env`, `.agentv/targets.*`, `.agentv/config.yaml`) are read by the main
 * process, outside the sandbox worker, under the sandbox's rules: a link that leads outside the
 * dataset root is refused, only regular files are read (a FIFO never hangs the run), at most
 * 1 MiB is read (a link to `/dev/zero` cannot eat memory), and nothing of a refused file is
 * ever printed. `run` and `generate` exit 2 with a diagnostic naming the file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { loadDotEnv } from "../../lib/dataset/env.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

/** A line that must never be printed (a fake AWS credentials file outside the root). */
const SECRET_LINE = "aws_secret_access_key = FAKE0SECRET0LINE0abcdef123456";
const CREDENTIALS = `[default]\naws_access_key_id = AKIAFAKEKEYID0000\n${SECRET_LINE}\n`;

const SUITE = `execution:
  target: default
evalcases:
  - id: greets
    expected_outcome: Says hi
    input: Say hi
    evaluators:
      - type: equals
        value: hi
`;

/** A mock target whose answer comes from `${{ GREETING }}` (a `.env` value). */
const ENV_TARGETS =
  'targets:\n  - name: default\n    provider: mock\n    response: "${{ GREETING }}"\n';

const MOCK_TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: hi\n";

/** A dataset root (it has `.git`) holding `files`. */
function dataset(files: Record<string, string>): Promise<Tree> {
  return tempTree({ "evals/suite.yaml": SUITE, ...files }, { git: true, prefix: "agentv-cfg-" });
}

async function cli(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err(), all: io.out() + io.err() };
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return "";
  }
}

async function mkfifo(path: string): Promise<void> {
  const { success } = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(success, `mkfifo ${path} failed`);
}

/** `size` bytes of valid YAML: `head` followed by comment lines. */
function padded(head: string, size: number): string {
  const line = "# padding padding padding padding padding padding padding padding\n";
  return head + line.repeat(Math.ceil((size - head.length) / line.length));
}

Deno.test("run refuses a targets.yaml linked outside the root and never prints its content", async () => {
  await using outside = await tempTree({ "credentials": CREDENTIALS });
  await using ds = await dataset({});
  await Deno.mkdir(ds.path(".agentv"));
  await Deno.symlink(outside.path("credentials"), ds.path(".agentv/targets.yaml"));
  for (const extra of [["--dry-run"], []]) {
    const r = await cli(["run", "evals", "--out", "r.jsonl", ...extra], ds.root);
    assert.ok(!r.all.includes("FAKE0SECRET"), r.all);
    assert.ok(!r.all.includes("AKIAFAKE"), r.all);
    assert.equal(r.code, 2, r.all);
    assert.match(r.err, /\.agentv\/targets\.yaml/);
    assert.match(r.err, /outside the dataset root/);
    assert.match(r.err, /copy the file into the root, or pass --root/);
  }
  // --root that contains the linked file makes it the user's choice again.
  const wide = await cli(
    ["run", "evals", "--dry-run", "--root", join(ds.root, ".."), "--out", "r.jsonl"],
    ds.root,
  );
  assert.notEqual(wide.code, 0); // the file is not a valid targets file…
  assert.doesNotMatch(wide.err, /outside the dataset root/); // …but it is no longer refused
});

Deno.test("run never uses the values of a .env linked outside the root", async () => {
  await using outside = await tempTree({ "env": "GREETING=from-outside\n" });
  await using ds = await dataset({ ".agentv/targets.yaml": ENV_TARGETS });
  await Deno.symlink(outside.path("env"), ds.path(".env"));
  const r = await cli(["run", "evals", "--out", "r.jsonl"], ds.root);
  assert.equal(r.code, 2, r.all);
  assert.match(r.err, /\.env: error: Refused to read the \.env file: it is a symbolic link to/);
  assert.match(r.err, /outside the dataset root/);
  assert.ok(!r.all.includes("from-outside"), r.all);
  assert.ok(!(await readOrEmpty(ds.path("r.jsonl"))).includes("from-outside"));
});

Deno.test("run reports a FIFO .env as not a regular file instead of hanging", async () => {
  await using ds = await dataset({ ".agentv/targets.yaml": ENV_TARGETS });
  await mkfifo(ds.path(".env"));
  const r = await cli(["run", "evals", "--out", "r.jsonl"], ds.root);
  assert.equal(r.code, 2, r.all);
  assert.match(r.err, /\.env: error: Refused to read the \.env file: it is a named pipe \(FIFO\)/);
  assert.match(r.err, /expected a regular file; replace it with a regular file/);
});

Deno.test("run refuses links to /dev/zero at once (.env, targets.yaml, --targets)", async () => {
  await using ds = await dataset({ ".agentv/targets.yaml": ENV_TARGETS });
  await Deno.symlink("/dev/zero", ds.path("evals/.env"));
  const env = await cli(["run", "evals", "--out", "r.jsonl"], ds.root);
  assert.equal(env.code, 2, env.all);
  assert.match(
    env.err,
    /evals\/\.env: error: Refused to read the \.env file: it is a symbolic link to '\/dev\/zero', outside the dataset root/,
  );

  // Named explicitly, a device is still refused: config files are regular files.
  const explicit = await cli(["run", "evals", "--dry-run", "--targets", "/dev/zero"], ds.root);
  assert.equal(explicit.code, 2, explicit.all);
  assert.match(
    explicit.err,
    /\/dev\/zero: error: Refused to read the targets file: it is a character device/,
  );

  await Deno.remove(ds.path(".agentv/targets.yaml"));
  await Deno.symlink("/dev/zero", ds.path(".agentv/targets.yaml"));
  const targets = await cli(["run", "evals", "--dry-run", "--out", "r.jsonl"], ds.root);
  assert.equal(targets.code, 2, targets.all);
  assert.match(
    targets.err,
    /targets\.yaml: error: Refused to read the targets file: it is a symbolic link to '\/dev\/zero'/,
  );
});

Deno.test("run refuses config-like files over 1 MiB: targets.yaml, config.yaml, .env", async () => {
  const big = 2 * 1024 * 1024;
  {
    await using ds = await dataset({ ".agentv/targets.yaml": padded(MOCK_TARGETS, big) });
    const r = await cli(["run", "evals", "--dry-run", "--out", "r.jsonl"], ds.root);
    assert.equal(r.code, 2, r.all);
    assert.match(
      r.err,
      /targets\.yaml: error: Refused to read the targets file: it is \d+ bytes; expected at most 1 MiB/,
    );
  }
  {
    await using ds = await dataset({
      ".agentv/targets.yaml": MOCK_TARGETS,
      ".agentv/config.yaml": padded("guideline_patterns: ['**/*.md']\n", big),
    });
    const r = await cli(["run", "evals", "--dry-run", "--out", "r.jsonl"], ds.root);
    assert.equal(r.code, 2, r.all);
    assert.match(
      r.err,
      /config\.yaml: error: Refused to read the config file: it is \d+ bytes; expected at most 1 MiB/,
    );
  }
  {
    await using ds = await dataset({
      ".agentv/targets.yaml": ENV_TARGETS,
      ".env": padded("GREETING=hi\n", big),
    });
    const r = await cli(["run", "evals", "--out", "r.jsonl"], ds.root);
    assert.equal(r.code, 2, r.all);
    assert.match(
      r.err,
      /\.env: error: Refused to read the \.env file: it is \d+ bytes; expected at most 1 MiB/,
    );
  }
});

Deno.test("generate refuses a targets.yaml and a .env linked outside the root", async () => {
  await using outside = await tempTree({ "credentials": CREDENTIALS, "env": "GREETING=x\n" });
  await using ds = await dataset({});
  await Deno.mkdir(ds.path(".agentv"));
  await Deno.symlink(outside.path("credentials"), ds.path(".agentv/targets.yaml"));
  const r = await cli(["generate", "rubrics", "evals/suite.yaml", "--dry-run"], ds.root);
  assert.equal(r.code, 2, r.all);
  assert.match(
    r.err,
    /Refused to read the targets file: it is a symbolic link to .*outside the dataset root/,
  );
  assert.ok(!r.all.includes("FAKE0SECRET"), r.all);

  await Deno.remove(ds.path(".agentv/targets.yaml"));
  await Deno.writeTextFile(ds.path(".agentv/targets.yaml"), MOCK_TARGETS);
  await Deno.symlink(outside.path("env"), ds.path(".env"));
  const env = await cli(["generate", "rubrics", "evals/suite.yaml", "--dry-run"], ds.root);
  assert.equal(env.code, 2, env.all);
  assert.match(env.err, /Refused to read the \.env file: it is a symbolic link to/);
});

Deno.test("run and validate still follow links to config-like files inside the root", async () => {
  await using ds = await dataset({
    ".shared/targets.yaml": ENV_TARGETS,
    ".shared/env": "GREETING=hi\n",
  });
  await Deno.mkdir(ds.path(".agentv"));
  await Deno.symlink(ds.path(".shared/targets.yaml"), ds.path(".agentv/targets.yaml"));
  await Deno.symlink(".shared/env", ds.path(".env"));
  const r = await cli(["run", "evals", "--out", "r.jsonl", "-q"], ds.root);
  assert.equal(r.code, 0, r.all);
  assert.match(await Deno.readTextFile(ds.path("r.jsonl")), /"verdict":"pass"/);
  // validate checks the linked targets file too (it used to skip symlinks silently).
  const v = await cli(["validate", "."], ds.root);
  assert.equal(v.code, 0, v.all);
  assert.match(v.out, /^✓ \.agentv\/targets\.yaml \(targets file\)$/m);
});

Deno.test("loadDotEnv reads no .env outside the root, nor through a linked folder", async () => {
  await using outside = await tempTree({ "evals/.env": "FROM=outside\n" });
  await using ds = await dataset({ ".env": "ROOT=root\n" });
  // A folder outside the root: only the root's own .env is read.
  assert.deepEqual(await loadDotEnv(outside.path("evals"), ds.root), { ROOT: "root" });
  await Deno.symlink(outside.path("evals"), ds.path("linked"));
  await assert.rejects(
    loadDotEnv(ds.path("linked"), ds.root),
    /Refused to read the \.env file: it lies in a linked folder: its real path is '.*evals\/\.env', outside the dataset root/,
  );
});
