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
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import type { FoldedProfile } from "../../runner/attribution/folded.js";
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
