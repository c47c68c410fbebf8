import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SseParser, dataToBodyOffset, parseSseEvents, type SseEvent } from "../../runner/wire/sse.js";
import { b, chop, len } from "../count/helpers.js";

const summary = (evs: SseEvent[]) =>
  evs.map((e) => ({ type: e.type, data: e.data.toString(), id: e.id, last: e.lastEventId, retry: e.retry, start: e.start, end: e.end }));

describe("SSE parsing (WHATWG event stream)", () => {
  it("joins multi-line data with \\n and reports the block's byte span", () => {
    const block = 'data: {"a":\ndata:  1}\n\n';
    const [ev, ...rest] = parseSseEvents(b(block));
    assert.equal(rest.length, 0);
    assert.equal(ev!.data.toString(), '{"a":\n 1}'); // only one space after the colon is removed
    assert.equal(ev!.start, 0);
    assert.equal(ev!.end, len(block));
    assert.deepEqual(ev!.dataSegments, [
      { offset: 6, length: 5 },
      { offset: 18, length: 3 },
    ]);
    assert.equal(dataToBodyOffset(ev!, 0), 6);
    assert.equal(dataToBodyOffset(ev!, 6), 18); // first byte after the joining \n
    assert.equal(dataToBodyOffset(ev!, 8), 20);
  });

  it("skips comments, keeps id/event/retry, and lets the last event id persist", () => {
    const text = ": keep-alive\n\nevent: message\nid: 7\nretry: 1500\ndata: x\n\n: c\ndata: y\n\nretry: 1.5\ndata:z\n\n";
    assert.deepEqual(summary(parseSseEvents(b(text))), [
      { type: "message", data: "x", id: "7", last: "7", retry: 1500, start: 14, end: 14 + len("event: message\nid: 7\nretry: 1500\ndata: x\n\n") },
      {
        type: "",
        data: "y",
        id: undefined,
        last: "7",
        retry: undefined,
        start: len(text) - len(": c\ndata: y\n\nretry: 1.5\ndata:z\n\n"),
        end: len(text) - len("retry: 1.5\ndata:z\n\n"),
      },
      { type: "", data: "z", id: undefined, last: "7", retry: undefined, start: len(text) - len("retry: 1.5\ndata:z\n\n"), end: len(text) },
    ]);
  });

  it("dispatches only blocks with a data field; data: with no value is an event with empty data", () => {
    const text = "id: 1\n\nevent: ping\n\n: only a comment\n\nid: 2\ndata:\n\ndata\n\n";
    const evs = parseSseEvents(b(text));
    assert.deepEqual(
      evs.map((e) => [e.data.toString(), e.lastEventId]),
      [
        ["", "2"],
        ["", "2"],
      ],
    );
  });

  it("treats CRLF, LF and CR line ends alike", () => {
    for (const nl of ["\r\n", "\n", "\r"]) {
      const text = `event: message${nl}data: a${nl}data: b${nl}${nl}data: c${nl}${nl}`;
      const evs = parseSseEvents(b(text));
      assert.deepEqual(
        evs.map((e) => e.data.toString()),
        ["a\nb", "c"],
        JSON.stringify(nl),
      );
      assert.equal(evs[1]!.end, len(text));
    }
  });

  it("does not dispatch a block that the stream ends before its blank line", () => {
    const p = new SseParser();
    assert.deepEqual(p.push(b("data: 1\n\ndata: 2\n")).length, 1);
    assert.equal(p.end(), len("data: 2\n"));
    assert.equal(p.pendingFrom, len("data: 1\n\n"));
  });

  it("gives the same events when pushed split at every byte, CR LF split across pushes included", () => {
    const text = b('\ufeffevent: e\r\ndata: {"x": 1}\r\n\r\n:c\r\ndata: 2\r\rdata: 3\n\n');
    const whole = summary(parseSseEvents(text));
    assert.equal(whole.length, 3);
    assert.equal(whole[0]!.start, 3, "a leading BOM is skipped");
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new SseParser();
      const evs = chop(text, [cut]).flatMap((piece) => p.push(piece));
      assert.deepEqual(
        summary(evs).map((e) => e.data),
        whole.map((e) => e.data),
        `cut at ${cut}`,
      );
    }
    const p = new SseParser();
    const bytewise = chop(text, [...Array(text.length).keys()].slice(1)).flatMap((piece) => p.push(piece));
    assert.deepEqual(
      summary(bytewise).map((e) => [e.data, e.start]),
      whole.map((e) => [e.data, e.start]),
    );
  });

  it("ignores unknown fields and an id containing NUL", () => {
    const evs = parseSseEvents(b("foo: bar\nid: a\0b\ndata: 1\n\n"));
    assert.equal(evs.length, 1);
    assert.equal(evs[0]!.id, undefined);
    assert.equal(evs[0]!.lastEventId, "");
  });
});
