/**
 * Child process of the loader bench: streams one JSONL file through `streamEvalCases` in a fresh
 * process and prints the peak RSS growth over the process's baseline as JSON.
 *
 * @module
 */
import { streamEvalCases } from "../lib/dataset/stream_eval_cases.ts";

function peakRss(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    if (kb !== undefined) return Number(kb) * 1024;
  } catch {
    // not Linux: fall back to sampling
  }
  return Deno.memoryUsage().rss;
}

const path = Deno.args[0];
const baseline = peakRss();
let sampled = Deno.memoryUsage().rss;
let cases = 0;
for await (const _ of streamEvalCases(path)) {
  if (++cases % 1000 === 0) sampled = Math.max(sampled, Deno.memoryUsage().rss);
}
const peak = Math.max(peakRss(), sampled);
console.log(JSON.stringify({ cases, deltaBytes: peak - baseline }));
