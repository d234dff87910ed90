/**
 * What the validated files' dataset roots ask consent for (see `root_consent.ts`): `validate`
 * lists it after the files, exactly as `agentv trust --list` does, from the reports it already
 * has (no second load of an eval file).
 *
 * @module
 */
import { dirname } from "node:path";
import type { DatasetCommand } from "../dataset/dataset_commands.ts";
import type { EvalNeedSource } from "../run/run_permission.ts";
import type { CommandIO } from "./command.ts";
import { displayPath } from "../fs/display_path.ts";
import {
  consentNeeds,
  consentSection,
  readTargetsAhead,
  type RootConsent,
  rootConsent,
  TargetsReads,
} from "./root_consent.ts";
import type { FileReport } from "../dataset/sandbox.ts";
import { sandboxRoot } from "../dataset/sandbox.ts";
import { receiveDefinitions } from "../dataset/targets_discovery.ts";
import type { PostedRead } from "./validate_sandboxes.ts";

/** One root's consent, as `validate --json` prints it. */
export interface RootConsentReport {
  /** The dataset root (relative to the cwd). */
  root: string;
  /** Whether the user's trust store covers it. */
  trusted: boolean;
  /** Each need at its place (paths relative to the cwd). */
  needs: Omit<DatasetCommand, "argv" | "key" | "written">[];
}

/** What `validate` found each root asks consent for. */
export interface ValidateConsent {
  /** Root by root. */
  roots: { root: string; consent: RootConsent }[];
}

/**
 * What the roots of the validated eval files ask consent for.
 *
 * @example
 * ```ts ignore
 * const consent = await validateConsent(result.files, { env: io.envAll() });
 * ```
 */
export async function validateConsent(
  reports: readonly FileReport[],
  options: {
    env: Record<string, string>;
    root?: string;
    targetsFile?: string;
    reads?: TargetsReads;
  },
): Promise<ValidateConsent> {
  const byRoot = new Map<string, EvalNeedSource[]>();
  for (const report of reports) {
    if (report.kind !== "eval" || (report.sources ?? []).length === 0) continue;
    const root = await sandboxRoot(report.file, { root: options.root });
    let files = byRoot.get(root);
    if (!files) byRoot.set(root, files = []);
    files.push({
      file: report.file,
      root,
      evalDir: dirname(report.file),
      sources: report.sources ?? [],
      commands: report.commands ?? [],
    });
  }
  const roots: ValidateConsent["roots"] = [];
  for (const [root, evalFiles] of byRoot) {
    const consent = await rootConsent(root, {
      env: options.env,
      evalFiles,
      ...(options.targetsFile !== undefined ? { targetsFile: options.targetsFile } : {}),
      ...(options.reads !== undefined ? { reads: options.reads } : {}),
    });
    if (consentNeeds(consent).length > 0) roots.push({ root, consent });
  }
  return { roots };
}

/**
 * Starts reading the targets files {@link validateConsent} will read for `evalFiles` (absolute
 * paths), while the files are still being validated, but for those a worker read and `posted`;
 * pass the result to it as `reads`.
 *
 * @example
 * ```ts ignore
 * const reads = readConsentAhead(["/repo/evals/a.jsonl"], {});
 * ```
 */
export function readConsentAhead(
  evalFiles: readonly string[],
  options: { root?: string; targetsFile?: string; posted?: readonly PostedRead[] },
): TargetsReads {
  const reads = new TargetsReads();
  // What a sandbox worker read is not read again (a `--targets` file is read where it is).
  for (const { root, definitions } of options.posted ?? []) {
    const within = options.targetsFile === undefined ? root : undefined;
    reads.receive(definitions.path, within, receiveDefinitions(definitions));
  }
  const ahead = async () => {
    const byRoot = new Map<string, string[]>();
    for (const file of evalFiles) {
      const root = await sandboxRoot(file, { root: options.root });
      byRoot.set(root, [...byRoot.get(root) ?? [], file]);
    }
    for (const [root, files] of byRoot) {
      await readTargetsAhead(root, files, {
        reads,
        ...(options.targetsFile !== undefined ? { targetsFile: options.targetsFile } : {}),
      });
    }
  };
  // Problems are met again, and reported, where validateConsent reads.
  ahead().catch(() => {});
  return reads;
}

/** The text `validate` prints after the files: one section per root that asks for consent. */
export async function formatValidateConsent(
  consent: ValidateConsent,
  io: CommandIO,
): Promise<string> {
  if (consent.roots.length === 0) return "";
  const check = await trustCheck(io);
  let out = "";
  for (const { root, consent: found } of consent.roots) {
    out += "\n" + await consentSection(root, found, { io, trusted: check });
  }
  return out;
}

/** The `consent` key of `validate --json`. */
export async function jsonValidateConsent(
  consent: ValidateConsent,
  io: CommandIO,
): Promise<RootConsentReport[]> {
  if (consent.roots.length === 0) return [];
  const check = await trustCheck(io);
  const out: RootConsentReport[] = [];
  for (const { root, consent: found } of consent.roots) {
    const trusted = (await Promise.all(found.requests.map(check))).every(Boolean);
    out.push({
      root: displayPath(root, io.cwd) || ".",
      trusted,
      needs: consentNeeds(found).map(({ argv: _a, key: _k, written: _w, ...need }) => ({
        ...need,
        file: displayPath(need.file, io.cwd),
        ...(need.names ? { names: need.names.map((n) => displayPath(n, io.cwd)) } : {}),
      })),
    });
  }
  return out;
}

/** The user's trust store as a check (loaded only when a root asks for something). */
async function trustCheck(io: CommandIO) {
  const { readTrustStore, storeCheck, trustFilePath } = await import("../run/trust_store.ts");
  return storeCheck(await readTrustStore(trustFilePath(io.env)));
}
