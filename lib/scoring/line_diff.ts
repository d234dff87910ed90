/**
 * The unified diff `generate rubrics --dry-run` shows; it lives in `lib/text/unified_diff.ts`
 * (the workspace diff of agent runs uses it too).
 *
 * @module
 */
export { unifiedDiff } from "../text/unified_diff.ts";
