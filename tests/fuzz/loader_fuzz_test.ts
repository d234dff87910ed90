/**
 * Seeded mutation fuzzer over the eval fixtures: every mutated file must end in cases (with
 * well-formed diagnostics) or an EvalLoadError carrying diagnostics, never in another exception.
 * Set AGENTV_FUZZ_SEED / AGENTV_FUZZ_COUNT to explore further; a failure prints the seed, the
 * iteration and the mutated file.
 */
import assert from "node:assert/strict";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Sandbox } from "../../lib/dataset/sandbox.ts";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { DiagnosticSchema, EvalCaseSchema } from "../../lib/schema/eval_case.ts";
import { createRng } from "../../lib/compare/statistics.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const SEED = Number(Deno.env.get("AGENTV_FUZZ_SEED") ?? 20260121);
const COUNT = Number(Deno.env.get("AGENTV_FUZZ_COUNT") ?? 3000);
const MAX_SOURCE_BYTES = 32 * 1024;

/** Fragments that tend to break parsers and validators in interesting ways. */
const TOKENS = [
  ":",
  "- ",
  "{",
  "}",
  "[",
  "]",
  '"',
  "'",
  ",",
  "#",
  "&a ",
  "*a",
  "<<: *a\n",
  "!!binary ",
  "!!js/function ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "\ufeff",
  "  ",
  "null",
  "~",
  "-1",
  "1e999",
  "NaN",
  "true",
  '"\\u0000"',
  "evalcases:",
  "evalcases: 3\n",
  "input:",
  "expected_outcome:",
  "weight: -1",
  "weight: abc",
  "mode: sideways",
  "type: file\n",
  "type: rubric",
  "type: nope",
  "value: ../../../etc/passwd",
  '{"type": "file", "value": "/etc/passwd"}',
  "role: tool",
  "content: {}",
  "evaluators: [{}]",
  "rubrics: [1, 2]",
  "? complex\n: key\n",
  "--- \n",
  "...\n",
  "%YAML 1.1\n",
  "é",
  "😀",
  "\u2028",
];

/** Eval files and sidecars; result files (`*.baseline.jsonl`, `*-results.jsonl`) are not. */
function isEvalLike(name: string): boolean {
  return /\.(ya?ml|jsonl)$/i.test(name) && !/(\.baseline|-results)\.jsonl$/i.test(name);
}

async function fixtureFiles(): Promise<{ path: string; bytes: Uint8Array }[]> {
  const found: { path: string; bytes: Uint8Array }[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory && entry.name !== "node_modules") await walk(path);
      else if (entry.isFile && isEvalLike(entry.name)) {
        const bytes = await Deno.readFile(path);
        if (bytes.length <= MAX_SOURCE_BYTES) found.push({ path, bytes });
      }
    }
  };
  await walk(FIXTURES);
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function mutate(bytes: Uint8Array, random: () => number): Uint8Array {
  const pick = (n: number) => Math.floor(random() * n);
  let out = bytes;
  const rounds = 1 + pick(4);
  for (let r = 0; r < rounds; r++) {
    const at = pick(out.length + 1);
    const head = out.subarray(0, at);
    switch (pick(8)) {
      case 0: { // replace a byte
        const copy = out.slice();
        if (copy.length) copy[Math.min(at, copy.length - 1)] = pick(256);
        out = copy;
        break;
      }
      case 1: // delete a range
        out = concat(head, out.subarray(at + 1 + pick(40)));
        break;
      case 2: // duplicate a range
        out = concat(head, out.subarray(at, at + 1 + pick(200)), out.subarray(at));
        break;
      case 3: // insert a token
        out = concat(head, encoder.encode(TOKENS[pick(TOKENS.length)]), out.subarray(at));
        break;
      case 4: // truncate
        out = out.slice(0, at);
        break;
      case 5: { // swap two lines
        const lines = decoder.decode(out).split("\n");
        const i = pick(lines.length), j = pick(lines.length);
        [lines[i], lines[j]] = [lines[j], lines[i]];
        out = encoder.encode(lines.join("\n"));
        break;
      }
      case 6: { // change the indentation of a line
        const lines = decoder.decode(out).split("\n");
        const i = pick(lines.length);
        lines[i] = random() < 0.5 ? `  ${lines[i]}` : lines[i].replace(/^ {1,2}/, "");
        out = encoder.encode(lines.join("\n"));
        break;
      }
      default: // insert raw invalid UTF-8 / control bytes
        out = concat(
          head,
          new Uint8Array([0xff, 0xfe, 0xc3, 0x00, 0x1b].slice(0, 1 + pick(5))),
          out.subarray(at),
        );
    }
  }
  return out;
}

