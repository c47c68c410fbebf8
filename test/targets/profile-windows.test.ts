/**
 * The profile windows in the SDK targets that install them (README "Profile windows"), and the
 * known-cost targets' checks that measure no time (their known answers: known-cost.test.ts, in the
 * suite's quiet group).
 *
 * SDK targets (mcp-go, mcp-rust, a2a-go, a2a-rust): a window over their own workload writes a
 * non-empty profile whose stacks name the SDK. And without WIRECOST_PROFILE_OUT nothing is
 * installed: SIGUSR1 has the effect it has on any program of the language (Rust: the default
 * action, the process ends; Go: the runtime catches it and does nothing, os/signal "Default
 * behavior"), and no profile is written.
 *
 * The Go and Rust per-call harnesses with `profile: { sampler: self }` (the harness protocol's
 * profile window, README "Per-call harnesses in other languages"): through the real CLI, the
 * harness and its server child each write their own non-empty profile whose stacks name the SDK,
 * and the stage rules the matrix declares put most of each process's samples in named stages.
 */
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { parseFolded, type FoldedProfile } from "../../runner/attribution/folded.js";
import { loadStageRules, stageOfStack } from "../../runner/attribution/rules.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { root } from "../paths.js";
import { runHarnessMatrix, tsvRows, type HarnessRun } from "../percall/harness-support.js";
import { profileWindow } from "../../runner/attribution/samplers.js";
import { ensureBuilt } from "../../runner/build/build.js";
import type { Matrix } from "../../runner/matrix/types.js";
import { KeepAliveClient } from "../../runner/measure/client.js";
import { readSchedstatNs } from "../../runner/measure/cpu.js";
import { WORKLOADS } from "../../runner/measure/workloads.js";
import { spawnTarget, stopTarget } from "../../runner/percall/client.js";
import { freePort } from "../../runner/targets/process.js";
import { a2a, assertHeader, FRAMES, knownCost, REVISION, skipUnless, sleep, stdioSession, wire } from "./profile-support.js";

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

/** The share of a profile's samples (idle ones left out, as the stage table leaves them out) that `rulesFile` puts in a named stage. */
function namedShare(profile: FoldedProfile, rulesFile: string): { named: number; of: number } {
  const rules = loadStageRules(rulesFile).rules;
  let named = 0;
  let of = 0;
  for (const s of profile.stacks) {
    const stage = stageOfStack(s.frames, rules);
    if (stage === "idle") continue;
    of += s.count;
    if (stage !== undefined) named += s.count;
  }
  return { named, of };
}

const HARNESS_PROFILED = "test/fixtures/matrices/percall-harness-profiled.yaml";
const harnessProfiled = loadMatrix(join(root, HARNESS_PROFILED));
/** Each harness target of the fixture: the SDK's frame prefix, the `target=` of the harness's and of its server's profile header. */
const HARNESSES: [string, string, string, string, RegExp][] = [
  ["go-sdk", "github.com/modelcontextprotocol/go-sdk/", "mcp-go-harness", "mcp-go", /^go-runtime\/pprof@go1\./],
  ["rust-sdk", "rmcp::", "mcp-rust-harness", "mcp-rust", /^pprof-rs@0\.15\.0$/],
];
const runnable = HARNESSES.filter(([name]) => !skipUnless(harnessProfiled, name));

/**
 * The fixture's run, again (up to {@link STALL_RUNS} runs) while a call stalls past 60 s (the
 * harness's "took over 60 s" failure). go-sdk's client against mcp-go over stdio has stalled one
 * call for 60.0 s (60,003,315 µs) once in about 2.5 million calls of the harness run alone in a
 * loop, and in three of four suite runs. The cause, seen with gdb in a stalled server: Go 1.26's
 * garbage collector waits in stopTheWorldWithSema for the P of the goroutine blocked in read(0)
 * on stdin, and sysmon, which would retake that P, sleeps forcegcperiod/2 (60 s) while a
 * stop-the-world is pending (runtime/proc.go; go1.26.8). A runtime race, not wirecost's or the
 * SDK's code: a user's Go stdio server can stall the same way (targets/mcp-go/README.md). A stall
 * is not what this test checks (the profile windows are), so each is printed and the run
 * repeated, with GOGC=400 for fewer collections and so fewer chances to stall (Go's processes
 * only); a run of stalls to the last fails the test.
 */
