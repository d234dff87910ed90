/**
 * `readConfinedText`, the reader of config-like files: links leading outside the root (the file
 * or a folder on its path), non-regular files, files over the cap and invalid UTF-8 are refused
 * with a diagnostic on the file that never quotes the file.
 */
import assert from "node:assert/strict";
import { checkConfinedFile, readConfinedText } from "../../lib/fs/read_confined.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

Deno.test("readConfinedText() reads a regular file and a link that stays inside the root", async () => {
  await using tree = await tempTree({ "conf/a.yaml": "a: 1\n" });
  await Deno.symlink(tree.path("conf"), tree.path("linked"));
  await Deno.symlink("conf/a.yaml", tree.path("b.yaml"));
  for (const rel of ["conf/a.yaml", "linked/a.yaml", "b.yaml"]) {
    const read = await readConfinedText(tree.path(rel), { label: "config file", root: tree.root });
    assert.deepEqual(read, { ok: true, text: "a: 1\n" }, rel);
  }
  // Read in chunks: a file of several chunks comes back whole.
  const big = "x: " + "0123456789".repeat(20_000) + "\n";
  await Deno.writeTextFile(tree.path("conf/big.yaml"), big);
  const read = await readConfinedText(tree.path("conf/big.yaml"), { label: "config file" });
  assert.deepEqual(read, { ok: true, text: big });
});

Deno.test("readConfinedText() refuses a file reached through a linked folder outside the root", async () => {
  await using outside = await tempTree({ "agentv/targets.yaml": "secret: SHOULD-NOT-SHOW\n" });
  await using tree = await tempTree({});
  await Deno.symlink(outside.path("agentv"), tree.path(".agentv"));
  const path = tree.path(".agentv/targets.yaml");
  const read = await readConfinedText(path, { label: "targets file", root: tree.root });
  assert.equal(read.ok, false);
  if (read.ok) return;
  assert.equal(read.reason, "refused");
  assert.equal(read.diagnostic.file, path);
  assert.equal(read.diagnostic.line, undefined); // no line: nothing of the file is excerpted
  assert.match(
    read.diagnostic.message,
    /^Refused to read the targets file: it lies in a linked folder: its real path is '.*agentv\/targets\.yaml', outside the dataset root '.*'; expected a regular file inside the root; copy the file into the root, or pass --root/,
  );
  assert.doesNotMatch(read.diagnostic.message, /SHOULD-NOT-SHOW/);
  // Without a root (a file the user named), the same file is read.
  assert.equal((await readConfinedText(path, { label: "targets file" })).ok, true);
});

Deno.test("readConfinedText() tells missing files and folders apart from refused ones", async () => {
  await using tree = await tempTree({ "dir/x": "" });
  const missing = await readConfinedText(tree.path("nope"), {
    label: ".env file",
    root: tree.root,
  });
  assert.equal(!missing.ok && missing.reason, "missing");
  const folder = await readConfinedText(tree.path("dir"), { label: ".env file", root: tree.root });
  assert.equal(!folder.ok && folder.reason, "directory");
  await Deno.symlink(tree.path("gone"), tree.path("dangling"));
  const dangling = await readConfinedText(tree.path("dangling"), { label: ".env file" });
  assert.equal(!dangling.ok && dangling.reason, "refused");
});

Deno.test("readConfinedText() reports invalid UTF-8 with its position and without the bytes", async () => {
  await using tree = await tempTree({
    "bad.yaml": new Uint8Array([0x61, 0x3a, 0x20, 0x31, 0x0a, 0x62, 0x3a, 0x20, 0xff, 0x0a]),
  });
  const read = await readConfinedText(tree.path("bad.yaml"), { label: "config file" });
  assert.equal(read.ok, false);
  if (read.ok) return;
  assert.equal(read.reason, "invalid");
  assert.equal(read.diagnostic.line, 2);
  assert.equal(read.diagnostic.column, 4);
  assert.match(read.diagnostic.message, /^The config file cannot be used: File is not valid UTF-8/);
});

Deno.test("readConfinedText() reads at most cap + 1 bytes of a file whose size is not known", async () => {
  // Files in /proc report size 0 but have content: only the bounded read can catch them.
  const path = "/proc/self/status";
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isFile || info.size !== 0) return; // not Linux
  const read = await readConfinedText(path, { label: "config file", maxBytes: 16 });
  assert.equal(read.ok, false);
  if (read.ok) return;
  assert.equal(read.reason, "refused");
  assert.match(
    read.diagnostic.message,
    /^Refused to read the config file: it is larger than 16 bytes; expected at most 16 bytes/,
  );
});

Deno.test("checkConfinedFile() refuses devices and FIFOs without opening them", async () => {
  await using tree = await tempTree({});
  const fifo = tree.path("pipe");
  const { success } = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.ok(success);
  for (
    const [path, kind] of [[fifo, "a named pipe \\(FIFO\\)"], ["/dev/null", "a character device"]]
  ) {
    const checked = await checkConfinedFile(path, { label: ".env file" });
    assert.equal(checked.ok, false);
    if (checked.ok) continue;
    assert.equal(checked.reason, "refused");
    assert.match(
      checked.diagnostic.message,
      new RegExp(`^Refused to read the \\.env file: it is ${kind}; expected a regular file`),
    );
  }
});
