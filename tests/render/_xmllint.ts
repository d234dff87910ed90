/**
 * `xmllint` (Debian libxml2-utils) for the JUnit report tests: validation against the JUnit XSD
 * kept in `fixtures/junit.xsd`. On CI (`CI=true`) a missing xmllint fails the tests that need it
 * with a clear message (`.ci/run` installs it); elsewhere those tests are ignored, with a warning.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/** The JUnit schema the reports are checked against. */
export const JUNIT_XSD: string = fileURLToPath(
  new URL("../results/fixtures/junit.xsd", import.meta.url),
);

/** Whether `xmllint` runs on this machine. */
export const HAS_XMLLINT: boolean = await new Deno.Command("xmllint", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);

/** Whether tests that need xmllint are ignored: only when it is missing outside CI. */
export const XMLLINT_IGNORED: boolean = !HAS_XMLLINT && Deno.env.get("CI") !== "true";

if (XMLLINT_IGNORED) {
  console.warn(
    "xmllint not found: the JUnit schema tests are ignored (apt-get install libxml2-utils)",
  );
}

/**
 * Validates an XML text against the JUnit XSD with `xmllint --noout --schema`; resolves to its
 * exit code and messages. Fails at once, saying how to install it, when xmllint is missing.
 */
export async function validateJunit(xml: string): Promise<{ code: number; stderr: string }> {
  assert.ok(
    HAS_XMLLINT,
    "xmllint is not installed: install Debian's libxml2-utils (.ci/run does it on CI)",
  );
  const file = await Deno.makeTempFile({ suffix: ".xml" });
  try {
    await Deno.writeTextFile(file, xml);
    const out = await new Deno.Command("xmllint", {
      args: ["--noout", "--schema", JUNIT_XSD, file],
      stdout: "null",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  } finally {
    await Deno.remove(file);
  }
}
