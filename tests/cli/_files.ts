/** What the `init` tests read back from a folder: its files, and the rows of a JSONL file. */
import { join } from "node:path";

/** Every file under `dir` (relative, `/`-separated, sorted). */
export async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory) out.push(...await listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** The records of a JSONL text (blank lines skipped). */
export function jsonlRows(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}
