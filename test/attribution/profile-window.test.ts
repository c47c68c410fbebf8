/**
 * The profile window of wirecost's TypeScript targets (targets/common/profile-window.ts, the
 * profile-window contract): the V8 profile → folded stacks conversion on a profile written here
 * ((root) left out, (idle) samples dropped, (garbage collector) kept); a real target started with
 * WIRECOST_PROFILE_OUT samples itself from SIGUSR1 to SIGUSR2, writes folded stacks with the
 * header atomically and goes on serving; without the variable nothing is installed.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cpuProfileToFolded } from "../../targets/common/profile-window.js";
import { parseFolded } from "../../runner/attribution/folded.js";
import { root } from "../paths.js";

const node = (id: number, functionName: string, children: number[] = [], url = "", lineNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber },
  children,
});

describe("profile window", () => {
  it("converts a V8 profile: (root) left out, (idle) dropped, (garbage collector) kept, lines 1-based", () => {
    const profile = {
      nodes: [
        node(1, "(root)", [2, 4, 5]),
        node(2, "main", [3], "file:///a.js", 9),
        node(3, "parse", [], "file:///a.js", 19),
        node(4, "(idle)"),
        node(5, "(garbage collector)"),
      ],
      samples: [3, 3, 2, 4, 4, 4, 5],
    };
    const p = parseFolded(cpuProfileToFolded(profile, { profiler: "v8@test", interval_us: "1003" }));
    assert.deepEqual(p.meta, { profiler: "v8@test", interval_us: "1003" });
    assert.deepEqual(p.stacks.map((s) => [s.frames.join(";"), s.count]).sort(), [
      ["(garbage collector)", 1],
      ["main (file:///a.js:10)", 1],
      ["main (file:///a.js:10);parse (file:///a.js:20)", 2],
    ]);
  });

  it("a target started with WIRECOST_PROFILE_OUT samples itself from SIGUSR1 to SIGUSR2 and keeps serving", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "wirecost-window-")), "server.folded");
    const child = spawn(process.execPath, [join(root, "dist/targets/known-cost/ts/server.js"), "--transport", "stdio"], {
      env: { ...process.env, WIRECOST_PROFILE_OUT: out, WIRECOST_KNOWN_COSTS: "parse_and_validate=3000,do_work=1000,build_result=1000" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let answers = 0;
    child.stdout.on("data", (d: Buffer) => (answers += d.toString().split("\n").filter(Boolean).length));
    const call = (id: number) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_tickets", arguments: {} } })}\n`);
    try {
      call(-1); // the handler is installed before the target reads stdin: once it answers, SIGUSR1 is ours
      while (answers < 1) await sleep(20);
      child.kill("SIGUSR1");
      await sleep(100);
      for (let i = 0; i < 100; i++) call(i);
      while (answers < 101) await sleep(20);
      child.kill("SIGUSR2");
      for (let i = 0; i < 200 && !existsSync(out); i++) await sleep(20);
      const p = parseFolded(readFileSync(out, "utf8"));
      assert.match(p.meta.profiler ?? "", /^v8@/);
      assert.equal(p.meta.interval_us, "1003", "997 Hz by default");
      const total = p.stacks.reduce((n, s) => n + s.count, 0);
      const inParse = p.stacks.filter((s) => s.frames.some((f) => f.startsWith("parse_and_validate "))).reduce((n, s) => n + s.count, 0);
      assert.ok(total > 0 && inParse / total > 0.3, `parse_and_validate holds 60 % of the work: ${inParse} of ${total} samples`);
      call(1000);
      while (answers < 102) await sleep(20);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("without WIRECOST_PROFILE_OUT nothing is installed (no SIGUSR1 or SIGUSR2 listener)", () => {
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { installProfileWindow } from ${JSON.stringify(join(root, "dist/targets/common/profile-window.js"))}; const on = installProfileWindow({}); console.log(on, process.listenerCount("SIGUSR1"), process.listenerCount("SIGUSR2"));`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.stdout.trim(), "false 0 0", r.stderr);
  });
});
