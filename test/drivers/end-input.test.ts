/**
 * Step `end` and input steps on real servers through the real CLI (test/fixtures/matrices/end-input.yaml):
 * the raw driver, the TypeScript SDK client and the Python SDK's own client each accept the
 * `confirm` tool's input request and end the session the revision's way, over both transports and
 * eras. Checked on the wire (each run's messages.tsv): over Streamable HTTP in the 2025 era an HTTP
 * `DELETE` carrying the session id follows the last request exactly when the server assigned one,
 * and never on 2026-07-28; the Python client answered `elicitation/create` (2025 era) or retried
 * the call with `inputResponses` (2026-07-28).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";

test("end and input steps: every client accepts the input request and ends the session the revision's way", { timeout: 300_000 }, async () => {
  const results = mkdtempSync(join(tmpdir(), "wirecost-end-input-"));
  try {
    const r = await execa(process.execPath, [cli, "run", join(root, "test/fixtures/matrices/end-input.yaml"), "--results", results, "--jobs", "2"], {
      cwd: root,
      reject: false,
    });
    const runs = tsv(join(results, "runs.tsv"));
    assert.equal(runs.length, 16, r.stderr);
    for (const run of runs) assert.equal(run.status, "ok", `${run.config}: ${run.error}`);
    let deletes = 0;
    for (const { config } of runs) {
      const m = tsv(join(results, "logs", config!, "1.messages.tsv"));
      const [client, , transport, revision] = [config!.split("-")[0], "", config!.includes("-http-") ? "http" : "stdio", /\d{4}-\d\d-\d\d/.exec(config!)![0]];
      const c2sHeads = m.filter((x) => x.dir === "c2s" && x.kind === "http-only");
      const deleted = c2sHeads.filter((x) => (x.start_line ?? "").startsWith("DELETE "));
      const assigned = m.some((x) => x.dir === "s2c" && x.kind === "http-only" && (x.header_names ?? "").toLowerCase().split(",").includes("mcp-session-id"));
      if (transport === "http" && revision === "2025-11-25" && assigned) {
        assert.equal(deleted.length, 1, `${config}: one DELETE`);
        assert.ok((deleted[0]!.header_names ?? "").toLowerCase().split(",").includes("mcp-session-id"), `${config}: the DELETE names the session`);
        assert.equal(c2sHeads[c2sHeads.length - 1], deleted[0], `${config}: the DELETE is the last request`);
        deletes++;
      } else assert.equal(deleted.length, 0, `${config}: no DELETE`);
      if (client === "py") {
        if (revision === "2025-11-25") {
          assert.ok(
            m.some((x) => x.dir === "s2c" && x.kind === "request" && x.method === "elicitation/create"),
            `${config}: asked`,
          );
          assert.ok(
            m.some((x) => x.dir === "c2s" && x.kind === "result" && x.method === "elicitation/create"),
            `${config}: answered`,
          );
        } else {
          const calls = m.filter((x) => x.dir === "c2s" && x.kind === "request" && x.method === "tools/call");
          assert.equal(calls.length, 2, `${config}: the call and its retry`);
          assert.ok(
            (JSON.parse(calls[1]!.json_fields || "[]") as string[]).some((f) => f.startsWith("params.inputResponses")),
            `${config}: the retry answers`,
          );
        }
      }
    }
    assert.ok(deletes >= 2, `sessions ended by DELETE: ${deletes}`);
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
});
