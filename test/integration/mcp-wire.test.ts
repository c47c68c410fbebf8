/**
 * The walking skeleton end to end against the real MCP TypeScript SDK v2 server: the real CLI
 * runs the committed matrix once per configuration into a temp folder; the JSON-RPC message
 * counts must be those the protocol requires.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

function tsv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, "utf8").trimEnd().split("\n");
  const cols = head!.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

test("npx wirecost run on the committed matrix: message counts per flow and revision, on both transports", { timeout: 180_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-it-"));
  const r = await execa(
    process.execPath,
    [
      cli,
      "run",
      "matrix.yaml",
      "--repeats",
      "2",
      "--results",
      out,
      ...["2025-11-25", "2026-07-28"].flatMap((r) => ["--only", `raw-mcp-ts-v2-*-${r}-plain`, "--only", `raw-mcp-ts-v2-*-${r}-ten`]),
    ],
    { cwd: root, reject: false },
  );
  assert.equal(r.exitCode, 0, r.stderr);
  const med = tsv(join(out, "medians.tsv"));
  const get = (config: string, metric: string) => med.find((m) => m.config === config && m.metric === metric)?.median;
  const expected: Record<string, [string, string]> = {
    "2025-11-25-plain": ["4", "3"],
    "2026-07-28-plain": ["2", "2"],
    "2025-11-25-ten": ["13", "12"],
    "2026-07-28-ten": ["11", "11"],
  };
  for (const transport of ["stdio", "http"]) {
    for (const [cell, [c2s, s2c]] of Object.entries(expected)) {
      const id = `raw-mcp-ts-v2-${transport}-${cell}`;
      assert.equal(get(id, "jsonrpc_c2s"), c2s, `${id} jsonrpc_c2s`);
      assert.equal(get(id, "jsonrpc_s2c"), s2c, `${id} jsonrpc_s2c`);
      assert.equal(get(id, "newline_bytes"), transport === "stdio" ? String(Number(c2s) + Number(s2c)) : "0", `${id} newline_bytes`);
      assert.ok(existsSync(join(out, "logs", id, "1.jsonl")), `${id} capture log kept`);
    }
  }
  // 2026-07-28 requests carry the _meta envelope; 2025-era requests carry none.
  assert.ok(Number(get("raw-mcp-ts-v2-http-2026-07-28-plain", "meta_bytes")) > 0);
  assert.equal(get("raw-mcp-ts-v2-http-2025-11-25-plain", "meta_bytes"), "0");
  // 2025-era HTTP answers are SSE; 2026-07-28 answers are plain JSON.
  assert.ok(Number(get("raw-mcp-ts-v2-http-2025-11-25-plain", "sse_events")) >= 2);
  assert.equal(get("raw-mcp-ts-v2-http-2026-07-28-plain", "sse_events"), "0");
  const summary = tsv(join(out, "summary.tsv"));
  assert.equal(summary.length, 8);
  for (const s of summary) {
    assert.equal(s.repeats_ok, "2", `${s.config} repeats ok`);
    assert.match(s.count_identical!, /^(yes|no)$/);
  }
  const prov = JSON.parse(readFileSync(join(out, "provenance.json"), "utf8")) as { packages: Record<string, string> };
  assert.equal(prov.packages["@modelcontextprotocol/server"], "2.4.0");
});
