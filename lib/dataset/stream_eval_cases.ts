/**
 * `streamEvalCases`: cases one at a time, reading JSONL files in chunks so memory stays flat
 * however many cases the file holds.
 *
 * @module
 */
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { useCompiledCaseParser } from "../schema/eval_file.ts";
import { type LoadOptions, prepareLoad } from "./context.ts";
import { EvalLoadError } from "./errors.ts";
import { CaseIds } from "./case_pipeline.ts";
import {
  jsonlLocation,
  parseRecord,
  processRecord,
  readJsonlLines,
  sidecarDefaults,
} from "./jsonl_file.ts";
import { loadYamlCases } from "./yaml_file.ts";

/**
 * Yields the valid cases of an eval file in file order. JSONL files are read in chunks (64 KiB, see
 * `readJsonlLines`) and each line is validated as it arrives; YAML files are parsed whole (YAML cannot be streamed) and
 * then yielded. Invalid cases go to `onDiagnostic`. A file-level failure throws `EvalLoadError`
 * when it is reached: for a malformed JSONL line that is after the cases before it were yielded.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { streamEvalCases } from "@agentv/agentv";
 *
 * const dir = await Deno.makeTempDir();
 * const file = join(dir, "big.jsonl");
 * const line = (id: string) => JSON.stringify({ id, expected_outcome: "Echoes", input: id });
 * await Deno.writeTextFile(file, ["a", "b", "c"].map(line).join("\n") + "\n");
 * for await (const evalCase of streamEvalCases(file, { root: dir })) {
 *   console.log(evalCase.id); // a, b, c: one case at a time
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* streamEvalCases(
  path: string,
  options: LoadOptions = {},
): AsyncGenerator<EvalCase> {
  const report = (d: Diagnostic) => options.onDiagnostic?.(d);
  const setup = await prepareLoad(path, options);
  if (setup.large) useCompiledCaseParser();
  for (const d of setup.diagnostics) report(d);
  if (setup.format === "yaml") {
    yield* (await loadYamlCases(setup, report)).cases;
    return;
  }
  const defaults = await sidecarDefaults(setup, {
    verbose: options.verbose ?? false,
    emit: report,
  });
  // The loader's one JSONL reader (chunks cut at line breaks, so memory stays flat); each line is
  // validated as it arrives and a malformed one ends the stream where it is.
  const ids = new CaseIds();
  for await (const lines of readJsonlLines(setup.absFile, setup.file, { chunkBytes: 64 * 1024 })) {
    for (const line of lines) {
      const record = parseRecord(line, setup.file);
      const parsed = record instanceof Promise ? await record : record;
      if ("diagnostic" in parsed) throw EvalLoadError.from([parsed.diagnostic]);
      const pending = processRecord(parsed.value, line, { setup, defaults });
      const outcome = ids.check(
        pending instanceof Promise ? await pending : pending,
        jsonlLocation(setup, line),
      );
      for (const d of outcome.diagnostics) report(d);
      if (outcome.evalCase) yield outcome.evalCase;
    }
  }
}
