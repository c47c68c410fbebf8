/**
 * The Go and Rust profile windows (README "Profile windows") against a known answer, and in the SDK
 * targets that install them.
 *
 * Known-cost targets (targets/known-cost/matrix.yaml, built by the runner from their locks): over
 * stdio, SIGUSR1, CALLS tools/call, SIGUSR2; each named function's samples, as a share of the
 * window's samples times the target's CPU time in the window (/proc/<pid>/task/<tid>/schedstat,
 * summed over its threads, less the `sysmon_cpu_us` the Go sampler reports for the one thread it
 * cannot see) per call, are within 15 % of its known CPU cost, and the three together within 10 %
 * of their sum; up to 3 windows are tried, each printed (see WINDOWS). The count of samples is not multiplied by the sampling interval: on
 * Linux a CPU-time timer fires at most once per kernel tick (250 Hz here), far below the 997 Hz
 * asked, so the count undercounts and only the shares are usable. CALLS is sized so that the
 * smallest function (1/6 of the samples) gets enough samples at about 200 a CPU-second for a
 * standard error of about 6 %.
 *
 * SDK targets (mcp-go, mcp-rust, a2a-go, a2a-rust): a window over their own workload writes a
 * non-empty profile whose stacks name the SDK. And without WIRECOST_PROFILE_OUT nothing is
 * installed: SIGUSR1 has the effect it has on any program of the language (Rust: the default
 * action, the process ends; Go: the runtime catches it and does nothing, os/signal "Default
 * behavior"), and no profile is written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import type { FoldedProfile } from "../../runner/attribution/folded.js";
import { profileWindow } from "../../runner/attribution/samplers.js";
import { ensureBuilt } from "../../runner/build/build.js";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { McpSession } from "../../runner/drivers/mcp/session.js";
import { PipelinedStdioWire } from "../../runner/drivers/mcp/pipelined.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import type { Matrix } from "../../runner/matrix/types.js";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { readSchedstatNs } from "../../runner/measure/cpu.js";
import { WORKLOADS } from "../../runner/measure/workloads.js";
import { spawnTarget, stopTarget } from "../../runner/percall/client.js";
import { freePort } from "../../runner/targets/process.js";
import { root } from "../paths.js";

const knownCost = loadMatrix(join(root, "targets/known-cost/matrix.yaml"));
const wire = loadMatrix(join(root, "matrix.yaml"));
const a2a = loadMatrix(join(root, "matrices/a2a-layer-cost.yaml"));

/** Why `name` of `matrix` cannot be built here: skipped with the reason, except under CI=true (as .ci/run runs), where it is required. */
function skipUnless(matrix: Matrix, name: string): string | false {
  const missing = missingToolchain(matrix.targets[name]!, dirname(matrix.file));
  return missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
}

/** The known costs, µs per call (the targets' defaults, PROFILE-PROTOCOL). */
const KNOWN_US = { parse_and_validate: 1500, do_work: 1000, build_result: 500 };
/** Each known-cost target's frame for each named function. */
const FRAMES: Record<string, Record<keyof typeof KNOWN_US, string>> = {
  "known-cost-go": { parse_and_validate: "main.parseAndValidate", do_work: "main.doWork", build_result: "main.buildResult" },
  "known-cost-rust": {
    parse_and_validate: "known_cost_rust::mcp::parse_and_validate",
    do_work: "known_cost_rust::mcp::do_work",
    build_result: "known_cost_rust::mcp::build_result",
  },
};
const KNOWN_SUM_US = KNOWN_US.parse_and_validate + KNOWN_US.do_work + KNOWN_US.build_result;
/** tools/call per window: ~3.1 ms of CPU each, 600 to 1,100 samples at the tick-bound rate. */
const CALLS = 1500;
/** Windows tried per target before the test fails. */
const WINDOWS = 3;
const REVISION = "2025-11-25";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The kernel tick on this machine's kind (CONFIG_HZ=250), ms: CPU-time timers fire on ticks. */
const TICK_MS = 4;
const pauseCell = new Int32Array(new SharedArrayBuffer(4));
/**
 * Block this thread for `ms` (fractional) on a futex wait with a high-resolution timeout: each
 * call then starts at a random phase of the kernel tick, so the tick-driven sampler does not land
 * in step with the calls (setTimeout's 1 ms steps and a busy machine's tick-aligned wake-ups do).
 */
