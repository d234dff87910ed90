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
