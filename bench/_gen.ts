import { writeFixtures } from "./load_bench.ts";
await Deno.mkdir(Deno.args[0], { recursive: true });
console.log(await writeFixtures(Deno.args[0], 100000, 10000));
