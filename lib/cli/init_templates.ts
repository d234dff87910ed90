/**
 * The files `agentv init` writes: a targets file whose `default` target is a mock (so the example
 * evals pass at once, without a key) with a mock judge and commented real targets, the config
 * file, the eval file's JSON Schema (for editors, offline), `.env.example`, an example eval file
 * and a GitHub Actions workflow that runs the evals and keeps the reports; and what it adds to the
 * project's `.gitignore`.
 *
 * @module
 */
import { evalFileJsonSchema } from "../schema/json_schema.ts";

/** One file `agentv init` writes. */
export interface InitFile {
  /** Path relative to the project folder, with `/` separators. */
  path: string;
  /** The file's text. */
  text: string;
}

/** Options of {@link initFiles}. */
export interface InitFilesOptions {
  /** The agentv version the workflow installs (e.g. `0.1.0`). */
  version: string;
  /**
   * The project folder relative to the repository root, with `/` separators (default `""`: the
   * project is the repository root). GitHub runs workflows only from the repository root's
   * `.github/workflows/`: the workflow goes there and runs its steps in this folder.
   */
  projectDir?: string;
}

/** Where the workflow writes results and reports, relative to the project folder. */
export const INIT_RESULTS_DIR = ".agentv/results";

/** What `agentv init` keeps out of git, one per line of the project's `.gitignore`. */
export const INIT_GITIGNORE: readonly string[] = [".env", ".agentv/results/", ".agentv/cache/"];

/** Where the eval file's schema is written, relative to the project folder. */
export const INIT_SCHEMA_PATH = ".agentv/eval.schema.json";

/**
 * The files of a new agentv project, in the order they are written, with paths relative to the
 * repository root (the project's files under `projectDir`, the workflow in `.github/workflows/`).
 * The project's `.gitignore` is not among them: `agentv init` adds {@link INIT_GITIGNORE} to it.
 *
 * @example
 * ```ts
 * import { initFiles } from "./init_templates.ts";
 * const files = initFiles({ version: "0.1.0", projectDir: "evals-project" });
 * console.log(files.map((f) => f.path).includes("evals-project/evals/example.yaml")); // true
 * console.log(files.map((f) => f.path).includes(".github/workflows/agentv.yml")); // true
 * ```
 */
export function initFiles(options: InitFilesOptions): InitFile[] {
  const dir = (options.projectDir ?? "").replace(/\/+$/, "");
  const inProject = (path: string) => dir === "" ? path : `${dir}/${path}`;
  return [
    { path: inProject(".agentv/targets.yaml"), text: TARGETS_YAML },
    { path: inProject(".agentv/config.yaml"), text: CONFIG_YAML },
    {
      path: inProject(INIT_SCHEMA_PATH),
      text: JSON.stringify(evalFileJsonSchema(), null, 2) + "\n",
    },
    { path: inProject(".env.example"), text: ENV_EXAMPLE },
    { path: inProject("evals/example.yaml"), text: exampleEvals() },
    { path: ".github/workflows/agentv.yml", text: workflow(options.version, dir) },
  ];
}

const TARGETS_YAML = `# Targets: who answers the eval cases, and who judges the answers.
# A case uses its \`execution.target\` (default: \`default\`); \`agentv run --target NAME\` overrides it.
# \${{ VAR }} is read from the environment, then from .env files (see .env.example); a missing
# variable is an error only when that target is used.
targets:
  # A mock that answers at once, without a key: the example evals pass against it. Replace it
  # with a real target (uncomment one below and call it \`default\`, or run with --target NAME).
  - name: default
    provider: mock
    response: Paris is the capital of France.
    # Tool calls the mock reports before its answer: {tool, input, output?, id?}.
    tool_calls:
      - tool: search
        input:
          query: capital of France
        output: Paris is the capital and largest city of France.
    judge_target: mock_judge # grades the llm_judge and rubric evaluators of its cases

  # A mock judge that passes every answer: it replies to each judge request in the shape asked
  # for (a score for llm_judge, rubric checks, generated rubrics). Use a real model as the
  # judge_target of a real target; it must reply with that JSON (README: "What a judge must reply").
  - name: mock_judge
    provider: mock
    judge: true

  # - name: openai
  #   provider: openai
  #   api_key: \${{ OPENAI_API_KEY }}
  #   model: gpt-4o-mini
  #   # base_url: http://localhost:11434/v1 # any OpenAI-compatible server
  #   judge_target: openai

  # - name: azure
  #   provider: azure
  #   endpoint: \${{ AZURE_OPENAI_ENDPOINT }} # https://<resource>.openai.azure.com, or the resource name
  #   api_key: \${{ AZURE_OPENAI_API_KEY }}
  #   model: gpt-4o-mini # the deployment name
  #   judge_target: azure

  # - name: anthropic
  #   provider: anthropic
  #   api_key: \${{ ANTHROPIC_API_KEY }}
  #   model: claude-sonnet-4-20250514
  #   judge_target: anthropic

  # - name: gemini
  #   provider: gemini
  #   api_key: \${{ GEMINI_API_KEY }}
  #   model: gemini-2.5-flash
  #   judge_target: gemini

  # Your own agent as a command: {PROMPT} and {OUTPUT_FILE} are shell-quoted for you. It prints
  # its answer (plain text, or JSON with text / output_messages) or writes it to {OUTPUT_FILE}.
  # A command defined here runs only with \`agentv run --allow-run\` or after \`agentv trust\`.
  # - name: my_agent
  #   provider: cli
  #   command_template: ./agent.sh --prompt {PROMPT} --out {OUTPUT_FILE}
  #   cwd: .. # relative to this file's folder
  #   timeout_seconds: 60
  #   env: [MY_AGENT_TOKEN] # variables the command may see (besides PATH, HOME, LANG, TMPDIR)
  #   judge_target: openai
`;

