/** Starting a target: its listening line is read whole, even when the line reaches stderr in two chunks. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startTarget } from "../../runner/targets/process.js";
import { root } from "../paths.js";

test("the listening line is taken only once its line end arrives", async () => {
  // A real process that writes the line in two writes 200 ms apart, as a buffered runtime may.
  const script = 'process.stderr.write("listening on 127.0.0.1:"); setTimeout(() => process.stderr.write("4100 loop=x\\n"), 200); setTimeout(() => {}, 5000);';
  const proc = startTarget({ argv: ["node", "-e", script], env: {} }, {}, root);
  try {
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(proc.listeningLine(), undefined, "half a line is not the listening line");
    const deadline = Date.now() + 5000;
    while (proc.listeningLine() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(proc.listeningLine(), "listening on 127.0.0.1:4100 loop=x");
  } finally {
    await proc.stop();
  }
});

test("freePort hands out ports below the kernel's ephemeral range, each once, skipping one in use", async () => {
  const { readFileSync } = await import("node:fs");
  const { createServer } = await import("node:net");
  const { freePort } = await import("../../runner/targets/process.js");
  const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  const first = await freePort();
  assert.ok(first < low && first >= low - 12_000, `${first} is below the ephemeral range (from ${low})`);
  // Someone else listens on the next candidate: it is skipped.
  const busy = first + 1 < low ? first + 1 : low - 12_000;
  const other = createServer();
  await new Promise<void>((r) => other.listen(busy, "127.0.0.1", () => r()));
  try {
    const seen = new Set([first]);
    for (let i = 0; i < 50; i++) {
      const p = await freePort();
      assert.notEqual(p, busy, "a port in use is not handed out");
      assert.ok(!seen.has(p), `port ${p} handed out twice`);
      seen.add(p);
    }
  } finally {
    await new Promise<void>((r) => other.close(() => r()));
  }
});

test("a stop tells a target's own exit from the exit the stop caused", async () => {
  // Exits 0 on SIGTERM, as most targets do: after the stop, exit() is "0", but not of its own.
  const script = 'process.on("SIGTERM", () => process.exit(0)); process.stderr.write("listening on -\\n"); setInterval(() => {}, 1000);';
  const running = startTarget({ argv: ["node", "-e", script], env: {} }, {}, root);
  for (const until = Date.now() + 10_000; running.listeningLine() === undefined && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
  await running.stop();
  assert.equal(running.exit(), "0");
  assert.equal(running.exitedBeforeStop(), false, "it was running when stopped");
  // Exits 3 by itself; stopped once it has (a zombie or reaped, whichever the stop finds).
  const ended = startTarget({ argv: ["node", "-e", "process.exit(3)"], env: {} }, {}, root);
  const { readFileSync } = await import("node:fs");
  const zombie = () => {
    try {
      return / Z /.test(readFileSync(`/proc/${ended.pid}/stat`, "utf8").split(")").pop()!);
    } catch {
      return false;
    }
  };
  for (const until = Date.now() + 10_000; ended.exit() === undefined && !zombie() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
  await ended.stop();
  assert.equal(ended.exit(), "3");
  assert.equal(ended.exitedBeforeStop(), true, "it had exited before the stop");
});
