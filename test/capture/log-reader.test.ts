/**
 * The chunked, byte-level log readers (`readCaptureLog`, `readCaptureStreams`, `countLogFile`)
 * against the reference: `parseCaptureLog` of the file's whole text, then `reassemble`/`countLog`.
 * Every unusual line shape must take the slow path and give the same records, streams, counts
 * and errors.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../paths.js";
import { CaptureLogError, parseCaptureLog, readCaptureLog, readCaptureStreams, reassemble } from "../../runner/capture/log.js";
import { countLog, countLogFile, streamDigest, streamsDigest } from "../../runner/count/index.js";

const dir = mkdtempSync(join(tmpdir(), "log-reader-"));
let n = 0;

/** Write `text` to a fresh file; @returns its path. */
function file(text: string | Buffer): string {
  const p = join(dir, `${++n}.jsonl`);
  writeFileSync(p, text);
  return p;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");
const req = "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
const res = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";

/** The reference reading of a file: its whole text (UTF-8, as the old reader did) parsed at once. */
function reference(path: string) {
  return parseCaptureLog(readFileSync(path, "utf8"), path);
}

/** Both readers agree with the reference on records and streams. */
function agree(path: string): void {
  const records = readCaptureLog(path);
  assert.deepEqual(records, reference(path));
  assert.deepEqual(readCaptureStreams(path), reassemble(reference(path)));
}

test("log reader: compact, Python-spaced, other key orders, eof, CRLF, blank lines: same records and streams", () => {
  const lines = [
    `{"conn":1,"seq":1,"dir":"c2s","b64":"${b64(req.slice(0, 10))}"}`,
    `{"conn": 1, "seq": 2, "dir": "c2s", "b64": "${b64(req.slice(10, 30))}"}`, // the Python relay's spacing
    `{"seq":3,"conn":1,"dir":"c2s","b64":"${b64(req.slice(30, 50))}"}`, // keys in another order
    `{"b64":"${b64(req.slice(50))}","dir":"c2s","seq":4,"conn":1}\r`, // reversed, CRLF
    "",
    "   ",
    `{"conn":1,"seq":5,"dir":"s2c","b64":"${b64(res)}"}\r`,
    `{"conn": 1, "seq": 6, "dir": "c2s", "eof": true}`,
    `{"conn":1,"seq":7,"dir":"s2c","eof":true}`,
    `{"conn":1,"seq":9,"dir":"s2c","b64":""}`, // an empty chunk (after the eof: it holds no bytes)
    `{"conn":2,"seq":10,"dir":"c2s","b64":"${b64(req).replace(/\//g, "\\/")}"}`, // JSON escapes: JSON.parse path
    `{"conn":2,"seq":11,"dir":"c2s","b64":"${b64("a")}", "note": "tab\\there"}`, // an extra member
    `{"conn":2,"seq":12,"dir":"c2s","b64":"${b64("bc")}"}`, // last line without "\n"
  ];
  const path = file(lines.join("\n"));
  agree(path);
  const streams = readCaptureStreams(path);
  assert.equal(streams.length, 3);
  assert.equal(streams[0]!.bytes.toString(), req);
  assert.equal(streams[0]!.ended, true);
  assert.deepEqual(streams[1]!.chunkSeq, [5, 9]);
  assert.equal(streams[2]!.bytes.toString(), req + "abc");
  assert.equal(countLogFile(path, { transport: "http" }).row.total_bytes, 2 * Buffer.byteLength(req) + 3 + Buffer.byteLength(res));
});

test("log reader: lines the fast scanner must refuse read as the reference reads them", () => {
  const cases = [
    `{"conn":1,"seq":1,"dir":"c2s","b64":"${b64("hi")}" }`, // space before "}"
    `{"conn":1 ,"seq":1,"dir":"c2s","b64":"${b64("hi")}"}`, // space before ","
    `{"conn":  1,"seq":1,"dir":"c2s","b64":"${b64("hi")}"}`, // two spaces
    `{"conn":1,"seq":1.0,"dir":"c2s","b64":"${b64("hi")}"}`, // a non-integer spelling
    `{"conn":1,"seq":1,"dir":"c2s","b64":"aGk\\u003d"}`, // a \u escape
    `{"conn":1,"seq":1,"dir":"c2s","eof": true }`,
    `{"seq":1,"dir":"c2s","b64":"${b64("stdio")}"}`, // stdio: no conn
    `{"conn":1234567890123456,"seq":1,"dir":"c2s","b64":"${b64("hi")}"}`, // 16 digits
    `{"conn":1,"seq":1,"dir":"c2s","b64":"${b64("hi")}","note":"é"}`, // non-ASCII: UTF-8 file
  ];
  for (const line of cases) agree(file(line + "\n"));
});

test("log reader: base64 without padding and with padding give the reference's bytes", () => {
  const lines = [
    `{"conn":1,"seq":1,"dir":"c2s","b64":"aGk"}`, // "hi" without its "="
    `{"conn":1,"seq":2,"dir":"c2s","b64":"${b64("abcd")}"}`, // "YWJjZA==": two "="
    `{"conn":2,"seq":4,"dir":"s2c","b64":"${b64("tail")}"}`,
  ];
  for (const text of [lines.join("\n"), lines.slice(0, 2).join("\n") + "\n"]) agree(file(text));
});

test("log reader: a record that would lose bytes or mix streams up is refused, naming file:line, by every reader", () => {
  const cases: [string, RegExp][] = [
    [`{"conn":1,"seq":1,"dir":"c2s","b64":"aG k="}`, /:1: "b64" must be base64/], // a byte outside the alphabet
    [`{"conn":1,"seq":1,"dir":"c2s","b64":"aG=k"}`, /:1: "b64" must be base64/], // "=" inside
    [`{"conn":1,"seq":1,"dir":"c2s","b64":"UA==T1NU"}`, /:1: "b64" must be base64/], // two texts joined
    [`{"conn":1,"seq":1,"dir":"c2s","b64":"@@@@"}`, /:1: "b64" must be base64/],
    [`{"conn":1,"seq":1,"dir":"c2s","eof":false,"b64":"${b64("hi")}"}`, /:1: a record needs either "b64"/],
    [`{"conn":1,"seq":1,"dir":"c2s","eof":true,"b64":"${b64("hi")}"}`, /:1: a record needs either "b64"/],
    [`{"conn":"7","seq":1,"dir":"c2s","b64":"${b64("hi")}"}`, /:1: "seq" and "conn" must be whole numbers/],
    [`{"conn":1.5,"seq":1,"dir":"c2s","b64":"${b64("hi")}"}`, /:1: "seq" and "conn" must be whole numbers/],
    [`{"conn":1,"seq":-1,"dir":"c2s","b64":"${b64("hi")}"}`, /:1: "seq" and "conn" must be whole numbers/],
  ];
  for (const [line, expected] of cases) {
    const path = file(line + "\n");
    for (const read of [() => readCaptureLog(path), () => readCaptureStreams(path), () => countLogFile(path, { transport: "http" })]) {
      assert.throws(read, (e: unknown) => e instanceof CaptureLogError && expected.test(e.message), line);
    }
  }
});

test("log reader: a repeated seq, or bytes after a direction's eof, are refused by every reader", () => {
  const cases: [string[], RegExp][] = [
    [[`{"conn":1,"seq":1,"dir":"c2s","b64":"${b64("a")}"}`, `{"conn":2,"seq":1,"dir":"c2s","b64":"${b64("b")}"}`], /seq 1 appears twice/],
    [
      [`{"conn":1,"seq":1,"dir":"c2s","eof":true}`, `{"conn":1,"seq":2,"dir":"c2s","b64":"${b64("late")}"}`],
      /conn 1 c2s: bytes at seq 2 after that direction ended/,
    ],
    [
      [`{"conn":1,"seq":1,"dir":"c2s","eof":true}`, `{"conn":1,"seq":2,"dir":"s2c","eof":true}`, `{"conn":1,"seq":3,"dir":"c2s","b64":"${b64("late")}"}`],
      /conn 1 c2s: bytes at seq 3 after/,
    ],
  ];
  for (const [lines, expected] of cases) {
    const path = file(lines.join("\n") + "\n");
    for (const read of [() => readCaptureStreams(path), () => countLogFile(path, { transport: "http" }), () => reassemble(readCaptureLog(path))]) {
      assert.throws(read, (e: unknown) => e instanceof CaptureLogError && expected.test(e.message), lines.join(" "));
    }
  }
});

test("log reader: a seq that goes back is reassembled in seq order", () => {
  const path = file([`{"conn":1,"seq":2,"dir":"c2s","b64":"${b64("world")}"}`, `{"conn":1,"seq":1,"dir":"c2s","b64":"${b64("hello ")}"}`].join("\n") + "\n");
  agree(path);
  assert.equal(readCaptureStreams(path)[0]!.bytes.toString(), "hello world");
});

test("log reader: lines longer than the read chunk, and many lines across chunk borders", () => {
  const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0x61);
  const lines = [`{"conn":1,"seq":1,"dir":"s2c","b64":"${big.toString("base64")}"}`];
  for (let k = 2; k < 40000; k++) lines.push(`{"conn":${k % 5},"seq":${k},"dir":"${k % 2 ? "c2s" : "s2c"}","b64":"${b64(`chunk ${k};`)}"}`);
  const path = file(lines.join("\n") + "\n");
  agree(path);
  assert.equal(
    readCaptureStreams(path)
      .find((s) => s.conn === 1 && s.dir === "s2c")!
      .bytes.subarray(0, big.length)
      .equals(big),
    true,
  );
  assert.equal(streamsDigest(readCaptureStreams(path)), streamDigest(readCaptureLog(path)));
});