const pause = (ms: number) => Atomics.wait(pauseCell, 0, 0, ms);

/** A stdio session with target `name` of `matrix`, its profile going to a fresh file (or none). */
async function stdioSession(matrix: Matrix, name: string, env: Record<string, string>) {
  const command = matrix.targets[name]!.commands.stdio!;
  const spec = {
    command: { ...command, env: { ...command.env, ...env } },
    values: {},
    transport: "stdio" as const,
    revision: REVISION,
    cwd: dirname(matrix.file),
    timeoutMs: 30_000,
  };
  const { proc, exited } = await spawnTarget(spec, 0);
  const stdio = new PipelinedStdioWire(proc.child.stdin!, proc.child.stdout!, spec.timeoutMs);
  void exited.then((e) => stdio.failAll(e));
  const session = new McpSession(stdio, REVISION);
  await session.open();
  return { proc, session, stop: () => stopTarget(proc, "stdio") };
}

/** Samples whose stack holds `frame`, and all samples, of `profile`. */
function samplesWith(profile: FoldedProfile, frame: string): { hits: number; total: number } {
  let hits = 0;
  let total = 0;
  for (const s of profile.stacks) {
    total += s.count;
    if (s.frames.includes(frame)) hits += s.count;
  }
  return { hits, total };
}

/** The header every profile carries: the profiler with its version and a positive interval. */
function assertHeader(profile: FoldedProfile, profiler: RegExp): void {
  assert.match(profile.meta.profiler ?? "", profiler);
  assert.ok(Number(profile.meta.interval_us) > 0, `interval_us=${profile.meta.interval_us}`);
}

/**
 * One window's recovered costs: each named function's µs per call (its share of the samples times
 * the CPU the samples stand for, per call), their sum, and the lines that say so. The CPU is the
 * target's in the window less what the profile's header says its sampler could not see
 * (`sysmon_cpu_us`, Go's monitor thread).
 */
function recovered(name: string, profile: FoldedProfile, cpuNs: number, calls: number): { us: Record<string, number>; sumUs: number; lines: string[] } {
  const sampledCpuUs = (cpuNs / 1000 - Number(profile.meta.sysmon_cpu_us ?? 0)) / calls;
  const us: Record<string, number> = {};
  const lines: string[] = [];
  let sumUs = 0;
  for (const [fn, knownUs] of Object.entries(KNOWN_US)) {
    const { hits, total } = samplesWith(profile, FRAMES[name]![fn as keyof typeof KNOWN_US]);
    us[fn] = (hits / total) * sampledCpuUs;
    sumUs += us[fn]!;
    lines.push(`${fn}: ${us[fn]!.toFixed(0)} µs per call (${hits} of ${total} samples), known ${knownUs}`);
  }
  const sysmon = profile.meta.sysmon_cpu_us ? `, less Go's monitor thread ${(Number(profile.meta.sysmon_cpu_us) / calls).toFixed(0)}` : "";
  lines.push(`sum: ${sumUs.toFixed(0)} µs per call, known ${KNOWN_SUM_US}; the target's CPU ${(cpuNs / 1000 / calls).toFixed(0)} µs per call${sysmon}`);
  return { us, sumUs, lines };
}

/** Whether a window's recovered costs are each within 15 % of the known ones and their sum within 10 %. */
function withinBounds(r: ReturnType<typeof recovered>): boolean {
  return (
    Object.entries(KNOWN_US).every(([fn, knownUs]) => Math.abs(r.us[fn]! - knownUs) <= 0.15 * knownUs) && Math.abs(r.sumUs - KNOWN_SUM_US) <= 0.1 * KNOWN_SUM_US
  );
}

