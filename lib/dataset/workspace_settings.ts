/**
 * Load-time checks of the workspace settings of an `execution:` block: where a `workspace_repo`
 * is (a local path must lie inside the dataset root; a remote URL must use a transport that only
 * fetches), and that `post_checks` names a folder inside the root. The run checks the real paths
 * again (symlinks) before it reads them.
 *
 * @module
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isInside } from "../fs/resolve.ts";
import type { Finding } from "./issues.ts";
import type { PathKey } from "./yaml_source.ts";

/** Schemes of remote repositories git may fetch from (none of them runs a local command). */
const REMOTE_SCHEMES = new Set(["https", "http", "ssh", "git"]);

/** Where a `workspace_repo.url` points. */
export type RepoLocation =
  | { kind: "local"; path: string }
  | { kind: "remote"; url: string }
  | { kind: "refused"; reason: string };

/**
 * Classifies a `workspace_repo.url`: a remote URL (`https://`, `http://`, `ssh://`, `git://`, or
 * scp-like `user@host:path`), a local path (relative to `baseDir`, absolute, or `file://`), or
 * refused (another transport: `ext::` and the like run commands, so they never reach git).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoLocation } from "./workspace_settings.ts";
 * assert.deepEqual(repoLocation("../repos/calc", "/data/evals"), {
 *   kind: "local",
 *   path: "/data/repos/calc",
 * });
 * assert.equal(repoLocation("https://github.com/o/r.git", "/data").kind, "remote");
 * assert.equal(repoLocation("ext::sh -c id", "/data").kind, "refused");
 * ```
 */
export function repoLocation(url: string, baseDir: string): RepoLocation {
  const text = url.trim();
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text)?.[1]?.toLowerCase();
  if (scheme === "file") {
    try {
      return { kind: "local", path: fileURLToPath(text) };
    } catch {
      return { kind: "refused", reason: `'${text}' is not a valid file:// URL` };
    }
  }
  if (scheme !== undefined) {
    return REMOTE_SCHEMES.has(scheme) ? { kind: "remote", url: text } : {
      kind: "refused",
      reason: `the '${scheme}://' transport is not supported; use https://, ssh://, git://, ` +
        "user@host:path or a path inside the dataset root",
    };
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(text)) {
    return {
      kind: "refused",
      reason: "a '<transport>::' URL can run a command (ext::) and is never used; use https://, " +
        "ssh://, user@host:path or a path inside the dataset root",
    };
  }
  if (text.startsWith("-")) {
    return { kind: "refused", reason: "a url must not start with '-'" };
  }
  if (/^[^/\\:@\s]+@[^/\\:\s]+:/.test(text)) return { kind: "remote", url: text };
  return { kind: "local", path: resolve(baseDir, text) };
}

/** Options of {@link checkWorkspaceSettings}. */
export interface WorkspaceSettingsCheck {
  /** The folder relative paths are resolved against (the eval file's). */
  evalDir: string;
  /** The dataset root: local repositories and `post_checks` must lie inside it. */
  root: string;
}

/**
 * Findings for an `execution:` block's `workspace_repo.url` and `post_checks` (paths are
 * `path` + the key's). A local repository or post-checks folder outside the dataset root is an
 * error: loading never reads outside the root, and the root is what consent covers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkWorkspaceSettings } from "./workspace_settings.ts";
 * const findings = checkWorkspaceSettings(
 *   { workspace_repo: { url: "../../elsewhere", commit: "a".repeat(40) } },
 *   ["execution"],
 *   { evalDir: "/data/evals", root: "/data" },
 * );
 * assert.deepEqual(findings[0]?.path, ["execution", "workspace_repo", "url"]);
 * ```
 */
export function checkWorkspaceSettings(
  execution: Record<string, unknown> | undefined,
  path: PathKey[],
  options: WorkspaceSettingsCheck,
): Finding[] {
  const findings: Finding[] = [];
  const error = (at: PathKey[], message: string) =>
    findings.push({ severity: "error", path: [...path, ...at], atKey: false, message });
  const repo = execution?.workspace_repo as { url?: unknown } | undefined;
  if (typeof repo?.url === "string") {
    const where = repoLocation(repo.url, options.evalDir);
    if (where.kind === "refused") {
      error(
        ["workspace_repo", "url"],
        `url '${repo.url.slice(0, 120)}' is refused: ${where.reason}`,
      );
    } else if (where.kind === "local" && !isInside(where.path, options.root)) {
      error(
        ["workspace_repo", "url"],
        `url '${
          repo.url.slice(0, 120)
        }' resolves to ${where.path}, outside the dataset root ${options.root}; expected a repository inside the root (or a remote URL); clone it inside the root, name its remote URL, or pass --root with a wider folder`,
      );
    }
  }
  const checks = execution?.post_checks;
  if (typeof checks === "string") {
    const wanted = resolve(options.evalDir, checks);
    if (!isInside(wanted, options.root)) {
      error(
        ["post_checks"],
        `post_checks '${
          checks.slice(0, 120)
        }' resolves to ${wanted}, outside the dataset root ${options.root}; expected a folder inside the root; move the checks inside it`,
      );
    }
  }
  return findings;
}
