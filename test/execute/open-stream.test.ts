/**
 * The raw driver ends an exchange at its JSON-RPC response, not at the end of the HTTP response
 * (MCP 2025-11-25, Streamable HTTP, "Sending Messages to the Server": the server SHOULD close the
 * SSE stream after all responses are sent). A bytes run of flow plain, through the real CLI and
 * relay, against the fault target that keeps each event stream open (a `: ping` every second,
 * closed after 30 s) finishes in seconds on both revisions; each open stream is left on its own
 * connection (the next POST goes on a new one), and the capture log keeps every response event.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { alive, tsv } from "./helpers.js";

test("a raw-driver run against a server that keeps each event stream open for 30 s takes seconds", { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-open-stream-"));
  const pids = mkdtempSync(join(tmpdir(), "wirecost-pids-"));
  const target = join(root, "test/fixtures/fault-targets/open-stream.mjs");
  const matrix = [
    "version: 1",
    "timeoutSeconds: 60",
    "axes:",
    "  - name: client",
    "    values: [raw]",
    "  - name: target",
    "    values: [open-stream]",
    "  - name: transport",
    "    values: [http]",
    "  - name: revision",
    '    values: ["2025-11-25", "2026-07-28"]',
    "  - name: flow",
    "    values: [plain]",
    "targets:",
    "  open-stream:",
    "    http:",
    `      argv: [node, ${JSON.stringify(target)}, --port, "{port}"]`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "open.yaml"), matrix);
  const t0 = Date.now();
  const r = await execa(process.execPath, [cli, "run", join(dir, "open.yaml"), "--results", join(dir, "r")], {
    cwd: root,
    reject: false,
    env: { FAULT_PID_DIR: pids },
  });
  const wallMs = Date.now() - t0;
  // The runs' own time, as the CLI reports it (start-up of the CLI itself not included).
  const runSeconds = Number(/ runs ok in ([\d.]+) s/.exec(r.stderr)?.[1]);
  t.diagnostic(`two runs of flow plain: ${runSeconds} s (the CLI in all: ${wallMs} ms)`);
  assert.ok(runSeconds < 10, `the runs took ${runSeconds} s (a stream held open is 30 s): ${r.stderr}`);
  assert.ok(wallMs < 25_000, `the CLI took ${wallMs} ms`);
  const runs = tsv(join(dir, "r", "runs.tsv"));
  assert.equal(runs.length, 2);
  // Exchanges: initialize, notifications/initialized (202), tools/list, tools/call (2025 era); tools/list, tools/call (2026-07-28).
  const expected: Record<string, { answers: string[]; connections: number }> = {
    "raw-open-stream-http-2025-11-25-plain": { answers: ["initialize", "tools/list", "tools/call"], connections: 3 },
    "raw-open-stream-http-2026-07-28-plain": { answers: ["tools/list", "tools/call"], connections: 2 },
  };
  for (const run of runs) {
    const want = expected[run.config!]!;
    assert.ok(want, run.config);
    // The driver finished: the run is ok, or it failed only in counting the streams left open
    // (until the counter names that anomaly), never a driver error or a timeout.
    assert.ok(run.status === "ok" || /^counting /.test(run.error!), `${run.config}: ${run.status} ${run.error}`);
    const records = readFileSync(join(dir, "r", "logs", run.config!, "1.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { conn: number; dir: string; b64?: string });
    const s2c = records.filter((x) => x.dir === "s2c" && x.b64).map((x) => Buffer.from(x.b64!, "base64").toString());
    const events = s2c.join("").match(/data: \{"jsonrpc":"2\.0","id":\d+,"result":\{[^\n]*\n\n/g) ?? [];
    assert.equal(events.length, want.answers.length, `${run.config}: every response event is in the capture log`);
    assert.match(events.at(-1)!, /"text":"hello"/);
    assert.equal(new Set(records.map((x) => x.conn)).size, want.connections, `${run.config}: each stream left open keeps its own connection`);
  }
  assert.deepEqual(readdirSync(pids).map(Number).filter(alive), [], "the targets are gone");
});
