/**
 * The `.agentv/config.yaml` file: which referenced files are guidelines.
 *
 * @module
 */
import { z } from "zod";

/** Guideline patterns used when no config sets `guideline_patterns`. */
export const DEFAULT_GUIDELINE_PATTERNS: readonly string[] = [
  "**/*.instructions.md",
  "**/*.prompt.md",
  "**/SKILL.md",
];

/** The `.agentv/config.yaml` mapping. */
export const AgentvConfigSchema = z.strictObject({
  $schema: z.string({ error: "$schema must be a string" }).optional(),
  guideline_patterns: z.array(
    z.string({ error: "a guideline pattern must be a string" }).min(1, {
      error: "a guideline pattern must not be empty",
    }),
    { error: "guideline_patterns must be a list of glob patterns (e.g. '**/*.instructions.md')" },
  ).optional(),
});

/**
 * The `.agentv/config.yaml` mapping.
 *
 * @example
 * ```ts
 * const config: AgentvConfig = { guideline_patterns: ["**\/*.instructions.md"] };
 * ```
 */
export type AgentvConfig = z.output<typeof AgentvConfigSchema>;

/**
 * Validates a parsed config value.
 *
 * @example
 * ```ts
 * parseAgentvConfig({ guideline_patterns: ["*.md"] }).success; // true
 * ```
 */
export function parseAgentvConfig(value: unknown): z.ZodSafeParseResult<AgentvConfig> {
  return AgentvConfigSchema.safeParse(value);
}
