/**
 * Cross-check of the relay and the HTTP counter with an instrument nobody here wrote: tshark
 * captures every HTTP configuration of matrix.yaml (read at test time) on loopback while the
 * runner's own pieces run it (target, relay on a port fixed before the capture starts, driver).
 *
 * What is compared, per configuration (= per relay port, within the time the configuration ran:
 * a later run's connection may get a freed relay port as its ephemeral port):
 * - TCP payload bytes per direction: the sum of `tcp.len` of frames to the relay port (c2s) and
 *   from it (s2c), retransmissions left out, equals the relay log's totals exactly.
 * - HTTP body lengths: for every HTTP message tshark's HTTP dissector finds, its body length is
 *   `http.content_length` when sent, else the sum of its `http.chunk_size` values (chunked), else
 *   0; the sorted list per direction equals the sorted `bodyBytes` of the messages our
 *   Http1StreamParser finds in the log. (Sorted lists, because tshark and the log may number
 *   connections differently; `http.file_data` is not compared: tshark prints it as escaped text,
 *   not bytes.)
 *
 * tshark must be installed (Debian: `DEBIAN_FRONTEND=noninteractive apt-get install -y tshark`,
 * answering no to non-root capture) and the test must run as root to capture on `lo`. Without
 * tshark, or not as root, the test is skipped with one line naming what to do; with CI=true it is
 * required and fails instead (test/tools.ts). WIRECOST_NO_TSHARK=1 skips it on purpose.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { root } from "../paths.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { expand } from "../../runner/matrix/expand.js";
import { freePort, startTarget, waitForPort, type TargetProcess } from "../../runner/targets/process.js";
import { startRelay } from "../../runner/capture/relay.js";
import { readCaptureLog, reassemble } from "../../runner/capture/log.js";
import { Http1StreamParser, type HttpMessage } from "../../runner/wire/http1.js";
import { DRIVERS } from "../../runner/drivers/index.js";
import { driverContext } from "../../runner/execute/run-one.js";
import { toolSkip } from "../tools.js";

const skip = toolSkip({
  tool: "tshark",
  found: spawnSync("tshark", ["--version"], { stdio: "ignore" }).status === 0,
  unusable: process.getuid?.() === 0 ? undefined : "tshark captures on lo as root only — run the tests as root",
  install: "apt-get install tshark",
  optOut: "WIRECOST_NO_TSHARK",
});

/** Hold a port by listening on it until the relay takes it over. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { port: (server.address() as { port: number }).port, server };
}

/** Our parse of one log: body lengths of the HTTP messages per direction. */
function ourBodies(logPath: string): { c2s: number[]; s2c: number[]; bytes: { c2s: number; s2c: number } } {
  const out = { c2s: [] as number[], s2c: [] as number[], bytes: { c2s: 0, s2c: 0 } };
  const streams = reassemble(readCaptureLog(logPath));
  const methods = new Map<number, string[]>();
  for (const dir of ["c2s", "s2c"] as const) {
    for (const s of streams.filter((x) => x.dir === dir)) {
      out.bytes[dir] += s.bytes.length;
      const p = new Http1StreamParser(dir === "c2s" ? "request" : "response", `conn ${s.conn} ${dir}`);
      if (dir === "s2c") for (const m of methods.get(s.conn) ?? []) p.expectResponseTo(m);
      const msgs: HttpMessage[] = p.push(s.bytes);
      if (s.ended) msgs.push(...p.end());
      if (dir === "c2s")
        methods.set(
          s.conn,
          msgs.map((m) => m.method!),
        );
      out[dir].push(...msgs.map((m) => m.bodyBytes));
    }
  }
  return out;
}

