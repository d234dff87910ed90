const p = "/tmp/h1/b3/cases.jsonl";
for (let k = 0; k < 3; k++) {
let t = performance.now(); const a = await Deno.readTextFile(p); const t1 = performance.now() - t;
t = performance.now(); const b = await Deno.readFile(p); const t2 = performance.now() - t;
t = performance.now(); const c = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(b); const t3 = performance.now() - t;
t = performance.now(); const i = b.indexOf(0); const t4 = performance.now() - t;
t = performance.now(); const j = a.indexOf("\uFFFD"), jj = a.indexOf("\0"); const t5 = performance.now() - t;
console.log({ readText: t1, readFile: t2, decode: t3, nul: t4, search: t5 });
}
