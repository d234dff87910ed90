/**
 * Serving the viewer: `Deno.serve` on 127.0.0.1 (never another interface), on a free port unless
 * one is asked for; the URL to open carries the per-process token.
 *
 * @module
 */
import { createViewApp, type ViewAppOptions } from "./view_app.ts";

/** A running viewer. */
export interface ServedView {
  /** The URL to open: `http://127.0.0.1:<port>/?token=<token>`. */
  url: string;
  /** The port bound. */
  port: number;
  /** The per-process token. */
  token: string;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
  /** Stops the server (open connections are closed). */
  shutdown(): Promise<void>;
}

/** Options of {@link serveView}. */
export interface ServeViewOptions extends ViewAppOptions {
  /** The port (default 0: a free one). */
  listenPort?: number;
}

/**
 * Starts the viewer on 127.0.0.1.
 *
 * @example
 * ```ts ignore
 * const view = serveView({ store, labelsFile: "/repo/.agentv/labels.jsonl" });
 * console.log(view.url);
 * await view.shutdown();
 * ```
 */
export function serveView(options: ServeViewOptions): ServedView {
  const app = createViewApp(options);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.listenPort ?? 0, onListen: () => {} },
    app.handler,
  );
  const port = server.addr.port;
  app.setPort(port);
  return {
    url: `http://127.0.0.1:${port}/?token=${app.token}`,
    port,
    token: app.token,
    finished: server.finished,
    shutdown: () => server.shutdown(),
  };
}