test("log reader: a bad line is the same CaptureLogError, naming the file and line", () => {
  for (const bad of ["{not json", '{"conn":1,"seq":1,"dir":"up","b64":""}', '{"conn":1,"seq":1,"dir":"c2s"}', "[1,2]"]) {
    const path = file(`{"conn":1,"seq":1,"dir":"c2s","b64":"${b64("ok")}"}\n\n${bad}\n`);
    let expected = "";
    assert.throws(
      () => reference(path),
      (e: unknown) => {
        expected = (e as Error).message;
        return e instanceof CaptureLogError;
      },
    );
    assert.match(expected, /:3: /);
    assert.throws(
      () => readCaptureLog(path),
      (e: unknown) => e instanceof CaptureLogError && e.message === expected,
    );
    assert.throws(
      () => readCaptureStreams(path),
      (e: unknown) => e instanceof CaptureLogError && e.message === expected,
    );
  }
});

test("log reader: countLogFile equals countLog(readCaptureLog) on the Python-relay and tap fixtures", () => {
  const fixtures = join(root, "test", "capture", "fixtures");
  for (const [name, transport] of [
    ["python-relay-http.jsonl", "http"],
    ["python-tap-stdio.jsonl", "stdio"],
  ] as const) {
    const path = join(fixtures, name);
    agree(path);
    assert.deepEqual(countLogFile(path, { transport }), countLog(reference(path), { transport }));
  }
});
