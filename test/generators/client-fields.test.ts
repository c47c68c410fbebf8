/**
 * The "what declared clients send that the raw driver does not" section compares, from
 * messages.tsv, a declared client's C→S JSON fields per method, HTTP header names and requests
 * with the raw driver's on the same target, transport and revision; and the member paths the
 * runner writes are the JSON's own.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonFieldPaths, messagesTsv, type MessageRow } from "../../format/messages.js";
import { messagesPath } from "../../format/layout.js";
import { clientFieldsView } from "../../generators/sections/client-fields.js";
import type { ConfigSummary, Results } from "../../generators/results/load.js";

test("jsonFieldPaths: leaves and empty containers, arrays as [], keys that are not identifiers quoted", () => {
  assert.deepEqual(jsonFieldPaths({ jsonrpc: "2.0", params: { capabilities: { roots: { listChanged: true }, "io.x/y": {} }, a: [1, { b: null }], e: [] } }), [
    "jsonrpc",
    "params.capabilities.roots.listChanged",
    'params.capabilities["io.x/y"]',
    "params.a[]",
    "params.a[].b",
    "params.e",
  ]);
});

/** A messages.tsv row with what the section reads. */
function row(o: Partial<MessageRow> & Pick<MessageRow, "seq" | "dir" | "kind">): MessageRow {
  return {
    conn: 1,
    method: "",
    id: "",
    startLine: "",
    headBytes: 0,
    bodyBytes: 0,
    framingBytes: 0,
    newlineBytes: 0,
    metaBytes: 0,
    sse: false,
    incomplete: false,
    headerNames: [],
    contentType: "",
    anomalies: [],
    unattributedBytes: 0,
    jsonFields: [],
    ...o,
  };
}

test("clientFieldsView: what the declared client sent beyond the raw driver, by method, header and request; nothing without a raw counterpart", () => {
  const dir = mkdtempSync(join(tmpdir(), "client-fields-"));
  const write = (config: string, rows: MessageRow[]) => {
    const file = messagesPath(dir, config, 1);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, messagesTsv(rows));
    writeFileSync(file.replace(/\.messages\.tsv$/, ".jsonl"), "");
  };
  write("raw-t-http", [
    row({ seq: 1, dir: "c2s", kind: "http-only", startLine: "POST /mcp HTTP/1.1", headerNames: ["Host", "Content-Type"] }),
    row({ seq: 2, dir: "c2s", kind: "request", method: "initialize", jsonFields: ["jsonrpc", "id", "method", "params.protocolVersion"] }),
  ]);
  write("ins-t-http", [
    row({ seq: 1, dir: "c2s", kind: "http-only", startLine: "POST /mcp HTTP/1.1", headerNames: ["host", "content-type", "user-agent"] }),
    row({
      seq: 2,
      dir: "c2s",
      kind: "request",
      method: "initialize",
      jsonFields: ["jsonrpc", "id", "method", "params.protocolVersion", "params.capabilities.roots.listChanged"],
    }),
    row({ seq: 3, dir: "c2s", kind: "http-only", startLine: "GET /mcp HTTP/1.1", headerNames: ["host"] }),
    row({ seq: 4, dir: "c2s", kind: "request", method: "ping", jsonFields: ["jsonrpc", "id", "method"] }),
  ]);
  write("ins-t-stdio", [row({ seq: 1, dir: "c2s", kind: "request", method: "initialize", jsonFields: ["jsonrpc"] })]);
  const config = (id: string, client: string, transport: string): ConfigSummary =>
    ({
      config: id,
      axes: new Map([
        ["client", client],
        ["target", "t"],
        ["transport", transport],
        ["revision", "2025-11-25"],
      ]),
    }) as unknown as ConfigSummary;
  const results = {
    dir,
    runs: undefined,
    configs: [config("ins-t-http", "ins", "http"), config("ins-t-stdio", "ins", "stdio"), config("raw-t-http", "raw", "http")],
    provenance: { declaredClients: new Map([["ins", "Inspector <b>"]]) },
  } as unknown as Results;
  const view = clientFieldsView(results);
  assert.ok(view.table);
  const rows = view.table.rows.map((r) => r.slice(2));
  assert.deepEqual(rows, [
    ["initialize: JSON fields", "params.capabilities.roots.listChanged"],
    ["ping (the raw driver's flows send no ping)", "id, jsonrpc, method"],
    ["HTTP request headers", "user-agent"],
    ["HTTP requests", "GET /mcp"],
  ]);
  assert.equal(view.sources.length, 1, "the stdio group has no raw counterpart and is left out");
  assert.ok(!view.table.rows[0]![0]!.includes("<b>"), "labels are escaped");
});
