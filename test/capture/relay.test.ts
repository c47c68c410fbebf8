/** The relay forwards bytes unchanged both ways, passes half-close along, and logs what it saw. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, connect, type Socket } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { startRelay } from "../../runner/capture/relay.js";
import { readCaptureLog, reassemble } from "../../runner/capture/log.js";

test("relay: 1 MiB each way over two connections, bytes out equal bytes in, log reassembles to them", async () => {
  const upstream = createServer({ allowHalfOpen: true }, (s: Socket) => {
    const got: Buffer[] = [];
    s.on("data", (d: Buffer) => got.push(d));
    s.on("end", () => s.end(Buffer.concat(got).reverse())); // answer after the client's half-close
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  const up = upstream.address() as { port: number };
  const log = join(mkdtempSync(join(tmpdir(), "relay-")), "log.jsonl");
  const relay = await startRelay(up.port, log);
  const payloads = [randomBytes(1 << 20), randomBytes(777)];
  const answers = await Promise.all(
    payloads.map(
      (p) =>
        new Promise<Buffer>((res, rej) => {
          const c = connect({ host: "127.0.0.1", port: relay.port, allowHalfOpen: true }, () => c.end(p));
          const got: Buffer[] = [];
          c.on("data", (d: Buffer) => got.push(d));
          c.on("end", () => res(Buffer.concat(got)));
          c.on("error", rej);
        }),
    ),
  );
  await relay.close();
  await new Promise<void>((r) => upstream.close(() => r()));
  payloads.forEach((p, i) => assert.ok(answers[i]!.equals(Buffer.from(p).reverse()), `answer ${i}`));
  const streams = reassemble(readCaptureLog(log));
  assert.equal(streams.length, 4);
  const c2s = streams
    .filter((s) => s.dir === "c2s")
    .map((s) => s.bytes.length)
    .sort((a, b) => a - b);
  assert.deepEqual(c2s, [777, 1 << 20]);
  for (const s of streams) assert.ok(s.ended, `conn ${s.conn} ${s.dir} eof logged`);
  const big = streams.find((s) => s.dir === "c2s" && s.bytes.length === 1 << 20)!;
  assert.ok(big.bytes.equals(payloads[0]!));
});