async function harnessRunWithoutStall(t: TestContext): Promise<HarnessRun> {
  for (let run = 1; ; run++) {
    const r = await runHarnessMatrix(HARNESS_PROFILED, "harness-profiled", 1_500_000, { GOGC: "400" });
    const stall = /took over 60 s[^\n]*/.exec(r.run.stderr);
    if (r.run.exitCode === 0 || !stall || run === STALL_RUNS) return r;
    t.diagnostic(`a call stalled in run ${run}, run again: ${stall[0]}`);
    r.cleanup();
  }
}
/** The most runs {@link harnessRunWithoutStall} makes. */
const STALL_RUNS = 4;

test("the Go and Rust harnesses with sampler: self: both processes write their own profile, naming the SDK, mostly in named stages", {
  timeout: 1_800_000,
  skip: runnable.length === 0 ? HARNESSES.map(([name]) => skipUnless(harnessProfiled, name)).join("; ") : false,
}, async (t) => {
  const { dir, run, cleanup } = await harnessRunWithoutStall(t);
  try {
    assert.equal(run.exitCode, 0, run.stderr);
    const profiled = new Map(tsvRows(join(dir, "percall-profiled.tsv")).map((r) => [r.config!, r]));
    const settings = (JSON.parse(readFileSync(join(dir, "percall-run.json"), "utf8")) as { settings: { profileHz: number } }).settings;
    assert.equal(settings.profileHz, 499, "the rate asked is recorded");
    const stages = tsvRows(join(dir, "percall-stages.tsv"));
    for (const [name, sdkFrame, clientTarget, serverTarget, profiler] of HARNESSES) {
      if (!runnable.some(([n]) => n === name)) {
        t.diagnostic(`${name} skipped: ${skipUnless(harnessProfiled, name)}`);
        continue;
      }
      const config = `${name}-stdio-2025-11-25`;
      const row = profiled.get(config)!;
      assert.equal(row.status, "ok", `${config}: ${row.reason}`);
      assert.deepEqual([row.client_sampler, row.server_sampler], ["self", "self"], config);
      // Check (b)'s like-with-like reference: the same calls unprofiled in the harness's process
      // just before and after its window (reference.json, harness protocol).
      const adjacent = Number(row.adjacent_us_per_call);
      const window = Number(row.window_us_per_call);
      assert.ok(adjacent > 0 && adjacent < 3 * window && window < 3 * adjacent, `${config}: adjacent ${row.adjacent_us_per_call} µs, window ${window} µs`);
      const pids = new Set<string>();
      for (const [role, target] of [
        ["client", clientTarget],
        ["server", serverTarget],
      ] as const) {
        const profile = parseFolded(readFileSync(join(dir, "profiles", config, `${role}.folded`), "utf8"));
        assertHeader(profile, profiler);
        assert.equal(profile.meta.target, target, `${config} ${role}: the process that wrote it`);
        assert.equal(Math.round(Number(profile.meta.interval_us)), 2004, `${config} ${role}: the matrix's profileHz 499 reached the process`);
        pids.add(profile.meta.pid!);
        assert.ok(
          profile.stacks.some((s) => s.frames.some((f) => f.startsWith(sdkFrame))),
          `${config} ${role}: a stack through ${sdkFrame}: ${profile.stacks.slice(0, 3).map((s) => s.frames.join(";"))}`,
        );
        const prof = harnessProfiled.targets[name]!.profile!;
        const rulesFile = role === "client" ? prof.clientStages! : prof.stages!; // absolute (the matrix loader resolves them)
        const { named, of } = namedShare(profile, rulesFile);
        t.diagnostic(`${config} ${role}: ${named} of ${of} samples in named stages`);
        assert.ok(of >= 20, `${config} ${role}: ${of} samples (too few to say anything)`);
        assert.ok(named / of >= 0.8, `${config} ${role}: only ${named} of ${of} samples in named stages`);
        const mine = stages.filter((r) => r.config === config && r.process === role);
        assert.ok(
          mine.some((r) => r.stage === "work" || r.stage === "parse-result"),
          `${config} ${role}: stage rows ${mine.map((r) => r.stage)}`,
        );
        assert.ok(!mine.some((r) => r.stage === "not-attributed"), `${config} ${role}: ${mine.find((r) => r.stage === "not-attributed")?.note}`);
      }
      assert.equal(pids.size, 2, `${config}: two processes, each its own profile`);
    }
  } finally {
    cleanup();
  }
});