for (const name of Object.keys(FRAMES)) {
  test(`${name}: a profile window recovers each known cost within 15 % and their sum within 10 %`, {
    timeout: 900_000,
    skip: skipUnless(knownCost, name),
  }, async (t) => {
    await ensureBuilt(knownCost, [name]);
    const out = join(mkdtempSync(join(tmpdir(), "wirecost-known-cost-")), "profile.folded");
    const { proc, session, stop } = await stdioSession(knownCost, name, { WIRECOST_PROFILE_OUT: out });
    const call = () => session.request("tools/call", { name: "search_tickets", arguments: { query: "refund", limit: 10 } });
    const windows: string[] = [];
    let passed = false;
    try {
      for (let i = 0; i < 20; i++) await call();
      // Up to WINDOWS windows, each an independent measurement: on a machine whose run queue is
      // longer than its cores, the target runs and is woken at kernel ticks, the same ticks that
      // fire the CPU-time sampler, and a window's samples can land in step with the calls.
      for (let w = 1; w <= WINDOWS && !passed; w++) {
        const { profile, result: cpuNs } = await profileWindow(proc.pid, out, async () => {
          await sleep(100); // the window opens on the target's own signal thread
          const cpu0 = readSchedstatNs(proc.pid);
          for (let i = 0; i < CALLS; i++) {
            pause(Math.random() * TICK_MS);
            await call();
          }
          return readSchedstatNs(proc.pid) - cpu0;
        });
        assertHeader(profile, name.endsWith("go") ? /^go-runtime\/pprof@go1\./ : /^pprof-rs@0\.15\.0$/);
        const r = recovered(name, profile, cpuNs, CALLS);
        passed = withinBounds(r);
        windows.push(
          `window ${w} (${passed ? "within" : "outside"} the bounds; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores):\n  ${r.lines.join("\n  ")}`,
        );
        for (const line of windows.at(-1)!.split("\n")) t.diagnostic(line);
      }
    } finally {
      await stop();
    }
    assert.ok(passed, windows.join("\n"));
  });
}

test("known-cost-go and known-cost-rust: without WIRECOST_PROFILE_OUT, SIGUSR1 does what it does to any program of the language (no handler installed)", {
  timeout: 900_000,
}, async (t) => {
  for (const name of Object.keys(FRAMES)) {
    if (skipUnless(knownCost, name)) {
      t.diagnostic(`${name} skipped: ${skipUnless(knownCost, name)}`);
      continue;
    }
    await ensureBuilt(knownCost, [name]);
    const { proc, session, stop } = await stdioSession(knownCost, name, {});
    try {
      await session.request("ping");
      process.kill(proc.pid, "SIGUSR1");
      if (name.endsWith("rust")) {
        await proc.child;
        assert.equal(proc.exit(), "SIGUSR1", `${name} exit`);
      } else {
        process.kill(proc.pid, "SIGUSR2");
        await sleep(200);
        await session.request("ping"); // the Go runtime caught both and did nothing
        assert.equal(proc.exit(), undefined, `${name} still running`);
      }
    } finally {
      await stop();
    }
  }
});

