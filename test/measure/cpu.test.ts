import { test } from "node:test";
import assert from "node:assert/strict";
import { cpuPerRequest, quantisationError } from "../../runner/measure/cpu.js";
import { allowedCores, resolveLayout } from "../../runner/measure/pinning.js";
import { runTrial } from "../../runner/measure/trial.js";
import { UserError } from "../../format/errors.js";
import { root } from "../paths.js";

test("quantisation error is one tick over the ticks counted", () => {
  assert.equal(quantisationError(250), 0.004);
  assert.equal(quantisationError(1), 1);
  assert.equal(quantisationError(0), Infinity);
  const r = cpuPerRequest({ schedNs: 1_000_000, ticks: 10 }, { schedNs: 3_500_000, ticks: 13 }, 5, 100);
  assert.equal(r.cpuPerRequestUs, 500); // 2.5 ms over 5 requests
  assert.equal(r.ticks, 3);
  assert.equal(r.ticksPerRequestUs, 6000); // 3 ticks of 10 ms over 5 requests
  assert.equal(r.quantisationError, 1 / 3);
});

test("a layout needing more cores than allowed is refused, naming the cores", () => {
  assert.throws(
    () => resolveLayout("pinned-3", [0, 1]),
    (e: unknown) =>
      e instanceof UserError && /layout "pinned-3" needs 4 cores \(target on cores 0,1,2, client on core 3\) but this machine allows 2 \(0,1\)/.test(e.message),
  );
  assert.throws(() => resolveLayout("pinned", [0]), /needs 2 cores/);
  assert.throws(() => resolveLayout("spread", [0, 1]), /unknown layout "spread"/);
  assert.deepEqual(resolveLayout("pinned", [0, 1]), {
    name: "pinned",
    targetCores: [0],
    clientCores: [1],
    description: "target='taskset -c 0' client='taskset -c 1'",
  });
});

// The floor target's --burn-us U spins until its own process CPU clock (process.cpuUsage, i.e.
// getrusage: the kernel's run time of its threads) has advanced by U µs, so each request costs at
// least U µs of server CPU, plus the floor's own HTTP handling (≈ 0.1–0.8 ms on this shared machine,
// under 4 % of a 20 ms burn). A wrong request count (warm-up inside the window: +20 %), wrong units,
// wall time instead of CPU (several × on a loaded machine) or a missing thread would each leave the band.
test("server CPU per request of a target burning a known 20 ms of CPU per request is measured within 10%", async () => {
  const burnUs = 20_000;
  const all = allowedCores();
  const r = await runTrial({
    config: "burn",
    trial: 1,
    seq: 1,
    cwd: root,
    values: {},
    workload: "a2a-send-message",
    command: { argv: ["node", "dist/targets/floor/server.js", "--port", "{port}", "--burn-us", String(burnUs)], env: {} },
    layout: resolveLayout("default", all),
    allCores: all,
    measures: ["cpu", "latency"],
    warmupCalls: 20,
    calls: 100,
    connections: [],
    throughputMs: 0,
    startTimeoutMs: 20_000,
  });
  assert.equal(r.status, "ok", r.error);
  const cpu = r.cpu!;
  assert.equal(cpu.requests, 100);
  assert.ok(cpu.cpuPerRequestUs >= burnUs * 0.99, `cpu per request ${cpu.cpuPerRequestUs.toFixed(1)} µs is below the ${burnUs} µs the target burned`);
  assert.ok(Math.abs(cpu.cpuPerRequestUs - burnUs) / burnUs < 0.1, `cpu per request ${cpu.cpuPerRequestUs.toFixed(1)} µs, want ${burnUs} ± 10%`);
  // The tick cross-check agrees within its quantisation error (plus 5% for the window's tick boundaries).
  assert.ok(
    Math.abs(cpu.ticksPerRequestUs - cpu.cpuPerRequestUs) / cpu.cpuPerRequestUs < cpu.quantisationError + 0.05,
    `ticks ${cpu.ticksPerRequestUs} vs schedstat ${cpu.cpuPerRequestUs}`,
  );
  assert.ok(r.latency!.p50Us >= burnUs, `p50 ${r.latency!.p50Us} µs cannot be below the ${burnUs} µs burn`);
});
