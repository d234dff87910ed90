/**
 * `validate`'s consent listing, prepared while the sandbox workers check the files: its modules
 * (`validate_consent.ts` and what it imports) are imported only then, so they stay out of the
 * command's start-up, and the targets files a worker read are not read again.
 *
 * @module
 */
import type { FileReport } from "../dataset/sandbox.ts";
import type { TargetsReads } from "./root_consent.ts";
import type { ValidateConsent } from "./validate_consent.ts";
import type { PostedRead } from "./validate_sandboxes.ts";

/** The consent module (`validate_consent.ts`), imported when the listing is prepared. */
type ConsentModule = typeof import("./validate_consent.ts");

/**
 * What the validated files' roots ask consent for, listed after them. Its modules, and the
 * targets files it reads on this thread, load while the workers check the cases ({@link prepare}
 * is called then), not before: they would compete with the workers' start.
 */
export class ConsentListing {
  #scope: { root?: string; targetsFile?: string };
  #posted: PostedRead[] = [];
  #module: Promise<ConsentModule> | undefined;
  #reads: Promise<TargetsReads | undefined> | undefined;

  /** A listing for the roots of `scope` (`--root`, `--targets`). */
  constructor(scope: { root?: string; targetsFile?: string }) {
    this.#scope = scope;
  }

  /**
   * Imports the listing's modules and starts reading the targets files `evalFiles` use, except
   * those a worker read (`read`, which may come with each call).
   */
  prepare(evalFiles: string[], read?: PostedRead): void {
    if (read) this.#posted.push(read);
    if (this.#module) return;
    this.#module = import("./validate_consent.ts");
    this.#reads = this.#module.then(
      (m) => m.readConsentAhead(evalFiles, { ...this.#scope, posted: this.#posted }),
      () => undefined, // the import fails again, and is reported, in `of`
    );
  }

  /** The listing of the validated files (`reports`), targets resolved with `env`. */
  async of(
    reports: readonly FileReport[],
    env: Record<string, string>,
  ): Promise<{ module: ConsentModule; found: ValidateConsent }> {
    const module = await (this.#module ?? import("./validate_consent.ts"));
    const reads = await this.#reads;
    const found = await module.validateConsent(reports, {
      env,
      ...this.#scope,
      ...(reads !== undefined ? { reads } : {}),
    });
    return { module, found };
  }
}
