/**
 * `wirecost capture` through the real CLI: the stdio tap and the relay forward bytes unchanged
 * under random chunking and log what they forwarded (counted by `--count`), ^C mid-session leaves
 * a complete log, and a non-loopback address is refused with one line.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCaptureStreams } from "../../runner/capture/log.js";
import { onPty } from "../execute/cli.js";
import { cli } from "../paths.js";

/** A seeded pseudo-random generator (mulberry32), so a failure repeats. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `bytes` cut at random places into pieces of 1 to `max` bytes. */
function chunks(bytes: Buffer, rand: () => number, max = 97): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = 1 + Math.floor(rand() * max);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** Write `pieces` to `to` one at a time, a few milliseconds apart (so they cross as separate reads). */
async function dribble(to: { write(b: Buffer): unknown }, pieces: Buffer[], rand: () => number): Promise<void> {
  for (const p of pieces) {
    to.write(p);
    if (rand() < 0.3) await new Promise((r) => setTimeout(r, 1 + Math.floor(rand() * 4)));
  }
}

/** JSON-RPC lines as a client sends them: `n` requests. */
function jsonRpcLines(n: number): Buffer {
  const lines = Array.from(
    { length: n },
    (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "echo", arguments: { text: "é".repeat(i * 7) } } }) + "\n",
  );
  return Buffer.from(lines.join(""));
}

/** The count row `wirecost capture --count` printed (TSV header and row somewhere in `text`), as column → value. */
function countRow(text: string): Record<string, string> {
  const lines = text.split("\n");
  const h = lines.findIndex((l) => l.startsWith("log\t"));
  assert.ok(h >= 0, `a count row in:\n${text}`);
  const names = lines[h]!.split("\t");
  const values = lines[h + 1]!.split("\t");
  return Object.fromEntries(names.map((n, i) => [n, values[i]!]));
}

test("capture -- CMD: random chunking both ways is forwarded byte for byte, stderr kept apart, the log counts to the bytes sent", async () => {
  const rand = rng(19);
  const dir = mkdtempSync(join(tmpdir(), "capture-tap-"));
  const log = join(dir, "tap.jsonl");
  // The server echoes every chunk it reads, and says something on stderr (which must stay out of the log).
  const server = 'process.stderr.write("server noise\\n"); process.stdin.on("data", (d) => process.stdout.write(d));';
  const child = spawn(process.execPath, [cli, "capture", "--log", log, "--count", "--", process.execPath, "-e", server], { stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  let err = "";
  child.stdout.on("data", (d: Buffer) => out.push(d));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  const sent = jsonRpcLines(40);
  await dribble(child.stdin, chunks(sent, rand), rand);
  child.stdin.end();
  assert.equal(await exited, 0, err);
  assert.ok(Buffer.concat(out).equals(sent), "stdout passed through unchanged");
  assert.match(err, /server noise/);
  const streams = readCaptureStreams(log);
  const c2s = streams.find((s) => s.dir === "c2s")!;
  const s2c = streams.find((s) => s.dir === "s2c")!;
  assert.ok(c2s.bytes.equals(sent) && c2s.ended, "c2s logged whole, with its eof");
  assert.ok(s2c.bytes.equals(sent) && s2c.ended, "s2c logged whole, with its eof");
  assert.ok(!readFileSync(log, "utf8").includes(Buffer.from("server noise").toString("base64").slice(0, 12)), "stderr is not in the log");
  const row = countRow(err);
  assert.equal(Number(row.c2s_bytes), sent.length);
  assert.equal(Number(row.total_bytes), 2 * sent.length);
  assert.equal(Number(row.jsonrpc_c2s), 40);
});

/** Two pipelined HTTP/1.1 POSTs of JSON-RPC requests, and the two answers an upstream gives them. */
function httpExchange(): { requests: Buffer; responses: Buffer } {
  const req = (id: number) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
    return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const res = (id: number) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } });
    return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  return { requests: Buffer.from(req(1) + req(2)), responses: Buffer.from(res(1) + res(2)) };
}

