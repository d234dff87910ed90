/** Test worker: validates one eval file with whatever permissions the test gave it. */
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<{ path: string; root: string }>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (e) => {
  try {
    const report = await validateEvalFile(e.data.path, { root: e.data.root });
    scope.postMessage({ ok: true, report });
  } catch (error) {
    scope.postMessage({ ok: false, error: String(error) });
  }
};
