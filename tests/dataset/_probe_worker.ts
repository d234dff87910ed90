/**
 * A test worker that tries things the sandbox must refuse. It runs with the sandbox's
 * permissions (`sandboxPermissions`) so the tests observe what the Deno runtime itself allows;
 * the `confine` probe adds the worker's symlink guard (`confineReads`) as `load_worker.ts` does.
 *
 * @module
 */
import { confineReads } from "../../lib/dataset/confine_reads.ts";
import { loadEvalFile } from "../../lib/dataset/load_eval_file.ts";

type Probe =
  | { op: "confine"; root: string }
  | { op: "read"; path: string }
  | { op: "env"; name: string }
  | { op: "write"; path: string }
  | { op: "net" }
  | { op: "run" }
  | { op: "load"; path: string; root: string };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Probe>) => void) | null;
  postMessage(message: unknown): void;
};

async function probe(p: Probe): Promise<unknown> {
  switch (p.op) {
    case "confine":
      confineReads(p.root);
      return "confined";
    case "read":
      return await Deno.readTextFile(p.path);
    case "env":
      return Deno.env.get(p.name) ?? null;
    case "write":
      await Deno.writeTextFile(p.path, "x");
      return "written";
    case "net": {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: 9 });
      conn.close();
      return "connected";
    }
    case "run":
      return (await new Deno.Command("true").output()).code;
    case "load":
      return await loadEvalFile(p.path, { root: p.root });
  }
}

scope.onmessage = async (event) => {
  try {
    scope.postMessage({ ok: true, value: await probe(event.data) });
  } catch (error) {
    scope.postMessage({ ok: false, name: (error as Error).name, message: String(error) });
  }
};
