import { benchLatency } from "./run_bench.ts";
const lat = Number(Deno.env.get("LAT") ?? 0);
const rows = await benchLatency(2000, 32, lat);
console.log(rows[0].measured, "ms");
