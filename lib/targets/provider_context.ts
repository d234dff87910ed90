/**
 * What the registry hands each provider factory, and what a factory returns.
 *
 * @module
 */
import { type Target, TargetError } from "./types.ts";
import type { CommandPermit } from "./consent.ts";
import type { SandboxMode } from "../schema/sandbox.ts";

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
  /**
   * The permit to start the target's own command of this kind (see `target_needs.ts`): its argv
   * or template is what the provider runs. Throws a `TargetError` when the run's consent does
   * not hold it. The registry always sets it; a provider made without it starts nothing.
   */
  permit?(kind: "cli_target" | "healthcheck" | "agent_target"): CommandPermit;
  /** The run's `--sandbox`: replaces the target's `sandbox` setting. */
  sandbox?: SandboxMode;
}

/**
 * The provider-specific part of a {@link Target}; `secrets` adds values the provider holds
 * itself (e.g. an agent's API key passed on through its environment) to the target's secrets.
 */
export type TargetCore = Pick<Target, "invoke" | "healthcheck" | "sandbox"> & {
  secrets?: readonly string[];
};

/**
 * The permit of `context` for its target's command of `kind` (see {@link ProviderContext.permit});
 * throws a `TargetError` when the context has none.
 */
export function permitOf(
  context: ProviderContext,
  kind: "cli_target" | "healthcheck" | "agent_target",
): CommandPermit {
  if (context.permit === undefined) {
    throw new TargetError(
      `Target '${context.name}' was made without a consent permit, so it starts nothing; create it with createTarget`,
      { retryable: false },
    );
  }
  return context.permit(kind);
}
