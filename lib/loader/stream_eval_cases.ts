/**
 * `streamEvalCases`: cases one at a time, reading JSONL files in chunks so memory stays flat
 * however many cases the file holds.
 *
 * @module
 */
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { type LoadOptions, prepareLoad } from "./context.ts";
import { EvalLoadError } from "./errors.ts";
import { CaseIds } from "./case_pipeline.ts";
import { jsonlLocation, parseRecord, processRecord, sidecarDefaults } from "./jsonl_file.ts";
import { loadYamlCases } from "./yaml_file.ts";

/**
 * Yields the valid cases of an eval file in file order. JSONL files are read in chunks and each
 * line is validated as it arrives; YAML files are parsed whole (YAML cannot be streamed) and
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
  for (const d of setup.diagnostics) report(d);
  if (setup.format === "yaml") {
    yield* (await loadYamlCases(setup, report)).cases;
    return;
  }
  const defaults = await sidecarDefaults(setup, {
    verbose: options.verbose ?? false,
    emit: report,
  });
  const fileError = (message: string, line?: number): EvalLoadError =>
    EvalLoadError.from([{ severity: "error", file: setup.file, line, column: 1, message }]);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(setup.absFile, { read: true });
  } catch (e) {
    throw fileError(
      `Cannot read the file: ${
        e instanceof Error ? e.message : e
      }; expected a readable eval file; check the path and permissions`,
    );
  }
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = new Uint8Array(64 * 1024);
  // Pieces of a line that spans chunks, joined once its end arrives (no repeated copying).
  let carry: string[] = [];
  let lineNumber = 1;
  let first = true;
  const ids = new CaseIds();
  async function* handle(raw: string): AsyncGenerator<EvalCase> {
    const lineText = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (lineText.trim() !== "") {
      const line = { line: lineNumber, text: lineText };
      const parsed = parseRecord(line, setup.file);
      if ("diagnostic" in parsed) throw EvalLoadError.from([parsed.diagnostic]);
      const pending = processRecord(parsed.value, line, { setup, defaults });
      const outcome = ids.check(
        pending instanceof Promise ? await pending : pending,
        jsonlLocation(setup, line),
      );
      for (const d of outcome.diagnostics) report(d);
      if (outcome.evalCase) yield outcome.evalCase;
    }
    lineNumber++;
  }
  try {
    while (true) {
      const n = await file.read(buffer);
      const done = n === null;
      let chunk = done ? buffer.subarray(0, 0) : buffer.subarray(0, n);
      if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3);
      }
      first = false;
      if (chunk.indexOf(0) !== -1) {
        throw fileError(
          "File contains NUL bytes and looks binary; expected UTF-8 text; check that the path names a text file",
          lineNumber,
        );
      }
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: !done });
      } catch {
        throw fileError(
          "File is not valid UTF-8; expected UTF-8 text; re-save the file with UTF-8 encoding",
          lineNumber,
        );
      }
      let start = 0;
      while (true) {
        const end = text.indexOf("\n", start);
        if (end === -1) break;
        let raw = text.slice(start, end);
        if (carry.length > 0) {
          carry.push(raw);
          raw = carry.join("");
          carry = [];
        }
        yield* handle(raw);
        start = end + 1;
      }
      if (start < text.length) carry.push(text.slice(start));
      if (done) {
        if (carry.length > 0) yield* handle(carry.join(""));
        break;
      }
    }
  } finally {
    file.close();
  }
}
