/**
 * What the registry hands each provider factory, and what a factory returns.
 *
 * @module
 */
import type { Target } from "./types.ts";

/** Context shared by provider factories. */
export interface ProviderContext {
  /** Target name (for messages). */
  name: string;
  /** Secret values to keep out of messages and recorded requests. */
  secrets: readonly string[];
  /** `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Folder of the targets file: base of relative `cwd` settings. */
  targetsFileDir?: string;
  /** Environment for subprocesses (`.env` merged with the process environment). */
  env: Readonly<Record<string, string>>;
  /** Receives non-fatal problems (e.g. an ignored negative `cost_usd`). */
  onWarning?: (message: string) => void;
  /** Folder for temporary files (default the OS temp folder). */
  tempDir?: string;
}

/**
 * The provider-specific part of a {@link Target}; `secrets` adds values the provider holds
 * itself (e.g. an agent's API key passed on through its environment) to the target's secrets.
 */
export type TargetCore = Pick<Target, "invoke" | "healthcheck"> & { secrets?: readonly string[] };
