/**
 * The wire matrix's targets on mark3labs/mcp-go, FastMCP and the official Java SDK, each built by
 * the runner from its committed lock (built on first use): over HTTP each prints
 * `listening on 127.0.0.1:PORT` and exits 0 on SIGTERM; a bad argument exits 2 with one line
 * naming it. (Their bytes in every main flow: built-wire.test.ts.) Skipped with the reason where a
 * toolchain is missing, required under CI=true.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ensureBuilt } from "../../runner/build/build.js";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { freePort, startTarget, waitForPort } from "../../runner/targets/process.js";
import { root } from "../paths.js";

const matrix = loadMatrix(join(root, "matrix.yaml"));

/** Why a target cannot be built here: its test is skipped with the reason, except under CI=true. */
function skipUnless(name: string): string | false {
  const missing = missingToolchain(matrix.targets[name]!, dirname(matrix.file));
  return missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
}

/** Polls `f` every 10 ms until it returns a value or `ms` pass. */
async function until<T>(f: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (let v = f(); ; v = f()) {
    if (v !== undefined || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const name of ["mcp-mark3labs", "mcp-fastmcp", "mcp-java"]) {
  test(`${name} builds, listens on 127.0.0.1 only, exits 0 on SIGTERM and 2 on a bad argument`, { timeout: 900_000, skip: skipUnless(name) }, async () => {
    await ensureBuilt(matrix, [name]);
    const t = matrix.targets[name]!;
    const port = await freePort();
    const proc = startTarget(t.commands.http!, { target: name, port: String(port) }, dirname(matrix.file));
    try {
      await waitForPort(port, 60_000, () => proc.exit() === undefined);
      assert.equal(await until(() => proc.listeningLine(), 10_000), `listening on 127.0.0.1:${port}`);
    } finally {
      await proc.stop();
    }
    assert.equal(proc.exit(), "0", "exit 0 on SIGTERM");

    const bad = startTarget({ ...t.commands.stdio!, argv: [...t.commands.stdio!.argv, "--bogus", "1"] }, { target: name }, dirname(matrix.file));
    const exit = await until(() => bad.exit(), 60_000);
    assert.equal(exit, "2", `exit 2 on --bogus: ${bad.stderrExcerpt()}`);
    assert.match(bad.stderrExcerpt(), /-bogus/, "the one line names the argument");
  });
}
