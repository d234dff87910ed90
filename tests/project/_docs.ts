/**
 * Reading the docs (`README.md` and `docs/**\/*.md`) as their tests need them: fenced code blocks
 * (with the fragment marker before them), the `agentv …` command lines of shell blocks, links and
 * the anchors of headings as GitHub makes them.
 *
 * A block preceded (on the line before its fence) by an HTML comment starting `<!-- fragment`
 * is a fragment: a piece of a file shown for what it says, not validated as a whole file.
 *
 * @module
 */
import { join, relative } from "node:path";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The file, relative to the project root. */
  file: string;
  /** The 1-based line of its opening fence. */
  line: number;
  /** Its info string's first word (`yaml`, `sh`, ...), lower-cased; `""` when none. */
  lang: string;
  /** Its text, without the fences and without the indentation of the fence. */
  text: string;
  /** Whether the line before the fence marks it as a fragment. */
  fragment: boolean;
}

/** The marker that makes the next code block a fragment. */
export const FRAGMENT_MARKER = "<!-- fragment";

/** The Markdown files of the docs: `README.md` and every `.md` under `docs/`, sorted. */
export function docFiles(root: string = REPO_ROOT): string[] {
  const files = ["README.md"];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".md")) files.push(relative(root, path).replaceAll("\\", "/"));
    }
  };
  walk(join(root, "docs"));
  return files.sort();
}

/** The fenced code blocks of `markdown` (fences of three or more backticks, maybe indented). */
export function codeBlocks(markdown: string, file = "<text>"): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence!)) j++;
    const before = lines.slice(0, i).reverse().find((l) => l.trim() !== "") ?? "";
    blocks.push({
      file,
      line: i + 1,
      lang: lang!.toLowerCase(),
      text: lines.slice(i + 1, j).map((l) => l.startsWith(indent!) ? l.slice(indent!.length) : l)
        .join("\n") + "\n",
      fragment: before.trim().startsWith(FRAGMENT_MARKER),
    });
    i = j;
  }
  return blocks;
}

/** `markdown` with its code blocks and code spans blanked (same line count). */
export function prose(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  return lines.map((line) => {
    const open = /^\s*(`{3,})/.exec(line);
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence)) fence = undefined;
      return "";
    }
    if (open) {
      fence = open[1];
      return "";
    }
    return line;
  }).join("\n").replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, " "));
}

/** One link of a Markdown file. */
export interface Link {
  /** The 1-based line it is on. */
  line: number;
  /** Its target as written. */
  target: string;
}

/** The inline links (`[text](target)`) of `markdown`, outside code, not counting images' text. */
export function links(markdown: string): Link[] {
  const text = prose(markdown);
  const found: Link[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ line: text.slice(0, m.index).split("\n").length, target: m[1]! });
  }
  return found;
}

/**
 * The anchors of the headings of `markdown`, as GitHub makes them: lower case, punctuation other
 * than `-` and `_` removed, spaces as `-`, a repeated anchor numbered (`-1`, `-2`).
 */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(markdown.replace(/`/g, "")).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return result;
}

/**
 * The `agentv …` command lines of a shell block (`sh`, `bash`, `shell`, `console`): a console
 * block's `$ ` prompt and a line's `# comment` removed, `\` continuations and indented
 * continuation lines joined, split at `&&`, `||`, `|` and `;`, redirections dropped. Each is the
 * list of words after `agentv`, with the brackets of a synopsis (`[--out FILE]`) removed, so that
 * the options a synopsis names are parsed too (`<results>` is a placeholder, not a redirection).
 */
export function agentvCommands(block: string): string[][] {
  const logical: string[] = [];
  for (const raw of block.split("\n")) {
    const line = raw.replace(/^\$ /, "");
    if (logical.length > 0 && (/\\$/.test(logical.at(-1)!) || /^\s+\S/.test(line))) {
      logical[logical.length - 1] = logical.at(-1)!.replace(/\\$/, "") + " " + line.trim();
    } else logical.push(line);
  }
  const commands: string[][] = [];
  for (const line of logical) {
    for (const segment of splitCommands(words(line))) {
      if (segment[0] !== "agentv") continue;
      commands.push(
        segment.slice(1).map((w) => w.replace(/[[\]]/g, "")).filter((w) => w !== "" && w !== "..."),
      );
    }
  }
  return commands;
}

/** Shell-like words of a line: quotes group and are removed; an unquoted `#` word ends it. */
function words(line: string): string[] {
  const result: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    if (m[3]?.startsWith("#")) break;
    result.push(m[1] ?? m[2] ?? m[3]!);
  }
  return result;
}

/** Words split into commands at `&&`, `||`, `|` and `;`, without redirections. */
function splitCommands(all: string[]): string[][] {
  const commands: string[][] = [[]];
  for (let i = 0; i < all.length; i++) {
    const word = all[i]!;
    if (["&&", "||", "|", ";"].includes(word)) commands.push([]);
    else if (/^<[^<>\s]+>/.test(word)) commands.at(-1)!.push(word); // a placeholder: <results>
    else if (/^\d?>>?$|^<$/.test(word)) i++;
    else if (/^\d?>>?\S|^<\S/.test(word)) continue;
    else commands.at(-1)!.push(word.replace(/;$/, ""));
  }
  return commands.filter((c) => c.length > 0);
}