test("known-cost-go and known-cost-rust: a bad WIRECOST_PROFILE_HZ or a relative WIRECOST_PROFILE_OUT is one line and exit 2", {
  timeout: 900_000,
}, async (t) => {
  for (const name of Object.keys(FRAMES)) {
    if (skipUnless(knownCost, name)) {
      t.diagnostic(`${name} skipped: ${skipUnless(knownCost, name)}`);
      continue;
    }
    await ensureBuilt(knownCost, [name]);
    const bin = join(knownCost.targets[name]!.build!.dir, "bin", name);
    for (const [env, named] of [
      [{ WIRECOST_PROFILE_OUT: "/tmp/x.folded", WIRECOST_PROFILE_HZ: "fast" }, /WIRECOST_PROFILE_HZ="fast" is not a rate from 1 to 10000/],
      [{ WIRECOST_PROFILE_OUT: "x.folded" }, /WIRECOST_PROFILE_OUT="x.folded" is not an absolute path/],
    ] as const) {
      const r = await execa(bin, ["--transport", "stdio"], { env, reject: false, input: "", timeout: 30_000 });
      assert.equal(r.exitCode, 2, `${name}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr, named);
    }
  }
});

/** Run `once` until process `pid` has spent `minNs` of CPU since the call (at most 60 s). */
async function loadUntilCpu(pid: number, minNs: number, once: () => Promise<unknown>): Promise<void> {
  const start = readSchedstatNs(pid);
  const deadline = Date.now() + 60_000;
  while (readSchedstatNs(pid) - start < minNs && Date.now() < deadline) await once();
}

/** SDK targets over stdio, and the frame prefix their stacks must show. */
const STDIO_SDK: [Matrix, string, string, RegExp][] = [
  [wire, "mcp-go", "github.com/modelcontextprotocol/go-sdk/", /^go-runtime\/pprof@go1\./],
  [wire, "mcp-rust", "rmcp::", /^pprof-rs@0\.15\.0$/],
];
for (const [matrix, name, sdkFrame, profiler] of STDIO_SDK) {
  test(`${name}: a profile window over stdio writes a non-empty profile whose stacks name the SDK`, {
    timeout: 900_000,
    skip: skipUnless(matrix, name),
  }, async () => {
    await ensureBuilt(matrix, [name]);
    const out = join(mkdtempSync(join(tmpdir(), `wirecost-${name}-`)), "profile.folded");
    const { proc, session, stop } = await stdioSession(matrix, name, { WIRECOST_PROFILE_OUT: out });
    let profile: FoldedProfile;
    try {
      ({ profile } = await profileWindow(proc.pid, out, async () => {
        await sleep(100);
        await loadUntilCpu(proc.pid, 300e6, () => session.request("tools/list", {}));
      }));
    } finally {
      await stop();
    }
    assertHeader(profile, profiler);
    assert.ok(profile.stacks.length > 0, "stacks");
    assert.ok(
      profile.stacks.some((s) => s.frames.some((f) => f.startsWith(sdkFrame))),
      `a stack through ${sdkFrame}: ${profile.stacks.slice(0, 3).map((s) => s.frames.join(";"))}`,
    );
  });
}

/** SDK targets over HTTP (the A2A echo agents), and the frame prefix their stacks must show. */
const HTTP_SDK: [string, string, RegExp][] = [
  ["a2a-go", "github.com/a2aproject/a2a-go/", /^go-runtime\/pprof@go1\./],
  ["a2a-rust", "a2a_protocol_server::", /^pprof-rs@0\.15\.0$/],
];
for (const [name, sdkFrame, profiler] of HTTP_SDK) {
  test(`${name}: a profile window over its SendMessage workload writes a non-empty profile whose stacks name the SDK`, {
    timeout: 900_000,
    skip: skipUnless(a2a, name),
  }, async () => {
    await ensureBuilt(a2a, [name]);
    const out = join(mkdtempSync(join(tmpdir(), `wirecost-${name}-`)), "profile.folded");
    const command = a2a.targets[name]!.commands.http!;
    const spec = {
      command: { ...command, env: { ...command.env, WIRECOST_PROFILE_OUT: out } },
      values: {},
      transport: "http" as const,
      revision: REVISION,
      cwd: dirname(a2a.file),
      timeoutMs: 30_000,
    };
    const port = await freePort();
    const { proc } = await spawnTarget(spec, port);
    let profile: FoldedProfile;
    try {
      const client = await KeepAliveClient.connect(port);
      const req = WORKLOADS["a2a-send-message"]!(port);
      ({ profile } = await profileWindow(proc.pid, out, async () => {
        await sleep(100);
        await loadUntilCpu(proc.pid, 300e6, () => client.send(req));
      }));
      client.close();
    } finally {
      await stopTarget(proc, "http");
    }
    assertHeader(profile, profiler);
    assert.ok(profile.stacks.length > 0, "stacks");
    assert.ok(
      profile.stacks.some((s) => s.frames.some((f) => f.startsWith(sdkFrame))),
      `a stack through ${sdkFrame}: ${profile.stacks.slice(0, 3).map((s) => s.frames.join(";"))}`,
    );
  });
}
