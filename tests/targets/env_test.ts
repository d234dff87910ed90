import assert from "node:assert/strict";
import { join } from "node:path";
import { interpolateEnv, loadDotEnv, mergeEnv, parseDotEnv } from "../../lib/dataset/env.ts";
import { TargetConfigError } from "../../lib/dataset/targets_errors.ts";
import { createTarget, resolveTarget } from "../../lib/targets/registry.ts";
import { makeRequest } from "./_request.ts";
import { FIXTURES } from "./_request.ts";

const PROJECT = join(FIXTURES, "project");

Deno.test("interpolateEnv substitutes whole values and references inside longer strings", () => {
  const r = interpolateEnv(
    { url: "http://${{ HOST }}:${{PORT}}/v1", key: " ${{ KEY }} ", list: ["${{ KEY }}"], n: 3 },
    { HOST: "127.0.0.1", PORT: "8080", KEY: "  spaced  " },
  );
  assert.deepEqual(r.value, {
    url: "http://127.0.0.1:8080/v1",
    key: "  spaced  ",
    list: ["  spaced  "],
    n: 3,
  });
  assert.deepEqual(r.missing, []);
  assert.deepEqual(r.used.map((u) => u.path), [["url"], ["url"], ["key"], ["list", 0]]);
});

Deno.test("interpolateEnv reports unset and blank variables instead of substituting ''", () => {
  const r = interpolateEnv({ a: "${{ NOPE }}", b: "x-${{ BLANK }}" }, { BLANK: "  " });
  assert.deepEqual(r.value, { a: "${{ NOPE }}", b: "x-${{ BLANK }}" });
  assert.deepEqual(r.missing, [
    { name: "NOPE", path: ["a"], whole: true },
    { name: "BLANK", path: ["b"], whole: false },
  ]);
});

Deno.test("parseDotEnv handles export, comments, quotes, escapes and multi-line values", () => {
  assert.deepEqual(
    parseDotEnv([
      "# comment",
      "A=1",
      "export B = two words # trailing comment",
      'C="line1\\nline2 \\"q\\""',
      "D='no $expansion # kept'",
      'E="multi',
      'line"',
      "F=",
      "not a pair",
      "G=url#fragment",
    ].join("\r\n")),
    {
      A: "1",
      B: "two words",
      C: 'line1\nline2 "q"',
      D: "no $expansion # kept",
      E: "multi\nline",
      F: "",
      G: "url#fragment",
    },
  );
});

Deno.test("loadDotEnv reads every .env from the root down; the nearest wins", async () => {
  const env = await loadDotEnv(join(PROJECT, "evals", "sub"), PROJECT);
  assert.deepEqual(env, {
    SHARED: "inner",
    OUTER_ONLY: "outer-only",
    INNER_ONLY: 'inner "quoted"\nline2',
  });
  // the process environment wins over every file
  assert.equal(mergeEnv(env, { SHARED: "process" }).SHARED, "process");
  // only the root's own .env when the eval file sits at the root
  assert.deepEqual(await loadDotEnv(PROJECT, PROJECT), {
    SHARED: "outer",
    OUTER_ONLY: "outer-only",
  });
});

Deno.test("a missing variable fails only the target that uses it, naming variable and target", () => {
  const file = {
    targets: [
      { name: "used", provider: "mock", response: "ok" },
      { name: "keyed", provider: "openai", model: "m", api_key: "${{ MISSING_KEY }}" },
    ],
  };
  const ok = resolveTarget(file, "used", { env: {} });
  assert.equal(ok.name, "used");
  assert.throws(
    () => resolveTarget(file, "keyed", { env: { MISSING_KEY: " " } }),
    (e: unknown) =>
      e instanceof TargetConfigError && e.target === "keyed" &&
      e.message ===
        "Target 'keyed' needs environment variable 'MISSING_KEY' (setting 'api_key'), which is not set or empty" &&
      /\.env/.test(e.hint ?? ""),
  );
});

Deno.test("an unset optional setting falls back to its default with a warning", async () => {
  const warnings: string[] = [];
  const target = createTarget({
    name: "m",
    provider: "mock",
    response: "x",
    delay_ms: "${{ MOCK_DELAY }}",
    max_retries: "${{ RETRIES }}",
  }, { env: { RETRIES: "5" }, onWarning: (w) => warnings.push(w) });
  assert.equal(target.retry.maxRetries, 5);
  assert.deepEqual(warnings, [
    "Target 'm': environment variable 'MOCK_DELAY' (setting 'delay_ms') is not set; using the default",
  ]);
  assert.equal((await target.invoke(makeRequest())).output_messages[0].content, "x");
});

Deno.test("a variable with an invalid value is reported against the setting", () => {
  assert.throws(
    () =>
      createTarget(
        { name: "t", provider: "openai", model: "m", temperature: "${{ TEMP }}" },
        { env: { TEMP: "hot" } },
      ),
    /Target 't' is invalid after substituting \$\{\{ \}\} variables: temperature must be a number between 0 and 2/,
  );
});

Deno.test("targets from the fixture project resolve with .env values (process env wins)", async () => {
  const env = mergeEnv(await loadDotEnv(join(PROJECT, "evals"), PROJECT), { FROM_PROCESS: "p" });
  const target = createTarget({
    name: "echo",
    provider: "cli",
    command_template: "printf '%s|%s|%s' ${{ SHARED }} ${{ OUTER_ONLY }} ${{ FROM_PROCESS }}",
  }, { env });
  const r = await target.invoke(makeRequest());
  assert.equal(r.output_messages[0].content, "inner|outer-only|p");
});