function checkDiagnostics(diagnostics: unknown[], context: string): void {
  for (const d of diagnostics) {
    const parsed = DiagnosticSchema.safeParse(d);
    assert.ok(parsed.success, `${context}: malformed diagnostic ${JSON.stringify(d)}`);
    assert.ok(parsed.data.message.length > 0, `${context}: empty message`);
  }
}

Deno.test({
  name: "fuzz: mutated fixtures end in cases or diagnostics, never another exception",
  sanitizeResources: true,
  fn: async () => {
    const sources = await fixtureFiles();
    assert.ok(sources.length >= 10, `found ${sources.length} fixture files`);
    const random = createRng(SEED);
    const tmp = await Deno.makeTempDir({ prefix: "agentv_fuzz_" });
    await Deno.mkdir(join(tmp, ".agentv"));
    const sandbox = new Sandbox(tmp);
    const started = performance.now();
    const outcomes = { cases: 0, loadErrors: 0 };
    try {
      for (let i = 0; i < COUNT; i++) {
        const source = sources[Math.floor(random() * sources.length)];
        const ext = random() < 0.05 ? ".txt" : extname(source.path);
        const file = join(tmp, `case_${i % 16}${ext}`);
        const bytes = mutate(source.bytes, random);
        await Deno.writeFile(file, bytes);
        const context = `seed ${SEED}, iteration ${i}, from ${relative(FIXTURES, source.path)}`;
        try {
          const diagnostics: unknown[] = [];
          const cases = await loadEvalCases(file, {
            root: tmp,
            verbose: true,
            onDiagnostic: (d) => diagnostics.push(d),
          });
          assert.ok(Array.isArray(cases), context);
          for (const c of cases) {
            assert.ok(EvalCaseSchema.safeParse(c).success, `${context}: malformed case`);
          }
          checkDiagnostics(diagnostics, context);
          outcomes.cases++;
        } catch (error) {
          if (!(error instanceof EvalLoadError)) {
            const text = JSON.stringify(new TextDecoder().decode(bytes));
            throw new Error(`${context}: unexpected ${String(error)}\nfile: ${text}`, {
              cause: error,
            });
          }
          assert.ok(error.diagnostics.length > 0, `${context}: EvalLoadError without diagnostics`);
          checkDiagnostics(error.diagnostics, context);
          outcomes.loadErrors++;
        }
        if (i % 10 === 0) {
          const report = await validateEvalFile(file, { root: tmp });
          assert.equal(typeof report.valid, "boolean", context);
          checkDiagnostics(report.diagnostics, context);
          if (!report.valid) assert.ok(report.diagnostics.some((d) => d.severity === "error"));
        }
        if (i % 100 === 0) {
          // The same through the sandbox worker: reports cross the worker boundary intact.
          const report = await sandbox.validate(file, { verbose: true });
          assert.equal(typeof report.valid, "boolean", context);
          checkDiagnostics(report.diagnostics, context);
        }
      }
    } finally {
      sandbox.close();
      await Deno.remove(tmp, { recursive: true });
    }
    const seconds = (performance.now() - started) / 1000;
    assert.equal(outcomes.cases + outcomes.loadErrors, COUNT);
    assert.ok(outcomes.cases > 0 && outcomes.loadErrors > 0, JSON.stringify(outcomes));
    console.log(`fuzz: ${COUNT} files in ${seconds.toFixed(1)} s: ${JSON.stringify(outcomes)}`);
  },
});
