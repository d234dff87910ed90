/**
 * The user's side of cache tests: the secret test stores sign with, a run environment that sets
 * it (`AGENTV_CACHE_KEY`), and a user folder (`$XDG_CONFIG_HOME`) where a run makes its key
 * file and reads the user config.
 *
 * @module
 */
import { createCacheSigner } from "../../lib/run/cache_signing.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

/** The secret of {@link TEST_SIGNER} and {@link CACHE_ENV}. */
export const TEST_SECRET = "agentv-test-cache-secret-0123456789abcdef";

/** The signer of stores made directly in tests. */
export const TEST_SIGNER = createCacheSigner(TEST_SECRET);

/** A run environment whose cache key is {@link TEST_SECRET}. */
export const CACHE_ENV: Readonly<Record<string, string>> = { AGENTV_CACHE_KEY: TEST_SECRET };

/** A user's own folder for a test, with `env` pointing `XDG_CONFIG_HOME` at it. */
export async function userHome(
  files: Record<string, string> = {},
): Promise<Tree & { env: Record<string, string> }> {
  const tree = await tempTree(files, { prefix: "agentv-home-" });
  return Object.assign(tree, { env: { XDG_CONFIG_HOME: tree.dir } });
}
