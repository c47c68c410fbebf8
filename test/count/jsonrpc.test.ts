import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonScanError } from "../../runner/count/json-scan.js";
import { scanJsonRpc } from "../../runner/count/jsonrpc.js";
import { b, len } from "./helpers.js";

function scanError(text: string): JsonScanError {
  try {
    scanJsonRpc(b(text));
  } catch (e) {
    assert.ok(e instanceof JsonScanError, String(e));
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be rejected`);
}

describe("JSON-RPC scanning", () => {
  it("classifies request, notification, result and error, with ids as canonical JSON", () => {
    const kinds = [
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', "request", "tools/list", "1"],
      ['{"method":"notifications/initialized","jsonrpc":"2.0"}', "notification", "notifications/initialized", undefined],
      ['{"jsonrpc":"2.0","id":"a\\"b","result":{}}', "result", undefined, '"a\\"b"'],
      ['{"jsonrpc":"2.0","id":1.0,"error":{"code":-32601,"message":"nope"}}', "error", undefined, "1"],
      ['{"jsonrpc":"2.0","id":-0,"method":"ping"}', "request", "ping", "0"],
      ['{"jsonrpc":"2.0","id":1e3,"method":"ping"}', "request", "ping", "1000"],
      ['{"jsonrpc":"2.0","id":"\\u0061","method":"ping"}', "request", "ping", '"a"'], // an escape: through JSON
      // Integers keep their digits: two ids that JSON numbers would round to one stay two.
      ['{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}', "request", "ping", "12345678901234567890"],
      ['{"jsonrpc":"2.0","id":12345678901234567891,"method":"ping"}', "request", "ping", "12345678901234567891"],
    ] as const;
    for (const [text, kind, method, id] of kinds) {
      const { messages, batch } = scanJsonRpc(b(text));
      assert.equal(batch, false);
      assert.equal(messages.length, 1, text);
      assert.deepEqual([messages[0]!.kind, messages[0]!.method, messages[0]!.id], [kind, method, id], text);
      assert.deepEqual([messages[0]!.start, messages[0]!.end], [0, len(text)]);
    }
  });

  it("counts each member of a batch, and nothing for non-JSON-RPC JSON", () => {
    const members = ['{"jsonrpc":"2.0","id":1,"method":"a"}', '{"jsonrpc":"2.0","method":"n"}', '{"jsonrpc":"2.0","id":2,"method":"b"}'];
    const text = ` [ ${members.join(" ,\n")} ] `;
    const { messages, batch } = scanJsonRpc(b(text));
    assert.equal(batch, true);
    assert.deepEqual(
      messages.map((m) => [m.kind, m.method, m.end - m.start]),
      members.map((m, k) => [k === 1 ? "notification" : "request", JSON.parse(m).method, len(m)]),
    );
    assert.equal(scanJsonRpc(b("[]")).messages.length, 0);
    assert.equal(scanJsonRpc(b('{"error":"not found"}')).messages.length, 0, "no jsonrpc member");
    assert.equal(scanJsonRpc(b('{"jsonrpc":"1.0","method":"x"}')).messages.length, 0);
    assert.equal(scanJsonRpc(b('[1,"x",{"jsonrpc":"2.0","method":"x"}]')).messages.length, 1);
    assert.equal(scanJsonRpc(b("42")).messages.length, 0);
  });

  it("measures the _meta value span as sent: nested objects, braces and escaped quotes in strings, inner whitespace", () => {
    const meta = '{ "progressToken": "t{1}", "x": {"y": [1, {"z": "}\\"]{"}]},\n  "s": "\\\\" }';
    const text = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","_meta" :  ${meta}  ,"arguments":{"_meta":"inner, not counted"}}}`;
    const [m] = scanJsonRpc(b(text)).messages;
    assert.equal(m!.metaBytes, len(meta));
    assert.equal(m!.metaSpans.length, 1);
    const [s, e] = m!.metaSpans[0]!;
    assert.equal(text.slice(s, e), meta);
    assert.deepEqual(JSON.parse(text).params._meta, JSON.parse(meta));
  });

  it("takes _meta from result for results, not from params; a key spelled with escapes counts", () => {
    const meta = '{"io.modelcontextprotocol/related-task":{"taskId":"x"}}';
    const result = `{"jsonrpc":"2.0","id":1,"result":{"content":[],"\\u005fmeta":${meta}}}`;
    assert.equal(scanJsonRpc(b(result)).messages[0]!.metaBytes, len(meta));
    const scalar = '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":null}}';
    assert.equal(scanJsonRpc(b(scalar)).messages[0]!.metaBytes, 4);
    const none = '{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":{"_meta":{}}}}';
    assert.equal(scanJsonRpc(b(none)).messages[0]!.metaBytes, 0);
  });

  it("scans a sub-range of a buffer, reporting offsets into the buffer", () => {
    const text = 'xx{"jsonrpc":"2.0","method":"n","params":{"_meta":{}}}yy';
    const [m] = scanJsonRpc(b(text), 2, text.length - 2).messages;
    assert.deepEqual([m!.start, m!.end, m!.metaSpans[0]], [2, text.length - 2, [text.indexOf("{}"), text.indexOf("{}") + 2]]);
  });

  it("rejects text that is not exactly one JSON value, naming the offset", () => {
    assert.deepEqual((({ offset, expected }) => ({ offset, expected }))(scanError('{"a":1,}')), { offset: 7, expected: "a string" });
    assert.deepEqual((({ offset, expected }) => ({ offset, expected }))(scanError('{"a":1} x')), {
      offset: 8,
      expected: "the end of the JSON text after one value",
    });
    assert.equal(scanError('{"a":"\\x"}').offset, 7);
    assert.equal(scanError('{"a":01}').offset, 6);
    assert.equal(scanError('{"a":tru}').offset, 8);
    assert.equal(scanError('{"a":"abc').expected, "the closing quote of a string");
    assert.equal(scanError("[1 2]").expected, "',' or ']' in an array");
  });
});
