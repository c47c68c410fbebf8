/** A matrix names its report: `title:` and `slug:` (default: the slug of the title). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseMatrix, slugOf } from "../../runner/matrix/parse.js";

const body = `axes:
  - name: target
    values: [t]
  - name: transport
    values: [stdio]
targets:
  t:
    stdio: { argv: [node, t.js] }
`;

test("slugOf lower-cases the title and turns every run of other characters into one hyphen", () => {
  assert.equal(slugOf("MCP on the wire"), "mcp-on-the-wire");
  assert.equal(slugOf("JSON-RPC echo on the wire"), "json-rpc-echo-on-the-wire");
  assert.equal(slugOf("  A2A: layer cost (v2)! "), "a2a-layer-cost-v2");
  assert.equal(slugOf("???"), "");
});

test("the slug comes from slug: when given, else from the title, else from the default title", () => {
  assert.deepEqual(
    [
      parseMatrix(`version: 1\ntitle: JSON-RPC echo on the wire\n${body}`, "m.yaml"),
      parseMatrix(`version: 1\ntitle: JSON-RPC echo on the wire\nslug: echo\n${body}`, "m.yaml"),
      parseMatrix(`version: 1\n${body}`, "m.yaml"),
    ].map((m) => [m.title, m.slug]),
    [
      ["JSON-RPC echo on the wire", "json-rpc-echo-on-the-wire"],
      ["JSON-RPC echo on the wire", "echo"],
      ["wirecost report", "wirecost-report"],
    ],
  );
});
