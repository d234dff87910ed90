/**
 * `agentv validate` reports the config-like files that `run` refuses to read (a link leading
 * outside the dataset root, a FIFO or device, a file over 1 MiB) instead of skipping them
 * silently, and never prints the content of a refused file.
 */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "./_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const SECRET_LINE = "aws_secret_access_key = FAKE0SECRET0LINE0abcdef123456";
const CREDENTIALS = `[default]\naws_access_key_id = AKIAFAKEKEYID0000\n${SECRET_LINE}\n`;

const SUITE = `evalcases:
  - id: greets
    expected_outcome: Says hi
    input: Say hi
    evaluators:
      - type: equals
        value: hi
`;

const MOCK_TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: hi\n";

function dataset(files: Record<string, string>): Promise<Tree> {
  return tempTree({ "evals/suite.yaml": SUITE, ...files }, { git: true, prefix: "agentv-vcfg-" });
}

async function validate(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(["validate", ...args], io);
  return { code, out: io.out(), err: io.err(), all: io.out() + io.err() };
}

async function mkfifo(path: string): Promise<void> {
  const { success } = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(success, `mkfifo ${path} failed`);
}

function padded(head: string, size: number): string {
  const line = "# padding padding padding padding padding padding padding padding\n";
  return head + line.repeat(Math.ceil((size - head.length) / line.length));
}

Deno.test("validate reports a targets.yaml linked outside the root without printing it", async () => {
  await using outside = await tempTree({ "credentials": CREDENTIALS });
  await using ds = await dataset({});
  await Deno.mkdir(ds.path(".agentv"));
  await Deno.symlink(outside.path("credentials"), ds.path(".agentv/targets.yaml"));
  for (const args of [["."], [".agentv/targets.yaml"], [".", "--json"], ["evals"]]) {
    const r = await validate(args, ds.root);
    assert.ok(!r.all.includes("FAKE0SECRET"), r.all);
    assert.ok(!r.all.includes("AKIAFAKE"), r.all);
    if (args[0] === "evals") continue; // only the eval file: its default target is not checked
    assert.equal(r.code, 1, r.all);
    assert.match(r.out, /\.agentv\/targets\.yaml/);
    assert.match(r.out, /outside the dataset root/);
    if (args.includes("--json")) {
      const report = JSON.parse(r.out) as { files: { file: string; valid: boolean }[] };
      assert.deepEqual(
        report.files.find((f) => f.file === ".agentv/targets.yaml")?.valid,
        false,
      );
    } else {
      assert.match(r.out, /^✗ \.agentv\/targets\.yaml \(targets file, 1 error\)$/m);
    }
  }
});

Deno.test("validate reports a linked .agentv folder that leads outside the root", async () => {
  await using outside = await tempTree({
    "agentv/targets.yaml": MOCK_TARGETS,
    "agentv/config.yaml": "guideline_patterns: ['**/*.md']\n",
  });
  await using ds = await dataset({});
  await Deno.symlink(outside.path("agentv"), ds.path(".agentv"));
  const r = await validate(["."], ds.root);
  assert.equal(r.code, 1, r.all);
  assert.match(r.out, /^✗ \.agentv\/config\.yaml \(config file, 1 error\)$/m);
  assert.match(r.out, /^✗ \.agentv\/targets\.yaml \(targets file, 1 error\)$/m);
  // The eval file cannot use that config either.
  assert.match(r.out, /^✗ evals\/suite\.yaml /m);
  assert.match(r.out, /\.agentv\/config\.yaml: error: .*outside the dataset root/);
});

Deno.test("validate reports FIFO config and targets files instead of skipping them or hanging", async () => {
  await using ds = await dataset({});
  await Deno.mkdir(ds.path(".agentv"));
  await mkfifo(ds.path(".agentv/config.yaml"));
  await mkfifo(ds.path(".agentv/targets.yaml"));
  for (const args of [["."], [".agentv/config.yaml", ".agentv/targets.yaml"]]) {
    const r = await validate(args, ds.root);
    assert.equal(r.code, 1, r.all);
    assert.match(r.out, /^✗ \.agentv\/config\.yaml \(config file, 1 error\)$/m);
    assert.match(r.out, /^✗ \.agentv\/targets\.yaml \(targets file, 1 error\)$/m);
    assert.match(
      r.out,
      /\.agentv\/config\.yaml: error: Refused to read the config file: it is a named pipe \(FIFO\); expected a regular file; replace it with a regular file/,
    );
    assert.match(
      r.out,
      /\.agentv\/targets\.yaml: error: Refused to read the targets file: it is a named pipe/,
    );
  }
});

Deno.test("validate reports a config.yaml linked to /dev/zero at once", async () => {
  await using ds = await dataset({ ".agentv/targets.yaml": MOCK_TARGETS });
  await Deno.symlink("/dev/zero", ds.path(".agentv/config.yaml"));
  const r = await validate(["."], ds.root);
  assert.equal(r.code, 1, r.all);
  assert.match(r.out, /^✗ \.agentv\/config\.yaml \(config file, 1 error\)$/m);
  assert.match(r.out, /^✗ evals\/suite\.yaml /m);
  assert.match(r.out, /\/dev\/zero/);
});

Deno.test("validate reports config and targets files over 1 MiB", async () => {
  const big = 2 * 1024 * 1024;
  await using ds = await dataset({
    ".agentv/targets.yaml": padded(MOCK_TARGETS, big),
    ".agentv/config.yaml": padded("guideline_patterns: ['**/*.md']\n", big),
  });
  const r = await validate(["."], ds.root);
  assert.equal(r.code, 1, r.all);
  assert.match(
    r.out,
    /\.agentv\/targets\.yaml: error: Refused to read the targets file: it is \d+ bytes; expected at most 1 MiB/,
  );
  assert.match(
    r.out,
    /\.agentv\/config\.yaml: error: Refused to read the config file: it is \d+ bytes; expected at most 1 MiB/,
  );
  assert.match(r.out, /^✗ evals\/suite\.yaml /m);
});

Deno.test("validate reports a .env that run would refuse, without printing its values", async () => {
  await using outside = await tempTree({ "env": "API_TOKEN=FAKE0SECRET0VALUE\n" });
  await using ds = await dataset({
    ".agentv/targets.yaml": MOCK_TARGETS,
    ".env": "ROOT_VALUE=fine\n",
    "other/suite.yaml": SUITE,
  });
  await Deno.symlink(outside.path("env"), ds.path("evals/.env"));
  await mkfifo(ds.path("other/.env"));
  const r = await validate(["."], ds.root);
  assert.ok(!r.all.includes("FAKE0SECRET"), r.all);
  assert.equal(r.code, 1, r.all);
  assert.match(r.out, /^✗ evals\/\.env \(\.env file, 1 error\)$/m);
  assert.match(r.out, /^✗ other\/\.env \(\.env file, 1 error\)$/m);
  assert.match(r.out, /^✗ evals\/suite\.yaml /m);
  assert.match(
    r.out,
    /evals\/\.env: error: Refused to read the \.env file: it is a symbolic link to .*outside the dataset root/,
  );
  assert.match(r.out, /other\/\.env: error: Refused to read the \.env file: it is a named pipe/);
  // A readable .env is not listed (validate never shows values).
  assert.doesNotMatch(r.out, /^. \.env /m);
});
