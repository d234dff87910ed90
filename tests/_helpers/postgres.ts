/**
 * A throwaway PostgreSQL server for the team store's tests: `initdb` in a temporary folder, then
 * `pg_ctl start` listening on 127.0.0.1 only, on a free port, with its socket in that folder;
 * stopped and deleted afterwards. The server refuses to run as root, so as root the commands run
 * as the `postgres` user (`runuser`), which owns the folder. `.ci/run` installs Debian
 * `postgresql` (the server binaries under `/usr/lib/postgresql/<version>/bin`); `PG_BIN` names
 * another folder of them.
 *
 * A test that needs the server is ignored (with a message saying how to install it) when the
 * binaries are missing, except with `CI=true` on Linux: then it fails with that message. CI
 * installs the server on Linux only: the store's SQL and its client (npm `postgres`, plain TCP)
 * are the same on every system, and the SQLite store runs the same contract everywhere. On macOS
 * the tests run when the binaries are found (`PG_BIN`, `pg_config --bindir`); on Windows they are
 * always ignored, since this helper starts the server the POSIX way (a Unix socket folder,
 * `runuser`, `initdb` without `.exe`).
 *
 * ```ts ignore
 * const postgres = await locatePostgres();
 * Deno.test({ name: "…", ignore: postgres.ignore, async fn() {
 *   const server = await startPostgres(postgres.require());
 *   try { … server.url … } finally { await server.stop(); }
 * } });
 * ```
 *
 * @module
 */
import { join } from "node:path";

/** Why the PostgreSQL tests cannot run here, and how to fix it. */
export const MISSING_POSTGRES =
  "PostgreSQL is not installed (looked for initdb and pg_ctl in $PG_BIN, /usr/lib/postgresql/*/bin and `pg_config --bindir`); install it with `apt-get install -y postgresql` (Debian; `.ci/run` does this in CI) to run the PostgreSQL tests";

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function output(command: string, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The folder holding `initdb` and `pg_ctl`, or undefined. */
export async function findPostgresBin(): Promise<string | undefined> {
  const candidates: string[] = [];
  const fromEnv = Deno.env.get("PG_BIN");
  if (fromEnv) candidates.push(fromEnv);
  try {
    const versions = (await Array.fromAsync(Deno.readDir("/usr/lib/postgresql")))
      .map((e) => e.name).filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    // not Debian's layout
  }
  const fromConfig = await output("pg_config", ["--bindir"]);
  if (fromConfig) candidates.push(fromConfig);
  for (const dir of candidates) {
    if (await isFile(join(dir, "initdb")) && await isFile(join(dir, "pg_ctl"))) return dir;
  }
  return undefined;
}

/** The result of looking for the server binaries. */
export interface LocatedPostgres {
  /** Whether tests needing PostgreSQL should be ignored (missing, and not in CI). */
  ignore: boolean;
  /** The binaries' folder; throws {@link MISSING_POSTGRES} when missing (what CI fails with). */
  require(): string;
}

let warned = false;

/** Why the PostgreSQL tests never run on Windows. */
export const POSTGRES_ON_WINDOWS =
  "the PostgreSQL tests do not run on Windows (tests/_helpers/postgres.ts starts the server the POSIX way: a Unix socket folder, runuser, initdb without .exe); the SQLite store tests cover the store there";

/** Looks for the server binaries once per test file. */
export async function locatePostgres(): Promise<LocatedPostgres> {
  const windows = Deno.build.os === "windows";
  const bin = windows ? undefined : await findPostgresBin();
  const reason = windows ? POSTGRES_ON_WINDOWS : MISSING_POSTGRES;
  // CI installs the server on Linux only (.github/workflows/ci.yml, .ci/run).
  const required = Deno.env.get("CI") === "true" && Deno.build.os === "linux";
  if (bin === undefined && !required && !warned) {
    warned = true;
    console.warn(`ignoring the PostgreSQL tests: ${reason}`);
  }
  return {
    ignore: bin === undefined && !required,
    require() {
      if (bin === undefined) throw new Error(`${reason}; CI=true on Linux requires it`);
      return bin;
    },
  };
}

/** A running throwaway server. */
export interface PostgresServer {
  /** `postgres://agentv@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function run(argv: string[], asPostgres: boolean): Promise<void> {
  const [command, ...args] = asPostgres ? ["runuser", "-u", "postgres", "--", ...argv] : argv;
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    const text = new TextDecoder();
    throw new Error(
      `${argv.join(" ")} failed (${out.code}):\n${text.decode(out.stdout)}${
        text.decode(out.stderr)
      }`,
    );
  }
}

/** Starts a server from the binaries in `bin` (see the module doc). */
export async function startPostgres(bin: string): Promise<PostgresServer> {
  const dir = await Deno.makeTempDir({ prefix: "agentv-pg-" });
  const asPostgres = (await output("id", ["-u"])) === "0";
  const data = join(dir, "data");
  try {
    if (asPostgres) await run(["chown", "postgres:postgres", dir], false);
    await run([
      join(bin, "initdb"),
      "-D",
      data,
      "--auth=trust",
      "-U",
      "agentv",
      "-E",
      "UTF8",
      "--no-sync",
    ], asPostgres);
    let port = 0;
    for (let attempt = 0;; attempt++) {
      port = freePort();
      const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
      try {
        await run(
          [join(bin, "pg_ctl"), "-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"],
          asPostgres,
        );
        break;
      } catch (error) {
        if (attempt >= 2) throw error; // the free port was taken in between: try another
      }
    }
    return {
      url: `postgres://agentv@127.0.0.1:${port}/postgres`,
      async stop() {
        try {
          await run([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], asPostgres);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      },
    };
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
}
