/**
 * Property tests of the relay and the tap over real sockets and a real child process: random
 * payloads written in random chunkings come out byte-exact, and the capture log reassembles to
 * exactly the bytes that crossed, with an eof record for each direction that ended.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, connect, type Server, type Socket } from "node:net";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { startRelay } from "../../runner/capture/relay.js";
import { startTap } from "../../runner/capture/tap.js";
import { readCaptureLog, reassemble } from "../../runner/capture/log.js";

const dir = mkdtempSync(join(tmpdir(), "capture-prop-"));
let logNo = 0;
const nextLog = () => join(dir, `${++logNo}.jsonl`);

/** An upstream that echoes every chunk and ends its side after the client's half-close. */
async function echoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer({ allowHalfOpen: true }, (s: Socket) => {
    s.on("data", (d: Buffer) => s.write(d));
    s.on("end", () => s.end());
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

/** Write `chunks` one by one (yielding between writes so they leave as separate segments), then half-close; resolve with all bytes received. */
function talk(port: number, chunks: Uint8Array[]): Promise<Buffer> {
  return new Promise((res, rej) => {
    const c = connect({ host: "127.0.0.1", port, allowHalfOpen: true, noDelay: true }, async () => {
      for (const ch of chunks) {
        c.write(ch);
        await new Promise((r) => setImmediate(r));
      }
      c.end();
    });
    const got: Buffer[] = [];
    c.on("data", (d: Buffer) => got.push(d));
    c.on("end", () => {
      c.end();
      res(Buffer.concat(got));
    });
    c.on("error", rej);
  });
}

const chunkArb = fc.uint8Array({ minLength: 0, maxLength: 3000 });
const connArb = fc.array(chunkArb, { minLength: 0, maxLength: 12 });

test("relay property: random chunkings over several concurrent connections are forwarded and logged byte-exact", async () => {
  const { server, port } = await echoServer();
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(connArb, { minLength: 1, maxLength: 4 }), async (conns) => {
        const log = nextLog();
        const relay = await startRelay(port, log);
        const answers = await Promise.all(conns.map((chunks) => talk(relay.port, chunks)));
        await relay.close();
        const sent = conns.map((chunks) => Buffer.concat(chunks));
        answers.forEach((a, i) => assert.ok(a.equals(sent[i]!), `connection ${i}: echo equals what was sent`));
        const streams = reassemble(readCaptureLog(log));
        // One c2s and one s2c stream per connection, each ended; their bytes are the payloads (in some connection order).
        const byConn = new Map<number, { c2s?: Buffer; s2c?: Buffer }>();
        for (const s of streams) {
          assert.ok(s.ended, `conn ${s.conn} ${s.dir} has its eof`);
          byConn.set(s.conn, { ...byConn.get(s.conn), [s.dir]: s.bytes });
        }
        assert.equal(byConn.size, conns.length);
        const logged = [...byConn.values()].map((p) => {
          assert.ok(p.c2s && p.s2c && p.c2s.equals(p.s2c), "echo: s2c equals c2s in the log");
          return p.c2s.toString("hex");
        });
        assert.deepEqual(logged.sort(), sent.map((b) => b.toString("hex")).sort());
        assert.deepEqual(relay.bytes(), { c2s: sent.reduce((n, b) => n + b.length, 0), s2c: sent.reduce((n, b) => n + b.length, 0) });
      }),
      { numRuns: 25 },
    );
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("relay: 4 MiB echoed in 1 MiB writes (back-pressure) and many sequential connections", async () => {
  const { server, port } = await echoServer();
  const log = nextLog();
  const relay = await startRelay(port, log);
  const big = Array.from({ length: 4 }, (_, i) => Buffer.alloc(1 << 20, i + 1));
  const answer = await talk(relay.port, big);
  assert.ok(answer.equals(Buffer.concat(big)));
  for (let i = 0; i < 30; i++) assert.equal((await talk(relay.port, [Buffer.from(`hello ${i}`)])).toString(), `hello ${i}`);
  await relay.close();
  await new Promise<void>((r) => server.close(() => r()));
  assert.equal(relay.connections(), 31);
  const streams = reassemble(readCaptureLog(log));
  assert.equal(streams.length, 62);
  assert.ok(streams[0]!.bytes.equals(Buffer.concat(big)));
});

test("relay: a client reset destroys the upstream side, keeps what was seen, logs no eof for it, raises nothing", async () => {
  let upstreamClosed!: () => void;
  const closed = new Promise<void>((r) => (upstreamClosed = r));
  const seen: Buffer[] = [];
  const server = createServer({ allowHalfOpen: true }, (s: Socket) => {
    s.on("data", (d: Buffer) => {
      seen.push(d);
      s.write("ack");
    });
    s.on("error", () => undefined);
    s.on("close", () => upstreamClosed());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const log = nextLog();
  const relay = await startRelay((server.address() as { port: number }).port, log);
  await new Promise<void>((res, rej) => {
    const c = connect({ host: "127.0.0.1", port: relay.port }, () => c.write("partial request"));
    c.on("data", () => {
      c.resetAndDestroy();
      res();
    });
    c.on("error", rej);
  });
  await closed;
  await relay.close();
  await new Promise<void>((r) => server.close(() => r()));
  assert.equal(Buffer.concat(seen).toString(), "partial request");
  const streams = reassemble(readCaptureLog(log));
  const c2s = streams.find((s) => s.dir === "c2s")!;
  assert.equal(c2s.bytes.toString(), "partial request");
  assert.equal(c2s.ended, false, "a reset is not a clean end: no eof record");
  assert.equal(streams.find((s) => s.dir === "s2c")!.bytes.toString(), "ack");
});

test("relay: an upstream reset closes the client's connection; a refused upstream closes it too", async () => {
  const server = createServer((s: Socket) => {
    s.on("error", () => undefined);
    s.once("data", () => s.resetAndDestroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const upPort = (server.address() as { port: number }).port;
  const relay = await startRelay(upPort, nextLog());
  const outcome = (port: number) =>
    new Promise<string>((res) => {
      const c = connect({ host: "127.0.0.1", port }, () => c.write("x"));
      c.on("error", (e: NodeJS.ErrnoException) => res(e.code ?? "error"));
      c.on("close", () => res("closed"));
    });
  assert.match(await outcome(relay.port), /closed|ECONNRESET/);
  await relay.close();
  await new Promise<void>((r) => server.close(() => r()));
  const dead = await startRelay(upPort, nextLog()); // nothing listens there now
  assert.match(await outcome(dead.port), /closed|ECONNRESET/);
  await dead.close();
  await dead.close(); // twice is fine
});

test("relay: listens on 127.0.0.1 only", async () => {
  const relay = await startRelay(1, nextLog());
  const code = await new Promise<string>((res) => {
    const c = connect({ host: "127.0.0.2", port: relay.port }, () => res("connected"));
    c.on("error", (e: NodeJS.ErrnoException) => res(e.code ?? "error"));
  });
  await relay.close();
  assert.equal(code, "ECONNREFUSED");
});

test("tap property: random lines in random chunkings through `cat` come back line by line; the log holds both directions", async () => {
  const lineArb = fc.uint8Array({ minLength: 0, maxLength: 400 }).map((u) => Buffer.from(u.filter((x) => x !== 10)));
  await fc.assert(
    fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), async (lines, cutsRaw) => {
      const wire = Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
      const cuts = [...new Set(cutsRaw.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
      const child = spawn("cat", [], { stdio: ["pipe", "pipe", "inherit"] });
      const exited = new Promise<void>((r) => child.on("close", () => r()));
      const log = nextLog();
      const tap = startTap(child.stdin, child.stdout, log);
      let s = 0;
      for (const c of [...cuts, wire.length]) {
        tap.send(wire.subarray(s, c));
        s = c;
      }
      for (const l of lines) assert.ok((await tap.readLine(5000)).equals(l));
      tap.end();
      await exited;
      await tap.close();
      const streams = reassemble(readCaptureLog(log));
      assert.deepEqual(
        streams.map((x) => [x.conn, x.dir, x.ended]),
        [
          [0, "c2s", true],
          [0, "s2c", true],
        ],
      );
      assert.ok(streams[0]!.bytes.equals(wire) && streams[1]!.bytes.equals(wire));
    }),
    { numRuns: 15 },
  );
});

test("tap: a 1 MiB line arrives whole; a partial line at end of stream is an error naming its size; a dead child is no crash", async () => {
  const child = spawn("cat", [], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((r) => child.on("close", () => r()));
  const tap = startTap(child.stdin, child.stdout, nextLog());
  const big = Buffer.alloc(1 << 20, 0x61);
  tap.send(Buffer.concat([big, Buffer.from("\nabc")]));
  assert.ok((await tap.readLine(5000)).equals(big));
  tap.end();
  await assert.rejects(tap.readLine(5000), /closed stdout before a complete line \(3 bytes of a partial line\)/);
  await exited;
  await tap.close();

  const dead = spawn(process.execPath, ["-e", "process.exit(0)"], { stdio: ["pipe", "pipe", "inherit"] });
  const t2 = startTap(dead.stdin, dead.stdout, nextLog());
  await new Promise<void>((r) => dead.on("close", () => r()));
  t2.send(Buffer.alloc(1 << 16)); // EPIPE arrives as an error event: handled, not thrown
  await assert.rejects(t2.readLine(2000), /closed stdout|stdio failed/);
  t2.end();
  await t2.close();
});
