/**
 * A tool other than echo, with JSON arguments: named per target in the matrix (`tool:`, flow
 * `plain`) and named in the steps of a declared flow (`sum`). The raw driver, the TypeScript SDK
 * client and the Python SDK's own client (a declared client, through WIRECOST_TOOL_NAME /
 * WIRECOST_TOOL_ARGUMENTS and WIRECOST_FLOW_STEPS) call `add` {"a": 2, "b": 3} on real servers, on
 * both transports and eras. The counts are checked against the capture logs: every client's tools/call
 * names the tool with those arguments and is answered 5; the raw driver's client→server bytes are
 * exactly the messages it must send, and each row's c2s and s2c bytes are the log's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";
import { initializeParams, metaEnvelope } from "../../runner/drivers/mcp/revision.js";

interface Chunk {
  conn: number;
  dir: "c2s" | "s2c";
  bytes: Buffer;
}

function chunks(log: string): Chunk[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l)
    .map((l) => JSON.parse(l) as { conn?: number; dir: "c2s" | "s2c"; b64?: string })
    .filter((o) => o.b64 !== undefined)
    .map((o) => ({ conn: o.conn ?? 0, dir: o.dir, bytes: Buffer.from(o.b64!, "base64") }));
}

/** The JSON objects in `text` that parse, outermost first (stdio lines, HTTP bodies, SSE data alike). */
function jsonObjects(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let i = text.indexOf("{");
  while (i >= 0) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = i; j < text.length && end < 0; j++) {
      const ch = text[j];
      if (inString) {
        if (ch === "\\") j++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) end = j;
    }
    if (end < 0) break;
    try {
      out.push(JSON.parse(text.slice(i, end + 1)) as Record<string, unknown>);
      i = text.indexOf("{", end + 1);
    } catch {
      i = text.indexOf("{", i + 1);
    }
  }
  return out;
}

/** JSON-RPC messages in one direction's bytes, connection by connection. */
function messages(cs: Chunk[], dir: "c2s" | "s2c"): Record<string, unknown>[] {
  const conns = [...new Set(cs.map((c) => c.conn))];
  return conns.flatMap((conn) =>
    jsonObjects(Buffer.concat(cs.filter((c) => c.dir === dir && c.conn === conn).map((c) => c.bytes)).toString("utf8")).filter((m) => m.jsonrpc === "2.0"),
  );
}

/** The exact JSON-RPC messages the raw driver sends in flow plain with tool add {a: 2, b: 3}. */
function rawMessages(revision: string): string[] {
  const call = { name: "add", arguments: { a: 2, b: 3 } };
  if (revision >= "2026-07-28") {
    const meta = metaEnvelope(revision);
    return [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { ...call, _meta: meta } }),
    ];
  }
  return [
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams(revision) }),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: call }),
  ];
}

test("a declared flow, and the target's tool, calling add {a: 2, b: 3}: counts exactly on every client, transport and era", { timeout: 240_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-tool-"));
  try {
    const r = await execa(process.execPath, [cli, "run", "test/fixtures/matrices/tool-call.yaml", "--jobs", "2", "--results", out], {
      cwd: root,
      reject: false,
    });
    const rows = tsv(join(out, "runs.tsv"));
    assert.equal(rows.length, 32, `${r.stdout}\n${r.stderr}`);
    for (const row of rows) {
      assert.equal(row.status, "ok", `${row.config}: ${row.error}`);
      const cs = chunks(join(out, "logs", row.config!, "1.jsonl"));
      const sum = (dir: string) => cs.filter((c) => c.dir === dir).reduce((n, c) => n + c.bytes.length, 0);
      assert.equal(Number(row.c2s_bytes), sum("c2s"), `${row.config}: c2s_bytes is the log's`);
      assert.equal(Number(row.s2c_bytes), sum("s2c"), `${row.config}: s2c_bytes is the log's`);
      const calls = messages(cs, "c2s").filter((m) => m.method === "tools/call");
      assert.equal(calls.length, 1, `${row.config}: one tools/call`);
      const params = calls[0]!.params as { name: string; arguments: unknown };
      assert.equal(params.name, "add", row.config);
      assert.deepEqual(params.arguments, { a: 2, b: 3 }, row.config);
      const answer = messages(cs, "s2c").find((m) => m.id === calls[0]!.id && m.result !== undefined);
      assert.match(JSON.stringify((answer?.result as { content?: unknown })?.content), /"text":"5(\.0)?"/, `${row.config}: answered 5`);
      if (!row.config!.startsWith("raw-")) continue;
      const revision = row.config!.includes("2026-07-28") ? "2026-07-28" : "2025-11-25";
      const want = rawMessages(revision);
      const sent = want.reduce((n, m) => n + Buffer.byteLength(m), 0);
      if (row.config!.includes("-stdio-")) assert.equal(Number(row.c2s_bytes), sent + want.length, `${row.config}: the exact lines, newline each`);
      else assert.equal(Number(row.request_body_bytes), sent, `${row.config}: the exact bodies`);
      const c2s = Buffer.concat(cs.filter((c) => c.dir === "c2s").map((c) => c.bytes)).toString("utf8");
      for (const m of want) assert.ok(c2s.includes(m), `${row.config}: sent ${m}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