const CONFIG_YAML = `# agentv settings for the datasets in this folder.
# Files an eval case references whose path matches one of these globs are sent to the target as
# guidelines (instructions) rather than as input files.
guideline_patterns:
  - "**/*.instructions.md"
  - "**/*.prompt.md"
  - "**/SKILL.md"
`;

const ENV_EXAMPLE =
  `# Copy this file to .env (and keep .env out of version control), then fill in the keys of the
# targets you use in .agentv/targets.yaml. Variables set in the environment win over .env.
OPENAI_API_KEY=
AZURE_OPENAI_ENDPOINT=
AZURE_OPENAI_API_KEY=
ANTHROPIC_API_KEY=
GEMINI_API_KEY=
`;

function exampleEvals(): string {
  // The schema agentv init wrote beside the targets (an editor reads it offline).
  return `# yaml-language-server: $schema=../${INIT_SCHEMA_PATH}
# Example eval cases. They pass against the mock \`default\` target of ../.agentv/targets.yaml;
# point them at a real target and adjust them to your app. Check: agentv validate evals/
description: Example evals
dataset: example
execution:
  target: default
evalcases:
  - id: capital-of-france
    expected_outcome: Names Paris as the capital of France
    input: What is the capital of France?
    expected_output: Paris is the capital of France.
    evaluators:
      - type: contains
        value: Paris
      - type: regex
        pattern: "\\\\bcapital\\\\b"
        flags: i

  - id: searches-before-answering
    expected_outcome: Looks the answer up with the search tool before answering
    input:
      - role: system
        content: Answer with the search tool's help.
      - role: user
        content: Which city is the capital of France?
    evaluators:
      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
            args:
              query: capital of France
      - type: contains
        values: [Paris, France]
        mode: all

  - id: judged-answer
    expected_outcome: Gives the capital of France in one short sentence
    input: In one sentence, what is the capital of France?
    evaluators:
      # Graded by the target's judge_target (the mock judge; a real model once you switch).
      - type: llm_judge
      - type: latency
        threshold: 60000 # milliseconds

  # Rubrics: the judge checks each one. Plain strings are required rubrics: one that fails fails
  # the case; write {description, required: false} for one that only counts toward the score.
  # (agentv generate rubrics evals/example.yaml writes rubrics for the cases that have none.)
  - id: explains-the-answer
    expected_outcome: Names Paris as the capital of France
    input: Why is Paris the capital of France?
    rubrics:
      - Names Paris
      - description: Mentions the history of the city
        required: false
`;
}

function workflow(version: string, projectDir: string): string {
  const agentv = `jsr:@agentv/agentv@${version}/cli`;
  // GitHub runs workflows from the repository root only: a project in a subfolder runs there.
  const where = projectDir === ""
    ? ""
    : `    defaults:\n      run:\n        working-directory: ${projectDir}\n`;
  const results = projectDir === "" ? INIT_RESULTS_DIR : `${projectDir}/${INIT_RESULTS_DIR}`;
  return `# Runs the agentv evals on pushes, pull requests and on demand, and keeps the reports:
# results (JSONL), a JUnit file for test dashboards and a Markdown summary.
name: agentv evals

on:
  push:
    branches: [main]
  pull_request:
  workflow_dispatch:

permissions:
  contents: read

jobs:
  evals:
    runs-on: ubuntu-latest
    timeout-minutes: 30
${where}    env:
      # The keys your targets use (see .env.example), from the repository's secrets.
      OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
      AZURE_OPENAI_ENDPOINT: \${{ secrets.AZURE_OPENAI_ENDPOINT }}
      AZURE_OPENAI_API_KEY: \${{ secrets.AZURE_OPENAI_API_KEY }}
      ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
      GEMINI_API_KEY: \${{ secrets.GEMINI_API_KEY }}
    steps:
      - uses: actions/checkout@v4

      - uses: denoland/setup-deno@v2
        with:
          deno-version: v2.x

      - name: Install agentv
        run: |
          deno install --global --force --root "$RUNNER_TEMP/agentv" --name agentv \\
            --allow-read --allow-write --allow-env --allow-net --allow-run \\
            --unstable-worker-options ${agentv}
          echo "$RUNNER_TEMP/agentv/bin" >> "$GITHUB_PATH"

      - name: Validate the eval files
        run: agentv validate evals/

      # Exits 1 when a case fails or errors, which fails the job; the reports are uploaded anyway.
      # On GitHub Actions the Markdown summary also lands on the run's page.
      - name: Run the evals
        run: |
          agentv run evals/ --out ${INIT_RESULTS_DIR}/results.jsonl \\
            --report junit:${INIT_RESULTS_DIR}/junit.xml \\
            --report markdown:${INIT_RESULTS_DIR}/summary.md

      - name: Upload the reports
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: agentv-results
          path: ${results}/
          if-no-files-found: warn
`;
}
