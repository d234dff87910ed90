/**
 * How a path is shown to the user: relative to the working directory when it is below it (or near
 * it), else absolute, with control characters escaped.
 *
 * @module
 */
import { isAbsolute, relative } from "node:path";
import { escapeControl } from "../text/escape_control.ts";

/**
 * A path as shown to the user: relative to `cwd` when it is below it (or near it), else absolute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayPath } from "./display_path.ts";
 * assert.equal(displayPath("/repo/evals/a.yaml", "/repo"), "evals/a.yaml");
 * assert.equal(displayPath("/elsewhere/a.yaml", "/repo/evals/deep/down"), "/elsewhere/a.yaml");
 * ```
 */
export function displayPath(file: string, cwd: string): string {
  // Control characters in a file name are shown escaped, never sent to the terminal.
  if (!isAbsolute(file)) return escapeControl(file);
  const rel = relative(cwd, file);
  if (rel === "") return ".";
  if (isAbsolute(rel) || rel.startsWith("../../../")) return escapeControl(file);
  return escapeControl(rel);
}
