/**
 * A large answer is counted correctly over both transports, through the real CLI
 * (test/fixtures/large-body.yaml: a 24 MiB tools/call answer, one line over stdio, one SSE event
 * in 64 KiB chunked pieces over HTTP). Not a timing test: the run's own time limit (30 s) only
 * has to hold, which it did not while the HTTP parser copied the body so far on every chunk
 * (bench/large-body.ts measures the two side by side).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";

const PAD_BYTES = 25_165_824;

test("a 24 MiB answer: both runs ok, its JSON-RPC message counted to the byte over stdio and HTTP, every byte in one place", { timeout: 120_000 }, async () => {
  const out = join(mkdtempSync(join(tmpdir(), "wirecost-large-")), "results");
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/large-body.yaml", "--jobs", "2", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 0, r.stderr);
  const runs = new Map(tsv(join(out, "runs.tsv")).map((x) => [x.config!, x]));
  for (const transport of ["stdio", "http"]) {
    const config = `raw-large-${transport}-2025-11-25-plain`;
    const run = runs.get(config)!;
    assert.equal(run.status, "ok", `${config}: ${run.error}`);
    const table = tsv(join(out, "logs", config, "1.messages.tsv"));
    const answer = table.find((m) => m.kind === "result" && m.method === "tools/call");
    assert.ok(answer, `${config}: the tools/call answer is a message`);
    const expected = JSON.stringify({
      jsonrpc: "2.0",
      id: Number(answer.id),
      result: {
        content: [
          { type: "text", text: "hello" },
          { type: "text", text: "x".repeat(PAD_BYTES) },
        ],
      },
    }).length;
    assert.equal(Number(answer.body_bytes), expected, `${config}: the answer's bytes`);
    // The per-message table holds every byte of the log once: it sums to the run's total.
    const sum = table.reduce(
      (s, m) => s + ["head_bytes", "body_bytes", "framing_bytes", "newline_bytes", "unattributed_bytes"].reduce((t, k) => t + Number(m[k]), 0),
      0,
    );
    assert.equal(sum, Number(run.total_bytes), `${config}: messages.tsv sums to total_bytes`);
    assert.equal(Number(run.unattributed_bytes), 0, config);
  }
  const http = runs.get("raw-large-http-2025-11-25-plain")!;
  assert.equal(Number(http.sse_events), 3, "one SSE event per answer");
  assert.ok(Number(http.chunk_framing_bytes) > 0, "the large answer went chunked");
});
