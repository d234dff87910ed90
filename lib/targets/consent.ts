/**
 * The run's consent grant: which needs (commands a dataset defines, environment values sent to
 * a host nobody approved; see `dataset/dataset_commands.ts`) this run may act on. The runner makes
 * an empty grant, the trust gate fills it with the needs it listed and the user allowed, and
 * every place that starts a dataset's process (code judges, aggregators, `cli` targets and
 * healthchecks, agent targets) or sends a target's environment values first asks the grant for
 * a {@link CommandPermit}. A permit is made only here, only for a need the grant holds, and the
 * process run is the permit's own argv or template: a command the gate did not list cannot
 * start.
 *
 * @module
 */
import type { NeedIdentity } from "../dataset/dataset_commands.ts";

/** A need as the grant sees it: its identity, what it starts (`argv`) and its key. */
export type GrantedNeed = NeedIdentity & { key: string; argv?: readonly string[] };

/** Only {@link ConsentGrant} holds this, so only it can make a {@link CommandPermit}. */
const MINT: unique symbol = Symbol("agentv consent");

/** Permission to act on one need, made by {@link ConsentGrant.permit}. */
export class CommandPermit {
  /** The need allowed: its `argv` (or template) is what may start. */
  readonly need: GrantedNeed;

  /** Made by {@link ConsentGrant.permit} only (any other caller gets a TypeError). */
  constructor(mint: typeof MINT, need: GrantedNeed) {
    if (mint !== MINT) throw new TypeError("a CommandPermit is made by ConsentGrant.permit only");
    this.need = need;
  }

  /** What starts: the argv (a code judge, aggregator or agent). */
  get argv(): string[] {
    return [...(this.need.argv ?? [])];
  }

  /** What starts through the shell: the command template (`cli` targets, healthchecks). */
  get template(): string {
    return this.need.argv?.[0] ?? "";
  }
}

/** A need that was not allowed before the run started (a bug if it was listed: report it). */
export class ConsentNotGivenError extends Error {
  /** The need that was refused. */
  readonly need: GrantedNeed;

  /** Creates the error for `need`. */
  constructor(need: GrantedNeed) {
    super(
      `Refused to ${need.kind === "env_host" ? "send environment values to" : "start"} ${
        JSON.stringify(need.command.slice(0, 200))
      } (${need.kind} '${need.name}'): it is not among what was listed and allowed before the run; ` +
        "nothing was started or sent",
    );
    this.name = "ConsentNotGivenError";
    this.need = need;
  }
}

/**
 * What a run may start and send. The runner starts with {@link ConsentGrant.none}; the gate
 * calls {@link allow} with the needs it listed once the user allowed them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConsentGrant } from "./consent.ts";
 * const need = { kind: "code_judge" as const, name: "j", command: "id", argv: ["sh", "-c", "id"], reads: [], key: "k" };
 * const grant = ConsentGrant.none();
 * assert.throws(() => grant.permit(need));
 * grant.allow([need]);
 * assert.deepEqual(grant.permit(need).argv, ["sh", "-c", "id"]);
 * ```
 */
export class ConsentGrant {
  #keys = new Set<string>();
  #everything: boolean;

  private constructor(everything: boolean) {
    this.#everything = everything;
  }

  /** A grant that allows nothing until {@link allow} is called (what the runner uses). */
  static none(): ConsentGrant {
    return new ConsentGrant(false);
  }

  /**
   * A grant that allows every need: for targets and evaluators a library caller creates and
   * calls itself (`createTarget`, an evaluator function), outside `runEval`'s gate.
   */
  static everything(): ConsentGrant {
    return new ConsentGrant(true);
  }

  /** Allows these needs (the gate, once the user consented to them). */
  allow(needs: Iterable<{ key: string }>): void {
    for (const need of needs) this.#keys.add(need.key);
  }

  /** Whether `need` may be acted on. */
  allows(need: { key: string }): boolean {
    return this.#everything || this.#keys.has(need.key);
  }

  /** A permit for `need`; throws {@link ConsentNotGivenError} when it was not allowed. */
  permit(need: GrantedNeed): CommandPermit {
    if (!this.allows(need)) throw new ConsentNotGivenError(need);
    return new CommandPermit(MINT, need);
  }
}