/** An upstream on 127.0.0.1 that keeps what it reads and, once `expect` bytes came, answers `answer` in random pieces. */
async function upstream(expect: number, answer: Buffer, rand: () => number) {
  const got: Buffer[] = [];
  const server = createServer((s: Socket) => {
    let n = 0;
    s.on("data", (d: Buffer) => {
      got.push(d);
      n += d.length;
      if (n === expect) void dribble(s, chunks(answer, rand), rand);
    });
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { port: (server.address() as { port: number }).port, got: () => Buffer.concat(got), close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Start `wirecost capture --upstream` in its own process group and wait for its listening line. */
async function startRelayCli(args: string[]) {
  const child = spawn(process.execPath, [cli, "capture", ...args], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  const port = await new Promise<number>((res, rej) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on 127\.0\.0\.1:(\d+)\n/.exec(out);
      if (m) res(Number(m[1]));
    });
    void exited.then((code) => rej(new Error(`capture exited ${code} before listening: ${err}`)));
  });
  return { child, port, exited, out: () => out, err: () => err };
}

test("capture --upstream: random chunking both ways is forwarded byte for byte; ^C ends it with exit 0, the log flushed and counted", async () => {
  const rand = rng(7);
  const { requests, responses } = httpExchange();
  const up = await upstream(requests.length, responses, rand);
  const log = join(mkdtempSync(join(tmpdir(), "capture-relay-")), "relay.jsonl");
  const relay = await startRelayCli(["--upstream", `127.0.0.1:${up.port}`, "--log", log, "--count"]);
  const got = await new Promise<Buffer>((res, rej) => {
    const c = connect({ host: "127.0.0.1", port: relay.port }, () => void dribble(c, chunks(requests, rand), rand));
    const parts: Buffer[] = [];
    c.on("data", (d: Buffer) => {
      parts.push(d);
      if (Buffer.concat(parts).length === responses.length) {
        c.end();
        res(Buffer.concat(parts));
      }
    });
    c.on("error", rej);
  });
  assert.ok(up.got().equals(requests), "upstream got the requests unchanged");
  assert.ok(got.equals(responses), "client got the responses unchanged");
  process.kill(-relay.child.pid!, "SIGINT");
  assert.equal(await relay.exited, 0, relay.err());
  await up.close();
  const streams = readCaptureStreams(log);
  assert.ok(streams.find((s) => s.dir === "c2s")!.bytes.equals(requests));
  assert.ok(streams.find((s) => s.dir === "s2c")!.bytes.equals(responses));
  const row = countRow(relay.out());
  assert.equal(Number(row.c2s_bytes), requests.length);
  assert.equal(Number(row.s2c_bytes), responses.length);
  assert.equal(Number(row.jsonrpc_c2s), 2);
  assert.equal(Number(row.http_round_trips), 2);
});

test("capture --upstream localhost:PORT: a Host naming the relay reaches the server naming it, the log keeps the client's bytes, the summary counts them", async () => {
  const rand = rng(11);
  const { responses } = httpExchange();
  let expect = Number.POSITIVE_INFINITY;
  const got: Buffer[] = [];
  const server = createServer((s: Socket) => {
    s.on("data", (d: Buffer) => {
      got.push(d);
      if (Buffer.concat(got).length === expect) s.write(responses);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const upPort = (server.address() as { port: number }).port;
  const log = join(mkdtempSync(join(tmpdir(), "capture-host-")), "relay.jsonl");
  const relay = await startRelayCli(["--upstream", `localhost:${upPort}`, "--log", log]);
  const req = (id: number, host: string) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
    return `POST /mcp HTTP/1.1\r\nhost: ${host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const requests = Buffer.from(req(1, `127.0.0.1:${relay.port}`) + req(2, `127.0.0.1:${relay.port}`));
  const forwarded = Buffer.from(req(1, `localhost:${upPort}`) + req(2, `localhost:${upPort}`));
  expect = forwarded.length;
  await new Promise<void>((res, rej) => {
    const c = connect({ host: "127.0.0.1", port: relay.port }, () => void dribble(c, chunks(requests, rand, 13), rand));
    let n = 0;
    c.on("data", (d: Buffer) => {
      n += d.length;
      if (n === responses.length) {
        c.end();
        res();
      }
    });
    c.on("error", rej);
  });
  assert.equal(Buffer.concat(got).toString(), forwarded.toString(), "the server got its own name in Host");
  process.kill(-relay.child.pid!, "SIGINT");
  assert.equal(await relay.exited, 0, relay.err());
  await new Promise<void>((r) => server.close(() => r()));
  assert.ok(
    readCaptureStreams(log)
      .find((st) => st.dir === "c2s")!
      .bytes.equals(requests),
    "the log holds the client's bytes",
  );
  const delta = forwarded.length - requests.length;
  const more = delta === 0 ? "" : ` \\(the server got ${Math.abs(delta)} bytes ${delta > 0 ? "more" : "fewer"} than logged\\)`;
  assert.match(relay.err(), new RegExp(`; 2 request\\(s\\) named the relay in Host, forwarded naming localhost:${upPort}${more}\\n`));
});

test("capture --upstream: ^C typed mid-session (a connection still open) leaves a complete log, exit 0", async () => {
  const rand = rng(3);
  const { requests, responses } = httpExchange();
  const up = await upstream(requests.length, responses, rand);
  const log = join(mkdtempSync(join(tmpdir(), "capture-int-")), "relay.jsonl");
  const run = onPty(["capture", "--upstream", `127.0.0.1:${up.port}`, "--log", log]);
  await run.waitFor(/listening on 127\.0\.0\.1:(\d+)/);
  const port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(run.output())![1]);
  const c = connect({ host: "127.0.0.1", port });
  c.on("error", () => undefined);
  await new Promise<void>((r) => c.once("connect", () => r()));
  await dribble(c, chunks(requests, rand), rand);
  await new Promise<void>((res) => {
    let n = 0;
    c.on("data", (d: Buffer) => {
      n += d.length;
      if (n === responses.length) res();
    });
  });
  run.interrupt(); // the client's connection is still open
  const { code } = await run.exited;
  assert.equal(code, 0, run.output());
  await up.close();
  const text = readFileSync(log, "utf8");
  assert.ok(text.endsWith("\n"), "the last record is whole");
  const streams = readCaptureStreams(log);
  assert.ok(streams.find((s) => s.dir === "c2s")!.bytes.equals(requests), "every byte sent before ^C is in the log");
  assert.ok(streams.find((s) => s.dir === "s2c")!.bytes.equals(responses), "every byte answered before ^C is in the log");
});

test("capture -- CMD: ^C mid-session (the server still running) leaves a complete log, exit 0", async () => {
  const log = join(mkdtempSync(join(tmpdir(), "capture-tapint-")), "tap.jsonl");
  const server = 'process.on("SIGINT", () => {}); process.stdin.on("data", (d) => process.stdout.write(d));';
  const child = spawn(process.execPath, [cli, "capture", "--log", log, "--", process.execPath, "-e", server], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  const sent = jsonRpcLines(3);
  child.stdin.write(sent);
  await new Promise<void>((res) => {
    let n = 0;
    child.stdout.on("data", (d: Buffer) => {
      n += d.length;
      if (n === sent.length) res();
    });
  });
  process.kill(-child.pid!, "SIGINT"); // as ^C on a terminal: the whole process group; the server ignores it
  assert.equal(await exited, 0);
  const streams = readCaptureStreams(log);
  assert.ok(streams.find((s) => s.dir === "c2s")!.bytes.equals(sent));
  const s2c = streams.find((s) => s.dir === "s2c")!;
  assert.ok(s2c.bytes.equals(sent) && s2c.ended, "the server's answers and its end are in the log");
});

test("capture: a non-loopback --listen or --upstream is refused with one line, exit 1, nothing listening", async () => {
  for (const args of [
    ["--upstream", "127.0.0.1:9", "--listen", "0.0.0.0:0"],
    ["--upstream", "10.0.0.1:80"],
  ]) {
    const log = join(mkdtempSync(join(tmpdir(), "capture-refuse-")), "x.jsonl");
    const child = spawn(process.execPath, [cli, "capture", "--log", log, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((res) => child.on("exit", (c) => res(c)));
    assert.equal(code, 1);
    assert.equal(out, "");
    assert.equal(err.split("\n").filter(Boolean).length, 1, err);
    assert.match(err, /^wirecost: --(listen|upstream) \S+: not a loopback address .*127\.0\.0\.1/);
  }
});

test("capture: a --log in a missing folder, 127.0.0.1 without a port, or --listen on the --upstream port fails at once with one line, before listening or starting the command", async () => {
  const dir = mkdtempSync(join(tmpdir(), "capture-badlog-"));
  for (const [args, pattern] of [
    [["--log", join(dir, "no", "x.jsonl"), "--upstream", "127.0.0.1:9"], /^wirecost: --log \S+: cannot open it: no such file or folder/],
    [
      ["--log", join(dir, "no", "x.jsonl"), "--", process.execPath, "-e", "require('fs').writeFileSync(process.argv[1], 'x')", join(dir, "ran")],
      /^wirecost: --log \S+: cannot open it/,
    ],
    [["--log", join(dir, "x.jsonl"), "--upstream", "127.0.0.1"], /^wirecost: --upstream 127\.0\.0\.1: no port — give 127\.0\.0\.1:PORT/],
    [
      ["--log", join(dir, "x.jsonl"), "--upstream", "127.0.0.1:39999", "--listen", "127.0.0.1:39999"],
      /^wirecost: --listen 127\.0\.0\.1:39999 and --upstream 127\.0\.0\.1:39999 are the same port: the relay would connect to itself/,
    ],
  ] as const) {
    const child = spawn(process.execPath, [cli, "capture", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await new Promise<number | null>((res) => child.on("exit", (c) => res(c)));
    clearTimeout(timer);
    assert.equal(code, 1, err);
    assert.equal(out, "");
    assert.equal(err.split("\n").filter(Boolean).length, 1, err);
    assert.match(err, pattern);
  }
  assert.throws(() => readFileSync(join(dir, "ran")), /ENOENT/, "the command must not be started");
});

test("capture --log /dev/full -- CMD: the full disk is one line naming --log and the path", { skip: !existsSync("/dev/full") && "no /dev/full here" }, () => {
  const r = spawnSync(process.execPath, [cli, "capture", "--log", "/dev/full", "--", "true"], { encoding: "utf8", timeout: 20_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.split("\n").filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, /^wirecost: --log \/dev\/full: cannot write it: no space left on the device \(ENOSPC\)/);
});

test("capture --upstream: a server not listening is named on stderr once, the client's connections closed, ^C still exits 0", async () => {
  const free = createServer();
  await new Promise<void>((r) => free.listen(0, "127.0.0.1", r));
  const deadPort = (free.address() as { port: number }).port;
  await new Promise<void>((r) => free.close(() => r()));
  const log = join(mkdtempSync(join(tmpdir(), "capture-deadup-")), "relay.jsonl");
  const relay = await startRelayCli(["--upstream", `127.0.0.1:${deadPort}`, "--log", log]);
  for (let i = 0; i < 2; i++) {
    await new Promise<void>((res) => {
      const c: Socket = connect({ host: "127.0.0.1", port: relay.port }, () => c.write("GET /mcp HTTP/1.1\r\nhost: x\r\n\r\n"));
      c.on("error", () => res());
      c.on("close", () => res());
    });
  }
  process.kill(-relay.child.pid!, "SIGINT");
  assert.equal(await relay.exited, 0, relay.err());
  const told = relay
    .err()
    .split("\n")
    .filter((l) => l.includes("cannot connect"));
  assert.equal(told.length, 1, relay.err());
  assert.match(told[0]!, new RegExp(`--upstream 127\\.0\\.0\\.1:${deadPort} \\(ECONNREFUSED\\) — is the server listening there\\?`));
});

test("capture -- CMD: a command ended by a signal nobody sent it (a crash) exits 128 + the signal, named on stderr; one ended by SIGINT exits 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), "capture-signal-"));
  for (const [sig, want] of [
    ["KILL", 137],
    ["INT", 0],
  ] as const) {
    const child = spawn(process.execPath, [cli, "capture", "--quiet", "--log", join(dir, `${sig}.jsonl`), "--", "sh", "-c", `kill -${sig} $$`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((res) => child.on("exit", (c) => res(c)));
    assert.equal(code, want, err);
    if (want) assert.match(err, new RegExp(`^wirecost capture: sh was ended by SIG${sig}\\n$`));
    else assert.equal(err, "");
  }
});
