import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TargetConfigError, TargetsFileError } from "../../lib/dataset/targets_errors.ts";
import { createTarget, resolveTarget } from "../../lib/targets/registry.ts";
import {
  discoverTargetsFile,
  loadTargetsFile,
  validateTargetsFile,
} from "../../lib/dataset/targets_file.ts";
import { FIXTURES } from "./_request.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const CORPUS = fileURLToPath(
  new URL("../../fixtures/corpus/agentv-examples", import.meta.url),
);

async function writeTree(files: Record<string, string>): Promise<string> {
  return (await tempTree(files, { prefix: "agentv-targets-test-" })).root;
}

async function corpusTargetsFiles(dir: string, out: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await corpusTargetsFiles(path, out);
    else if (/\/\.agentv\/targets\.ya?ml$/.test(path)) out.push(path);
  }
  return out;
}

Deno.test("every corpus targets file validates with no errors although its variables are unset", async () => {
  const files = await corpusTargetsFiles(CORPUS);
  assert.ok(files.length >= 7, `found ${files.length}`);
  for (const file of files) {
    const result = await validateTargetsFile(file);
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    assert.deepEqual(errors, [], file);
    assert.equal(result.valid, true);
  }
});

Deno.test("discoverTargetsFile finds the nearest .agentv/targets.* up to the root", async () => {
  const root = await writeTree({
    ".agentv/targets.yaml": "targets: []\n",
    "a/.agentv/targets.jsonc": '{"targets": []}',
    "a/b/c/evals.yaml": "",
    "x/evals.yaml": "",
  });
  try {
    assert.equal(
      await discoverTargetsFile(join(root, "a/b/c/evals.yaml"), { root }),
      join(root, "a/.agentv/targets.jsonc"),
    );
    assert.equal(
      await discoverTargetsFile(join(root, "x/evals.yaml"), { root }),
      join(root, ".agentv/targets.yaml"),
    );
    // nothing above the root is looked at
    assert.equal(
      await discoverTargetsFile(join(root, "a/b/c/evals.yaml"), { root: join(root, "a/b") }),
      undefined,
    );
    // explicit wins; a folder is searched for targets.* and .agentv/targets.*
    assert.equal(
      await discoverTargetsFile(join(root, "a/b/c/evals.yaml"), { root, explicit: root }),
      join(root, ".agentv/targets.yaml"),
    );
    await assert.rejects(
      discoverTargetsFile(join(root, "x/evals.yaml"), { root, explicit: join(root, "nope.yaml") }),
      (e: unknown) => e instanceof TargetConfigError && /Targets file not found/.test(e.message),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadTargetsFile reports problems with line, column and path", async () => {
  const root = await writeTree({
    "targets.yaml": [
      "targets:",
      "  - name: a",
      "    provider: opnai",
      "  - name: b",
      "    provider: CLI",
      "    command_template: run {PROMT} {OUTPUT_FILE}",
      "    timeout_secs: 3",
      "    workers: 99",
      "  - name: a",
      "    provider: mock",
      "    judge_target: judge",
      "",
    ].join("\n"),
  });
  const file = join(root, "targets.yaml");
  try {
    const error = await loadTargetsFile(file).then(() => undefined, (e) => e);
    assert.ok(error instanceof TargetsFileError);
    const found = error.diagnostics.map((d) => [d.severity, d.line, d.column, d.path, d.message]);
    const placeholders =
      "{PROMPT}, {GUIDELINES}, {EVAL_ID}, {ATTEMPT}, {FILES}, {OUTPUT_FILE}, {WORKSPACE}";
    assert.deepEqual(found, [
      [
        "error",
        3,
        15,
        "targets[0].provider",
        "Unknown provider 'opnai'; expected one of openai, azure, anthropic, gemini, cli, mock, codex, claude-code, gemini-cli, qwen-code, copilot-cli, opencode; did you mean 'openai'?",
      ],
      [
        "error",
        6,
        23,
        "targets[1].command_template",
        `Unsupported placeholder '{PROMT}'; supported: ${placeholders}; did you mean '{PROMPT}'?`,
      ],
      [
        "warning",
        7,
        5,
        "targets[1].timeout_secs",
        "Unknown setting 'timeout_secs' for the cli provider is ignored; did you mean 'timeout_seconds'?",
      ],
      ["error", 8, 14, "targets[1].workers", "Workers must be an integer between 1 and 50"],
      [
        "error",
        9,
        11,
        "targets[2].name",
        "Duplicate target name 'a' (first defined at targets[0]); rename one of them",
      ],
      [
        "error",
        11,
        19,
        "targets[2].judge_target",
        "judge_target 'judge' is not defined in this file; defined targets: a, b",
      ],
    ]);
    assert.match(error.message, /targets\.yaml:3:15: Unknown provider 'opnai'/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("JSONC targets files load with comments and trailing commas, with positions", async () => {
  const root = await writeTree({
    "t.jsonc":
      '{\n  // mock\n  "targets": [\n    {"name": "m", "provider": "mock", "delay_ms": -1,},\n  ],\n}\n',
  });
  try {
    const result = await validateTargetsFile(join(root, "t.jsonc"));
    assert.equal(result.valid, false);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.line, d.column, d.path]),
      [[4, 51, "targets[0].delay_ms"]],
    );
    await Deno.writeTextFile(
      join(root, "ok.jsonc"),
      '{"targets": [{"name": "m", "provider": "mock"},]}',
    );
    const file = await loadTargetsFile(join(root, "ok.jsonc"));
    assert.equal(file.targets[0].name, "m");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("known providers that agentv cannot run validate, and fail clearly when used", async () => {
  const file = await loadTargetsFile(join(CORPUS, "features", ".agentv", "targets.yaml"));
  assert.throws(
    () => resolveTarget(file, "vscode", { env: {} }),
    (e: unknown) =>
      e instanceof TargetConfigError &&
      e.message === "Target 'vscode' uses provider 'vscode', which agentv cannot run" &&
      /provider: cli/.test(e.hint ?? ""),
  );
  // codex runs now; the original's settings it does not use are warned about by validate
  const codex = resolveTarget(file, "codex", {
    env: { CODEX_WORKSPACE_DIR: "/tmp/ws", CODEX_LOG_DIR: "/tmp/logs" },
  });
  assert.equal(codex.provider, "codex");
  // an azure target resolves once its variables are set
  const target = resolveTarget(file, "default", {
    env: {
      AZURE_OPENAI_ENDPOINT: "my-resource",
      AZURE_OPENAI_API_KEY: "k-123456",
      AZURE_DEPLOYMENT_NAME: "gpt",
    },
  });
  assert.equal(target.provider, "azure");
});

Deno.test("resolveTarget names the defined targets when the name is unknown", async () => {
  const file = await loadTargetsFile(join(FIXTURES, "project", ".agentv", "targets.yaml"));
  assert.throws(
    () => resolveTarget(file, "defualt", { env: {} }),
    (e: unknown) =>
      e instanceof TargetConfigError &&
      /^Unknown target 'defualt' in .*targets\.yaml; did you mean 'default'\?$/.test(e.message) &&
      e.hint === "defined targets: agent, default",
  );
});

Deno.test("createTarget: provider names are case-insensitive and camelCase aliases are accepted", () => {
  const t = createTarget({
    name: "c",
    provider: "Anthropic",
    apiKey: "k-123456",
    model: "claude",
    maxRetries: 7,
  }, { env: {} });
  assert.equal(t.provider, "anthropic");
  assert.equal(t.retry.maxRetries, 7);
  assert.deepEqual(t.retry.retryStatusCodes, [408, 429, 500, 502, 503, 504]);
  assert.deepEqual(t.secrets, ["k-123456"]);
});