test("tshark agrees with the relay log on TCP payload bytes and HTTP body lengths for every HTTP configuration of matrix.yaml driven by a built-in client", {
  skip,
}, async () => {
  const which = spawnSync("tshark", ["--version"], { encoding: "utf8" });
  assert.ok(
    which.status === 0,
    "tshark is not installed: install it (Debian: `echo 'wireshark-common wireshark-common/install-setuid boolean false' | debconf-set-selections && DEBIAN_FRONTEND=noninteractive apt-get install -y tshark`) and run as root, or set WIRECOST_NO_TSHARK=1 to skip this cross-check",
  );
  const matrix = loadMatrix(join(root, "matrix.yaml"));
  // Declared clients (matrix.yaml clients:) run as their own processes through the same relay; the
  // relay's log against the wire is what this checks, so the built-in drivers' configurations do.
  const configs = expand(matrix).configurations.filter((c) => c.values.transport === "http" && Object.hasOwn(DRIVERS, c.values.client ?? "raw"));
  assert.ok(configs.length > 0, "matrix.yaml has HTTP configurations");
  const dir = mkdtempSync(join(tmpdir(), "tshark-"));
  const held = await Promise.all(configs.map(() => holdPort()));
  const pcap = join(dir, "capture.pcapng");
  const filter = held.map((h) => `tcp port ${h.port}`).join(" or ");
  const tshark = spawn("tshark", ["-i", "lo", "-f", filter, "-w", pcap], { stdio: ["ignore", "ignore", "pipe"] });
  let tsharkErr = "";
  await new Promise<void>((res, rej) => {
    tshark.stderr.on("data", (d: Buffer) => {
      tsharkErr += d.toString();
      if (/Capturing on/.test(tsharkErr)) res();
    });
    tshark.on("close", (code) => rej(new Error(`tshark exited (${code}) before capturing: ${tsharkErr.trim()} — capturing on lo needs root`)));
  });
  const runs: { id: string; port: number; log: string; from: number; to: number }[] = [];
  try {
    for (const [i, c] of configs.entries()) {
      const v = c.values;
      const cmd = matrix.targets[v.target!]!.commands.http!;
      const driver = DRIVERS[v.client ?? "raw"]!;
      const port = await freePort();
      let proc: TargetProcess | undefined;
      const log = join(dir, `${c.id}.jsonl`);
      const relayPort = held[i]!.port;
      await new Promise<void>((r) => held[i]!.server.close(() => r()));
      const from = Date.now() / 1000;
      const relay = await startRelay(port, log, relayPort);
      try {
        proc = startTarget(cmd, { ...v, port: String(port) }, dirname(matrix.file));
        const p = proc;
        await waitForPort(port, matrix.timeoutMs, () => p.exit() === undefined);
        await driver.http(relay.port, driverContext(matrix, v));
      } finally {
        await proc?.stop();
        await relay.close();
      }
      runs.push({ id: c.id, port: relayPort, log, from, to: Date.now() / 1000 });
    }
  } finally {
    // Ports still held (a run failed before reaching them) would keep the test process alive.
    for (const h of held) if (h.server.listening) h.server.close();
    await new Promise((r) => setTimeout(r, 300)); // let the last frames reach the capture
    const closed = new Promise((r) => tshark.on("close", r));
    tshark.kill("SIGINT");
    await closed;
  }
  // Retransmitted segments carry bytes already counted once (on a loaded machine even loopback
  // drops a segment now and then); two-pass analysis (-2) marks them, and they are left out.
  const fresh = "!(tcp.analysis.retransmission || tcp.analysis.fast_retransmission || tcp.analysis.spurious_retransmission)";
  const tcp = execFileSync(
    "tshark",
    ["-r", pcap, "-2", "-Y", fresh, "-T", "fields", "-e", "frame.time_epoch", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.len"],
    { encoding: "utf8", maxBuffer: 1 << 28 },
  );
  /** The run whose relay port is `port` and that was running at `time` (epoch seconds). */
  const runAt = (port: number, time: number) => runs.find((r) => r.port === port && time >= r.from && time <= r.to);
  const payload = new Map<number, { c2s: number; s2c: number }>(runs.map((r) => [r.port, { c2s: 0, s2c: 0 }]));
  for (const line of tcp.split("\n")) {
    const [time, src, dst, len] = line.split("\t").map(Number);
    if (!len) continue;
    const up = runAt(dst!, time!) && payload.get(dst!);
    const down = runAt(src!, time!) && payload.get(src!);
    if (up) up.c2s += len;
    else if (down) down.s2c += len;
  }
  const http = execFileSync(
    "tshark",
    [
      "-r",
      pcap,
      "-o",
      `http.tcp.port:${runs.map((r) => r.port).join(",")}`,
      "-Y",
      "http",
      "-T",
      "fields",
      "-e",
      "frame.time_epoch",
      "-e",
      "tcp.srcport",
      "-e",
      "tcp.dstport",
      "-e",
      "http.request.method",
      "-e",
      "http.response.code",
      "-e",
      "http.content_length",
      "-e",
      "http.chunk_size",
    ],
    { encoding: "utf8", maxBuffer: 1 << 28 },
  );
  const bodies = new Map<number, { c2s: number[]; s2c: number[] }>(runs.map((r) => [r.port, { c2s: [], s2c: [] }]));
  for (const line of http.split("\n")) {
    if (!line) continue;
    const [time, src, dst, method, code, cl, chunks] = line.split("\t");
    const up = runAt(Number(dst), Number(time)) && bodies.get(Number(dst));
    const side = up ? up.c2s : runAt(Number(src), Number(time)) && bodies.get(Number(src))?.s2c;
    if (!side) continue;
    const messages = (method || code || "").split(",").filter(Boolean).length;
    assert.ok(messages <= 1 || (!chunks && cl), `one HTTP message per frame, or several with Content-Length: ${line}`);
    if (cl) side.push(...cl.split(",").map(Number));
    else side.push(chunks ? chunks.split(",").reduce((n, x) => n + Number(x), 0) : 0);
  }
  for (const r of runs) {
    const ours = ourBodies(r.log);
    assert.deepEqual(payload.get(r.port), ours.bytes, `${r.id}: tshark tcp.len per direction equals the relay log`);
    const theirs = bodies.get(r.port)!;
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    assert.deepEqual(sorted(theirs.c2s), sorted(ours.c2s), `${r.id}: request body lengths (tshark vs counter)`);
    assert.deepEqual(sorted(theirs.s2c), sorted(ours.s2c), `${r.id}: response body lengths (tshark vs counter)`);
    assert.ok(ours.c2s.length > 0 && ours.bytes.s2c > 0, `${r.id}: the run exchanged HTTP messages`);
  }
});
