/**
 * A small Chrome DevTools Protocol client for tests: starts a headless Chromium with a fresh
 * profile, talks to it over the WebSocket it announces on stderr ("DevTools listening on
 * ws://…"), and records everything a page reports as a problem (uncaught exceptions,
 * `console.error`, error log entries such as CSP violations, and JavaScript dialogs such as
 * `alert`). No puppeteer or playwright: one WebSocket, the flat session mode, a few commands.
 */

/** The executables looked up on `PATH`, in order, when `CHROMIUM` is not set. */
const CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** Where Chrome or Chromium usually is on macOS and Windows, tried after `PATH`. */
function knownLocations(): string[] {
  const env = (name: string) => Deno.env.get(name) ?? "";
  return [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    ...["ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"].filter((v) => env(v) !== "").map(
      (v) => `${env(v)}\\Google\\Chrome\\Application\\chrome.exe`,
    ),
  ];
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * The path of a Chromium or Chrome executable: `CHROMIUM` from the environment, else the first of
 * {@link CANDIDATES} on `PATH` (with `.exe` on Windows), else a usual install location; undefined
 * when there is none.
 */
export async function findChromium(): Promise<string | undefined> {
  const fromEnv = Deno.env.get("CHROMIUM");
  if (fromEnv) return fromEnv;
  const windows = Deno.build.os === "windows";
  const dirs = (Deno.env.get("PATH") ?? "").split(windows ? ";" : ":").filter((d) => d !== "");
  for (const name of CANDIDATES) {
    for (const dir of dirs) {
      const path = `${dir}/${name}${windows ? ".exe" : ""}`;
      if (await isFile(path)) return path;
    }
  }
  for (const path of knownLocations()) if (await isFile(path)) return path;
  return undefined;
}

type Params = Record<string, unknown>;
type Listener = (params: Params, sessionId: string | undefined) => void;

interface Pending {
  resolve: (result: Params) => void;
  reject: (error: Error) => void;
  method: string;
}

/** A running headless Chromium and its browser-level DevTools connection. */
export class Browser {
  #child: Deno.ChildProcess;
  #socket: WebSocket;
  #profile: string;
  #stderr: Promise<string>;
  #socketClosed: Promise<void>;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #listeners = new Set<Listener & { method: string }>();

  private constructor(
    child: Deno.ChildProcess,
    socket: WebSocket,
    profile: string,
    stderr: Promise<string>,
  ) {
    this.#child = child;
    this.#socket = socket;
    this.#profile = profile;
    this.#stderr = stderr;
    this.#socketClosed = new Promise((resolve) =>
      socket.addEventListener("close", () => resolve())
    );
    socket.addEventListener("message", (event) => this.#onMessage(String(event.data)));
    socket.addEventListener("close", () => {
      for (const pending of this.#pending.values()) {
        pending.reject(new Error(`DevTools connection closed during ${pending.method}`));
      }
      this.#pending.clear();
    });
  }

  /**
   * Starts Chromium headless with a fresh temporary profile and connects to it. The process is
   * started before this returns its promise, so the caller can do other work while it boots.
   */
  static launch(executable: string): Promise<Browser> {
    const profile = Deno.makeTempDirSync({ prefix: "agentv-chromium-" });
    const child = new Deno.Command(executable, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-dev-shm-usage",
        `--user-data-dir=${profile}`,
        "--remote-debugging-port=0",
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Read stderr to its end (so Chromium never blocks on a full pipe), handing over the
    // DevTools URL as soon as it shows up.
    let announce: (url: string | undefined) => void = () => {};
    const announced = new Promise<string | undefined>((resolve) => (announce = resolve));
    const stderr = (async () => {
      let text = "";
      const decoder = new TextDecoderStream();
      for await (const chunk of child.stderr.pipeThrough(decoder)) {
        text += chunk;
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (match) announce(match[1]);
      }
      announce(undefined);
      return text;
    })();
    return Browser.#connect(executable, child, profile, announced, stderr);
  }

  static async #connect(
    executable: string,
    child: Deno.ChildProcess,
    profile: string,
    announced: Promise<string | undefined>,
    stderr: Promise<string>,
  ): Promise<Browser> {
    const url = await announced;
    if (url === undefined) {
      const status = await child.status;
      const text = await stderr;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
      throw new Error(
        `${executable} exited (code ${status.code}) before announcing its DevTools port:\n${text}`,
      );
    }
    const socket = new WebSocket(url);
    const opened = await new Promise<boolean>((resolve) => {
      socket.addEventListener("open", () => resolve(true), { once: true });
      socket.addEventListener("error", () => resolve(false), { once: true });
    });
    if (!opened) {
      child.kill("SIGKILL");
      await child.status;
      await stderr;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
      throw new Error(`cannot connect to Chromium's DevTools at ${url}`);
    }
    return new Browser(child, socket, profile, stderr);
  }

  /** Sends a command (to the browser, or to a page session) and returns its result. */
  send<T = Params>(method: string, params: Params = {}, sessionId?: string): Promise<T> {
    const id = this.#nextId++;
    const message: Params = { id, method, params };
    if (sessionId !== undefined) message.sessionId = sessionId;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (r: Params) => void, reject, method });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Calls `listener` for every `method` event; returns a function that stops it. */
  on(method: string, listener: Listener): () => void {
    const entry = Object.assign((p: Params, s: string | undefined) => listener(p, s), { method });
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** Opens a new tab and attaches to it. */
  async newPage(): Promise<Page> {
    const { targetId } = await this.send<{ targetId: string }>("Target.createTarget", {
      url: "about:blank",
    });
    const { sessionId } = await this.send<{ sessionId: string }>("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    const page = new Page(this, sessionId);
    await page.init();
    return page;
  }

  /** Closes Chromium (Browser.close, then a kill if needed) and removes the temporary profile. */
  async close(): Promise<void> {
    try {
      await this.send("Browser.close");
    } catch {
      // the connection may close before the reply
    }
    if (this.#socket.readyState !== WebSocket.CLOSED) {
      if (this.#socket.readyState !== WebSocket.CLOSING) this.#socket.close();
      await this.#socketClosed;
    }
    const timer = setTimeout(() => {
      try {
        this.#child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000);
    await this.#child.status;
    clearTimeout(timer);
    await this.#stderr;
    try {
      await Deno.remove(this.#profile, { recursive: true });
    } catch (error) {
      // Windows may still hold a file of the exited browser's helpers; a temp dir is left then.
      if (Deno.build.os !== "windows") throw error;
    }
  }

  #onMessage(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      method?: string;
      params?: Params;
      result?: Params;
      error?: { message: string };
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      if (message.error) {
        pending.reject(new Error(`${pending.method}: ${message.error.message}`));
      } else pending.resolve(message.result ?? {});
      return;
    }
    for (const listener of [...this.#listeners]) {
      if (listener.method === message.method) listener(message.params ?? {}, message.sessionId);
    }
  }
}

/** One tab: navigation, evaluation, input, screenshots, and the problems it reported. */
export class Page {
  /** Uncaught exceptions, console errors, error log entries and dialogs, as text. */
  readonly problems: string[] = [];
  /** Messages of JavaScript dialogs (`alert`, `confirm`, `prompt`) the page opened. */
  readonly dialogs: string[] = [];
  #browser: Browser;
  #session: string;

  constructor(browser: Browser, sessionId: string) {
    this.#browser = browser;
    this.#session = sessionId;
  }

  /** Enables the domains the page is watched with and sets a fixed viewport. */
  async init(): Promise<void> {
    const mine = (listener: Listener): Listener => (params, session) => {
      if (session === this.#session) listener(params, session);
    };
    this.#browser.on(
      "Runtime.exceptionThrown",
      mine((p) => {
        const details = p.exceptionDetails as {
          text?: string;
          exception?: { description?: string };
        };
        this.problems.push(`exception: ${details.exception?.description ?? details.text}`);
      }),
    );
    this.#browser.on(
      "Runtime.consoleAPICalled",
      mine((p) => {
        if (p.type !== "error" && p.type !== "assert") return;
        const args = (p.args as { value?: unknown; description?: string }[] | undefined) ?? [];
        this.problems.push(
          `console.${p.type}: ${args.map((a) => a.description ?? String(a.value)).join(" ")}`,
        );
      }),
    );
    this.#browser.on(
      "Log.entryAdded",
      mine((p) => {
        const entry = p.entry as { level: string; text: string; url?: string };
        if (entry.level === "error") this.problems.push(`log: ${entry.text}`);
      }),
    );
    this.#browser.on(
      "Page.javascriptDialogOpening",
      mine((p) => {
        this.dialogs.push(String(p.message));
        this.problems.push(`dialog ${p.type}: ${p.message}`);
        this.send("Page.handleJavaScriptDialog", { accept: false }).catch(() => {});
      }),
    );
    await this.send("Runtime.enable");
    await this.send("Log.enable");
    await this.send("Page.enable");
    await this.send("Emulation.setDeviceMetricsOverride", {
      width: 1280,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
  }

  /** Sends a command to this page's session. */
  send<T = Params>(method: string, params: Params = {}): Promise<T> {
    return this.#browser.send<T>(method, params, this.#session);
  }

  /** Navigates and resolves when the page's load event fired. */
  async goto(url: string): Promise<void> {
    let stop = () => {};
    const loaded = new Promise<void>((resolve) => {
      stop = this.#browser.on("Page.loadEventFired", (_p, session) => {
        if (session === this.#session) resolve();
      });
    });
    const result = await this.send<{ errorText?: string }>("Page.navigate", { url });
    if (result.errorText) {
      stop();
      throw new Error(`cannot load ${url}: ${result.errorText}`);
    }
    await loaded;
    stop();
  }

  /** Evaluates an expression in the page (awaiting a promise) and returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const reply = await this.send<{
      result: { value?: unknown };
      exceptionDetails?: { text?: string; exception?: { description?: string } };
    }>("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (reply.exceptionDetails) {
      const d = reply.exceptionDetails;
      throw new Error(`evaluate(${expression}) threw: ${d.exception?.description ?? d.text}`);
    }
    return reply.result.value as T;
  }

  /**
   * Resolves with the value of `expression` once it is truthy, checked on every animation frame
   * (no sleeps); fails after `frames` frames.
   */
  waitFor<T>(expression: string, frames = 3000): Promise<T> {
    return this.evaluate<T>(`new Promise((resolve, reject) => {
      let left = ${frames};
      const check = () => {
        const value = (${expression});
        if (value) return resolve(value);
        if (--left <= 0) return reject(new Error("never became true: " + ${
      JSON.stringify(expression)
    }));
        requestAnimationFrame(check);
      };
      check();
    })`);
  }

  /** Clicks the centre of the first element matching `selector` (scrolled into view first). */
  async click(selector: string): Promise<void> {
    const box = await this.evaluate<{ x: number; y: number } | null>(`(() => {
      const node = document.querySelector(${JSON.stringify(selector)});
      if (!node) return null;
      node.scrollIntoView({ block: "center" });
      const r = node.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    })()`);
    if (box === null) throw new Error(`no element matches ${selector}`);
    const at = { x: box.x, y: box.y, button: "left", clickCount: 1 };
    await this.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: box.x, y: box.y });
    await this.send("Input.dispatchMouseEvent", { type: "mousePressed", ...at });
    await this.send("Input.dispatchMouseEvent", { type: "mouseReleased", ...at });
  }

  /** Focuses the element matching `selector` and types `text` into it, as a keyboard would. */
  async type(selector: string, text: string): Promise<void> {
    const found = await this.evaluate<boolean>(`(() => {
      const node = document.querySelector(${JSON.stringify(selector)});
      if (!node) return false;
      node.focus();
      return document.activeElement === node;
    })()`);
    if (!found) throw new Error(`cannot focus ${selector}`);
    await this.send("Input.insertText", { text });
  }

  /** A PNG screenshot of the viewport. */
  async screenshot(): Promise<Uint8Array> {
    const { data } = await this.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
}

/** Why a browser test cannot run here, and how to fix it. */
export const MISSING_CHROMIUM =
  "Chromium is not installed (looked for $CHROMIUM, then chromium, chromium-browser, google-chrome on PATH); install it with `apt-get install -y chromium` (Debian; `.ci/run` does this in CI) to run the browser tests";
