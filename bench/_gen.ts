// generate using bench internals
import { join } from "node:path";
const mod = await import("./load_bench.ts");
