import { benchLoader } from "./load_bench.ts";
console.log(JSON.stringify(await benchLoader({ jsonlCases: 20000, yamlCases: 10, runs: 1 })));
