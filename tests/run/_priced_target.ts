/**
 * The priced OpenAI-compatible target the budget tests share: $1 per token in and out, so every
 * amount is a whole number of dollars computed by hand, and no retries.
 *
 * @module
 */

/** Options of {@link pricedTarget}. */
export interface PricedTargetOptions {
  /** `max_tokens` (default 10); `null` leaves it out. */
  maxTokens?: number | null;
  /** Whether it has `pricing` (default true). */
  priced?: boolean;
  /** `model` (default `m`). */
  model?: string;
  /** `api_key` (default `sk-test`). */
  apiKey?: string;
  /** More settings lines, each indented by four spaces and ending in a newline. */
  extra?: string;
}

/** One entry of a targets file's `targets:` list: an openai target named `name` at `url`. */
export function pricedTarget(name: string, url: string, options: PricedTargetOptions = {}): string {
  const maxTokens = options.maxTokens === undefined ? 10 : options.maxTokens;
  return `  - name: ${name}
    provider: openai
    base_url: ${url}
    api_key: ${options.apiKey ?? "sk-test"}
    model: ${options.model ?? "m"}
${maxTokens === null ? "" : `    max_tokens: ${maxTokens}\n`}    max_retries: 0
${options.extra ?? ""}${
    options.priced === false
      ? ""
      : "    pricing: {input_per_mtok: 1000000, output_per_mtok: 1000000}\n"
  }`;
}
