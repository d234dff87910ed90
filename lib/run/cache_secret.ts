/**
 * The cache's signing secret (see `signing.ts`): `AGENTV_CACHE_KEY` when set (to share one cache
 * between machines, e.g. a committed cache replayed in CI), else the user's own key file,
 * `cache.key` in the user's agentv folder (`$XDG_CONFIG_HOME/agentv`, else
 * `$HOME/.config/agentv`), made on first use: 32 random bytes in hex, mode 0600, its folder 0700.
 * The key never lives in a dataset, so a dataset cannot ship entries signed with it.
 *
 * @module
 */
import { join } from "node:path";
import { userConfigDir } from "../fs/user_config_dir.ts";
import { MIN_CACHE_SECRET_CHARS } from "./cache_signing.ts";
import { AgentvError } from "../errors/agentv_error.ts";

/** The variable that sets the secret (wins over the key file). */
export const CACHE_KEY_VARIABLE = "AGENTV_CACHE_KEY";

/** File name of the key in the user's agentv folder. */
export const CACHE_KEY_FILE = "cache.key";

/** Largest key file read, in bytes. */
const MAX_KEY_FILE_BYTES = 4096;

/** The secret and where it came from. */
export interface CacheSecret {
  /** The secret (never written anywhere but the key file). */
  secret: string;
  /** `AGENTV_CACHE_KEY`, or the key file's path. */
  source: string;
}

/** The secret cannot be had: the message says why, the hint what to do. */
export class CacheSecretError extends AgentvError {
  /** Creates the error. */
  constructor(message: string, hint: string) {
    super("cache_secret", message, { hint });
    this.name = "CacheSecretError";
  }
}

const SHARE_HINT = `or set ${CACHE_KEY_VARIABLE} to a secret of ${MIN_CACHE_SECRET_CHARS}+ ` +
  `characters (e.g. $(openssl rand -hex 32))`;

/**
 * The cache secret for `env` (`AGENTV_CACHE_KEY`, else the key file, made when absent). Throws
 * {@link CacheSecretError} when the variable or the file holds fewer than 32 characters, when no
 * user folder is known (no `XDG_CONFIG_HOME`, no `HOME`), or when the file cannot be made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCacheSecret } from "./cache_secret.ts";
 * const home = await Deno.makeTempDir();
 * const made = await loadCacheSecret({ XDG_CONFIG_HOME: home });
 * assert.equal(made.source, `${home}/agentv/cache.key`);
 * assert.deepEqual(await loadCacheSecret({ XDG_CONFIG_HOME: home }), made);
 * await Deno.remove(home, { recursive: true });
 * ```
 */
export async function loadCacheSecret(
  env: Readonly<Record<string, string>>,
  os: typeof Deno.build.os = Deno.build.os,
): Promise<CacheSecret> {
  const shared = env[CACHE_KEY_VARIABLE]?.trim();
  if (shared) {
    if (shared.length < MIN_CACHE_SECRET_CHARS) {
      throw new CacheSecretError(
        `${CACHE_KEY_VARIABLE} is too short: ${shared.length} characters, at least ${MIN_CACHE_SECRET_CHARS} are needed`,
        `e.g. ${CACHE_KEY_VARIABLE}=$(openssl rand -hex 32)`,
      );
    }
    return { secret: shared, source: CACHE_KEY_VARIABLE };
  }
  const dir = userConfigDir((name) => env[name], os);
  if (dir === undefined) {
    throw new CacheSecretError(
      "Cannot find your config folder for the cache key: neither XDG_CONFIG_HOME nor HOME is set",
      `set HOME, ${SHARE_HINT}`,
    );
  }
  const path = join(dir, CACHE_KEY_FILE);
  return await readKeyFile(path) ?? await makeKeyFile(dir, path, os);
}

/** The key file's secret, or `undefined` when there is none. */
async function readKeyFile(path: string): Promise<CacheSecret | undefined> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_KEY_FILE_BYTES) {
      throw new CacheSecretError(
        `${path} is not a cache key (not a regular file of at most ${MAX_KEY_FILE_BYTES} bytes)`,
        `delete it and agentv makes a new one, ${SHARE_HINT}`,
      );
    }
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    if (e instanceof CacheSecretError) throw e;
    throw new CacheSecretError(
      `Cannot read the cache key ${path}: ${(e as Error).message}`,
      `make it readable, ${SHARE_HINT}`,
    );
  }
  const secret = text.trim();
  if (secret.length < MIN_CACHE_SECRET_CHARS) {
    throw new CacheSecretError(
      `${path}: the cache key is too short (${secret.length} characters, at least ${MIN_CACHE_SECRET_CHARS})`,
      "delete it and agentv makes a new one (entries signed with the old one are then recorded again)",
    );
  }
  return { secret, source: path };
}

/**
 * Makes the key file whole or not at all: the secret goes to a temporary file (0600), which is
 * then hard-linked to its name; the link fails when another process made the key first, and
 * that key is used (two processes never sign with two keys).
 */
async function makeKeyFile(
  dir: string,
  path: string,
  os: typeof Deno.build.os,
): Promise<CacheSecret> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const temp = join(dir, `.${CACHE_KEY_FILE}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(temp, secret + "\n", { createNew: true, mode: 0o600 });
    if (os !== "windows") await Deno.chmod(temp, 0o600);
    await Deno.link(temp, path);
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) {
      const made = await readKeyFile(path);
      if (made !== undefined) return made;
    }
    throw new CacheSecretError(
      `Cannot create the cache key ${path}: ${(e as Error).message}`,
      `make ${dir} writable, ${SHARE_HINT}`,
    );
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  return { secret, source: path };
}
