/**
 * The per-call client ends an exchange at its JSON-RPC response, not at the end of the HTTP
 * response (MCP 2025-11-25, Streamable HTTP, "Sending Messages to the Server": the server SHOULD
 * close the SSE stream after all responses are sent). Against the fault target that keeps each
 * event stream open (a `: ping` every second, closed after 30 s), a session opens, lists, calls
 * sequentially and pipelined in well under a second a call, on both revisions, and closing it
 * leaves no process.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpCallClient } from "../../runner/percall/client.js";
import { alive } from "../execute/helpers.js";
import { root } from "../paths.js";

const OPEN_STREAM = join(root, "test/fixtures/fault-targets/open-stream.mjs");

for (const revision of ["2025-11-25", "2026-07-28"]) {
  test(`per-call client (${revision}) against a server that keeps each event stream open for 30 s: calls take milliseconds`, { timeout: 30_000 }, async (t) => {
    const pids = mkdtempSync(join(tmpdir(), "wirecost-pids-"));
    const command = { argv: ["node", OPEN_STREAM, "--port", "{port}"], env: { FAULT_PID_DIR: pids } };
    const t0 = Date.now();
    const { client, setup } = await McpCallClient.start(
      { command, values: {}, transport: "http", revision, cwd: root, timeoutMs: 20_000 },
      { name: "echo", arguments: { text: "first" } },
    );
    try {
      assert.ok(setup.firstCallMs < 5000, `start-up to the first call took ${setup.firstCallMs} ms`);
      for (let i = 0; i < 5; i++) {
        const c0 = Date.now();
        const r = await client.callTool("echo", { text: `call ${i}` });
        assert.deepEqual(r.content, [{ type: "text", text: `call ${i}` }]);
        assert.ok(Date.now() - c0 < 400, `call ${i} took ${Date.now() - c0} ms: it waited on the open stream`);
      }
      const answers = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => client.callTool("echo", { text: `p${i}` })));
      assert.deepEqual(
        answers.map((a) => (a.content as { text: string }[])[0]!.text),
        ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"],
      );
    } finally {
      await client.close();
    }
    const wallMs = Date.now() - t0;
    t.diagnostic(`session of 14 calls: ${wallMs} ms (start-up ${Math.round(setup.firstCallMs)} ms)`);
    assert.ok(wallMs < 10_000, `the session took ${wallMs} ms (a stream held open is 30 s)`);
    const recorded = readdirSync(pids).map(Number);
    assert.equal(recorded.length, 1, "the target recorded its pid");
    assert.deepEqual(recorded.filter(alive), [], "the target is gone");
  });
}
