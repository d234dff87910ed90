/**
 * The files a command names: every word of its argv (or of its shell template) that, resolved
 * against the folders the command may run in, is a regular file inside the dataset root — the
 * script of `python3 judges/check.py`, the `./agent.sh` an agent target runs, the `--config
 * ./mcp.json` it passes. Consent covers their SHA-256: a script edited after `agentv trust` is not
 * the one the user allowed. Words after a shell redirection (`> out.txt`) or an output option
 * (`-o`, `--out`, `--output`, `--output-file`, `--outfile`, `--log-file`) are what the command
 * writes, not what it runs, and are left out; so are placeholders (`{PROMPT}`). Files a script
 * reads or imports by itself are not found here (see `agentv trust --include`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import type { DatasetCommand } from "../dataset/dataset_commands.ts";
import { checkConfinedFile } from "../fs/read_confined.ts";
import { isInside } from "../fs/resolve.ts";

/** Most words of one command looked at. */
const MAX_WORDS = 256;

/** Shell operators after which the next word is a file the command writes. */
const REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "1>", "2>", "1>>", "2>>"]);

/** Options whose value is a file the command writes. */
const OUTPUT_OPTIONS = new Set([
  "-o",
  "--out",
  "--output",
  "--output-file",
  "--outfile",
  "--log-file",
]);

/**
 * The words of a shell command line, quotes removed, operators (`;`, `|`, `&&`, `>`, ...) as words
 * of their own. Approximate on purpose: it only finds file names, it does not run anything.
 *
 * @example
 * ```ts
 * import { shellWords } from "./named_files.ts";
 * shellWords(`python3 'judges/a b.py' --x=1 > out.json; echo "done"`);
 * // ["python3", "judges/a b.py", "--x=1", ">", "out.json", ";", "echo", "done"]
 * ```
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quoted = false;
  const flush = () => {
    if (word !== "" || quoted) words.push(word);
    word = "";
    quoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word += line.slice(i + 1, end === -1 ? line.length : end);
      quoted = true;
      i = end === -1 ? line.length : end;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
    } else if (/\s/.test(c)) {
      flush();
    } else if (";|&<>()".includes(c)) {
      // `2>` and `1>>`: the digit belongs to the operator.
      const digit = /^[12]$/.test(word) && c === ">" ? word : "";
      if (digit === "") flush();
      else word = "";
      let op = digit + c;
      while (i + 1 < line.length && ">&|".includes(line[i + 1]) && op.length < 3) op += line[++i];
      words.push(op);
    } else {
      word += c;
    }
  }
  flush();
  return words;
}

/** The words of a need's command that may name files (the shell's own operators left out). */
export function commandWords(need: Pick<DatasetCommand, "kind" | "written">): string[] {
  const written = need.written ?? [];
  const shell = need.kind === "cli_target" || need.kind === "healthcheck" ||
    ((need.kind === "code_judge" || need.kind === "aggregator") && written.length === 1);
  // An argv element holding spaces (`sh -c "python3 x.py"`) is a command line of its own.
  const words = shell
    ? shellWords(written[0] ?? "")
    : written.flatMap((w) => (/\s/.test(w) ? [w, ...shellWords(w)] : [w]));
  const out: string[] = [];
  for (let i = 0; i < words.length && out.length < MAX_WORDS; i++) {
    const w = words[i];
    if (OUTPUT_OPTIONS.has(w.split("=")[0])) {
      if (!w.includes("=")) i++; // `--out FILE`: FILE is written, not run
      continue;
    }
    if (REDIRECTS.has(w) || w === "<") {
      // What follows `>` is written; what follows `<` is read: keep that one.
      if (w === "<" && words[i + 1] !== undefined) out.push(words[i + 1]);
      i++;
      continue;
    }
    if (/^[;|&<>()]+$/.test(w) || w === "" || /^\{[A-Z_]+\}$/.test(w) || w.includes("${{")) {
      continue;
    }
    out.push(w);
    const eq = w.indexOf("=");
    if (w.startsWith("-") && eq !== -1) out.push(w.slice(eq + 1));
  }
  return out;
}

/**
 * The regular files inside `root` that a need's command names, resolved against `bases` (the
 * folders it may run in), with their SHA-256. A link that leads outside the root, a FIFO or a
 * device is not a named file.
 */
export async function namedFiles(
  need: Pick<DatasetCommand, "kind" | "written">,
  options: { root: string; bases: readonly string[] },
): Promise<{ file: string; sha256: string }[]> {
  const found = new Map<string, string>();
  for (const word of commandWords(need)) {
    const candidates = isAbsolute(word)
      ? [resolve(word)]
      : [...new Set(options.bases.map((base) => resolve(base, word)))];
    for (const path of candidates) {
      if (found.has(path) || !isInside(path, options.root)) continue;
      const sha256 = await hashConfinedFile(path, options.root);
      if (sha256 !== undefined) found.set(path, sha256);
    }
  }
  return [...found].map(([file, sha256]) => ({ file, sha256 }));
}

/**
 * The hex SHA-256 of the regular file `path` inside `root` (links resolved; nothing that leads
 * outside, no FIFO or device), read in chunks; `undefined` when it is no such file.
 *
 * @example
 * ```ts ignore
 * const sha = await hashConfinedFile("/repo/judges/check.py", "/repo");
 * ```
 */
export async function hashConfinedFile(path: string, root: string): Promise<string | undefined> {
  const checked = await checkConfinedFile(path, {
    label: "file",
    root,
    maxBytes: Number.MAX_SAFE_INTEGER,
  });
  if (!checked.ok) return undefined;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return undefined;
  }
  try {
    const opened = await file.stat();
    const { info } = checked;
    if (!opened.isFile || (info.ino !== null && opened.ino !== info.ino)) return undefined;
    const hash = createHash("sha256");
    const chunk = new Uint8Array(256 * 1024);
    for (;;) {
      const n = await file.read(chunk);
      if (n === null) break;
      hash.update(chunk.subarray(0, n));
    }
    return hash.digest("hex");
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}
