/**
 * Whether processes have ended, for tests that check nothing an agent started outlives it. Uses
 * `ps` (reading `/proc` would need `--allow-all`); POSIX only.
 *
 * @module
 */

/**
 * Whether process `pid` has ended: gone, or a zombie (dead, waiting to be reaped). Throws when
 * `ps` cannot answer, so a broken check never passes as "ended".
 */
export async function processEnded(pid: number): Promise<boolean> {
  const out = await new Deno.Command("ps", {
    args: ["-o", "stat=", "-p", String(pid)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stat = new TextDecoder().decode(out.stdout).trim();
  if (out.code !== 0 && stat === "") return true; // no such process
  if (stat === "") throw new Error(`ps could not tell whether ${pid} runs`);
  return stat.startsWith("Z");
}

/**
 * Waits until `pid` has ended (checking every 20 ms); false when it still runs after `tries`
 * checks. A kill is asynchronous, so a process may take a moment to die.
 */
export async function waitProcessEnded(pid: number, tries = 250): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await processEnded(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/**
 * Waits until no process runs whose command line is `commandLine` (checking every 20 ms); false
 * when one still runs after `tries` checks. For processes whose pid the test cannot know (started
 * inside a sandbox's PID namespace): give them a command line no other process has.
 */
export async function waitCommandGone(commandLine: string, tries = 250): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const out = await new Deno.Command("ps", {
      args: ["-e", "-o", "stat=,args="],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) throw new Error("ps could not list the processes");
    const running = new TextDecoder().decode(out.stdout).split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([stat]) => stat !== undefined && !stat.startsWith("Z"))
      .some(([, ...args]) => args.join(" ") === commandLine);
    if (!running) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
