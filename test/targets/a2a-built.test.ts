/**
 * The built A2A targets, each built by the runner from its committed lock (the A2A matrix's
 * `build:`): a2a-rust (release build), a2a-go and a2a-py start, print their listening line, answer the
 * timing workload's exact request and exit 0 on SIGTERM. a2a-py runs only on uvicorn's fast path:
 * it says uvloop + httptools in its listening line, and refuses to start, exit 2 with one line,
 * when uvloop or httptools cannot be imported (a module of that name that raises ImportError
 * shadows the real one on PYTHONPATH: the import genuinely fails).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { ensureBuilt } from "../../runner/build/build.js";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { WORKLOADS } from "../../runner/measure/workloads.js";
import { freePort, startTarget, waitForPort } from "../../runner/targets/process.js";
import { root } from "../paths.js";

const matrix = loadMatrix(join(root, "matrices/a2a-layer-cost.yaml"));
/** Why a target cannot be built here: tests are skipped with the reason, except under CI=true (as .ci/run runs), where they are required. */
function skipUnless(name: string): string | false {
  const missing = missingToolchain(matrix.targets[name]!, dirname(matrix.file));
  return missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
}
const py = matrix.targets["a2a-py"]!;
const python = join(py.build!.dir, "venv", "bin", "python");
const server = join(root, "targets/a2a-py/server.py");

const LISTENING: Record<string, (port: number) => string> = {
  "a2a-rust": (port) => `listening on 127.0.0.1:${port}`,
  "a2a-go": (port) => `listening on 127.0.0.1:${port}`,
  "a2a-py": (port) => `listening on 127.0.0.1:${port} loop=uvloop http=httptools`,
};

for (const name of Object.keys(LISTENING)) {
  test(`${name} builds, starts, says it listens and answers the workload`, { timeout: 900_000, skip: skipUnless(name) }, async () => {
    await ensureBuilt(matrix, [name]);
    const port = await freePort();
    // The runner's own way to start a target and read its listening line (runner/targets/process.ts).
    const proc = startTarget(matrix.targets[name]!.commands.http!, { target: name, port: String(port) }, dirname(matrix.file));
    try {
      await waitForPort(port, 60_000, () => proc.exit() === undefined);
      const deadline = Date.now() + 10_000;
      while (proc.listeningLine() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.equal(proc.listeningLine(), LISTENING[name]!(port));
      const client = await KeepAliveClient.connect(port);
      const req = WORKLOADS["a2a-send-message"]!(port);
      await new Promise<void>((resolve, reject) => client.exchange(req, (e) => (e ? reject(e) : resolve())));
      assert.ok(client.lastBodyBytes > 0);
      client.close();
    } finally {
      await proc.stop();
    }
    assert.equal(proc.exit(), "0", "exit 0 on SIGTERM");
  });
}

for (const mod of ["uvloop", "httptools"]) {
  test(`a2a-py refuses to start without ${mod}`, { timeout: 600_000, skip: skipUnless("a2a-py") }, async () => {
    await ensureBuilt(matrix, ["a2a-py"]);
    const shadow = mkdtempSync(join(tmpdir(), "wirecost-shadow-"));
    writeFileSync(join(shadow, `${mod}.py`), `raise ImportError("${mod} hidden by the test")\n`);
    const r = await execa(python, [server, "--port", "0"], { reject: false, env: { PYTHONPATH: shadow }, timeout: 60_000 });
    assert.equal(r.exitCode, 2, r.stderr);
    assert.equal(r.stdout, "");
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0]!,
      new RegExp(`^${mod} is not installed \\(${mod} hidden by the test\\): the A2A Python target runs only on uvicorn's fast path — rebuild the target`),
    );
  });
}
