/**
 * Fault-injection targets (test/fixtures/fault-targets/) in one small matrix with the real MCP SDK
 * v2 target: each fault ends as a recorded failed or timeout run with a clear reason, the real
 * cells still measure, the CLI exits 1 with the rerun command, and no process is left (each pid
 * the targets and their grandchildren recorded is gone; nothing carrying the test's marker lives).
 * A target whose child leaves its process group (`setsid`, test/fixtures/setsid-stray.yaml) and
 * keeps stdout open still ends at its time limit, and SIGTERM of `run` ends it, the child killed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { alive, processesWithMarker, tsv } from "./helpers.js";

test("each fault target ends as a recorded failed/timeout run with its reason; the rest runs; no process left", { timeout: 90_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-faults-"));
  const pids = mkdtempSync(join(tmpdir(), "wirecost-pids-"));
  const marker = `WIRECOST_TEST_MARK=${randomUUID()}`;
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/faults.yaml", "--jobs", "2", "--results", out], {
    cwd: root,
    reject: false,
    env: { FAULT_PID_DIR: pids, WIRECOST_TEST_MARK: marker.split("=")[1] },
  });
  assert.equal(r.exitCode, 1, r.stderr);
  const runs = new Map(tsv(join(out, "runs.tsv")).map((x) => [x.config!.replace(/^raw-|-2026-07-28-plain$/g, ""), x]));
  const expect: Record<string, [string, RegExp, RegExp]> = {
    "exit-at-start-http": ["failed", /^3$/, /target exited before listening .*exit 3/],
    "exit-at-start-stdio": ["failed", /^3$/, /closed stdout .*target exited: 3.*giving up before start/],
    "die-mid-response-http": ["failed", /^7$/, /expected \d+ more body bytes .*got end of stream .*target exited: 7/],
    "throw-at-start-http": ["failed", /^1$/, /target exited before listening .*stderr: .*Error: boom \(fault target throw-at-start\) \| … \| Node\.js v/],
    "throw-at-start-stdio": ["failed", /^1$/, /closed stdout .*stderr: .*Error: boom \(fault target throw-at-start\) \| … \| Node\.js v/],
    "never-answers-http": ["timeout", /^SIGKILL$/, /time limit of 4 s/],
    // Lines that are not JSON-RPC are read past (the counter names them): the run waits for an answer that never comes.
    "garbage-stdout-stdio": ["timeout", /./, /time limit of 4 s/],
    "half-chunked-http": ["failed", /./, /chunk-size line .*end of stream/],
    "mcp-ts-v2-stdio": ["ok", /./, /^$/],
    "mcp-ts-v2-http": ["ok", /./, /^$/],
  };
  assert.deepEqual([...runs.keys()].sort(), Object.keys(expect).sort());
  for (const [cell, [status, exit, error]] of Object.entries(expect)) {
    const run = runs.get(cell)!;
    assert.equal(run.status, status, `${cell}: ${run.error}`);
    assert.match(run.exit!, exit, `${cell} exit`);
    assert.match(run.error!, error, `${cell} error`);
    assert.doesNotMatch(run.error!, /[\u0000-\u0008]/, `${cell} error is printable`);
    const record = JSON.parse(readFileSync(join(out, "runs", `raw-${cell}-2026-07-28-plain`, "1.json"), "utf8")) as { error: string };
    assert.doesNotMatch(record.error, /[\n\r]/, `${cell}: the recorded reason is one line`);
    assert.ok(record.error.length < 1000, `${cell}: the recorded reason is bounded (${record.error.length} chars)`);
  }
  // the partial capture log of a failed run is kept
  const partial = readFileSync(join(out, "logs", "raw-die-mid-response-http-2026-07-28-plain", "1.jsonl"), "utf8");
  assert.match(partial, /"dir":"s2c"/);
  assert.ok(existsSync(join(out, "runs", "raw-never-answers-http-2026-07-28-plain", "1.json")));
  // one-screen summary and the rerun command naming exactly the failed ids
  const rerun = r.stderr.split("\n").find((l) => l.startsWith("rerun them: "));
  assert.ok(rerun, r.stderr);
  assert.equal((rerun.match(/--only /g) ?? []).length, 8);
  // one line per run in the progress output, even for a target whose stderr has many lines
  assert.equal(r.stderr.split("\n").filter((l) => /^\[\d+\/\d+\] /.test(l)).length, runs.size, r.stderr);
  assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack line of a target's stderr on a line of its own");
  assert.match(rerun, /--resume$/);
  assert.equal(tsv(join(out, "coverage.tsv")).filter((c) => c.outcome === "measured").length, 2);
  // no process left: every recorded pid (targets and their grandchildren) is gone
  const recorded = readdirSync(pids).map(Number);
  assert.ok(recorded.length >= 8, `pids recorded: ${recorded.join(" ")}`);
  assert.deepEqual(recorded.filter(alive), []);
  assert.deepEqual(processesWithMarker(marker), []);
});

test("a target listening on 0.0.0.0 fails its run with one line naming the address; the loopback target beside it runs ok", { timeout: 60_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-binds-all-"));
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/binds-all.yaml", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 1, r.stderr);
  const runs = new Map(tsv(join(out, "runs.tsv")).map((x) => [x.config!, x]));
  const bad = runs.get("jsonrpc-binds-all-http-plain")!;
  assert.equal(bad.status, "failed", bad.error);
  assert.match(bad.error!, /^target listens on 0\.0\.0\.0:\d+, not on loopback only — bind it to 127\.0\.0\.1/);
  assert.equal(runs.get("jsonrpc-echo-http-plain")!.status, "ok");
  assert.match(r.stderr, /target listens on 0\.0\.0\.0:\d+, not on loopback only/);
});

test("a target that binds anything off loopback fails its run with one line naming it: a second listener, one bound during the run, UDP, a child's, a stdio target's", {
  timeout: 60_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-binds-extra-"));
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/binds-extra.yaml", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 1, r.stderr);
  const runs = new Map(tsv(join(out, "runs.tsv")).map((x) => [x.config!, x]));
  const tcp = /^target listens on TCP 0\.0\.0\.0:\d+ \(process \d+\), not on loopback only — bind it to 127\.0\.0\.1/;
  for (const id of ["jsonrpc-second-http-plain", "jsonrpc-late-http-plain", "jsonrpc-child-http-plain", "jsonrpc-stdio-listens-stdio-plain"]) {
    assert.equal(runs.get(id)?.status, "failed", id);
    assert.match(runs.get(id)!.error!, tcp, id);
  }
  assert.equal(runs.get("jsonrpc-udp-http-plain")?.status, "failed");
  assert.match(runs.get("jsonrpc-udp-http-plain")!.error!, /^target binds UDP 0\.0\.0\.0:\d+ \(process \d+\), not on loopback only/);
});

test("an answer nested 100,000 deep fails its run with the driver's reason, not V8's stack overflow", { timeout: 30_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-deep-"));
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/deep-answer.yaml", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 1, r.stderr);
  const [run] = tsv(join(out, "runs.tsv"));
  assert.equal(run!.status, "failed");
  assert.equal(run!.error, 'echo #1: expected a result with text "hello", got a JSON value nested too deep to show');
});

test("a matrix whose target command does not exist gets one clear line, not a stack trace", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-badcmd-"));
  const matrix = (argv: string) =>
    `version: 1\naxes:\n  - name: target\n    values: [t]\n  - name: transport\n    values: [stdio]\ntargets:\n  t:\n    stdio:\n      argv: ${argv}\n`;
  writeFileSync(join(dir, "nocmd.yaml"), matrix("[no-such-server-binary, --stdio]"));
  writeFileSync(join(dir, "noscript.yaml"), matrix("[node, dist/missing-server.js]"));
  const a = await execa(process.execPath, [cli, "run", join(dir, "nocmd.yaml"), "--results", join(dir, "r")], { reject: false });
  assert.equal(a.exitCode, 1);
  assert.equal(a.stderr.trim().split("\n").length, 1, a.stderr);
  assert.match(a.stderr, /nocmd\.yaml:10:14: program "no-such-server-binary" of target t \(stdio\) not found on PATH — fix the command/);
  const b = await execa(process.execPath, [cli, "run", join(dir, "noscript.yaml"), "--results", join(dir, "r")], { reject: false });
  assert.equal(b.exitCode, 1);
  assert.equal(b.stderr.trim().split("\n").length, 1, b.stderr);
  assert.match(b.stderr, /noscript\.yaml:10:20: script dist\/missing-server\.js of target t \(stdio\) not found .* or build first: npm run build/);
});

test("a stdio target that stops answering is a timeout, as on HTTP, with the driver's reason", { timeout: 30_000 }, async () => {
  // A 2025-era revision opens with initialize, whose wait for a stdout line starts before the
  // run's own time limit: the driver's limit fires first, and must be recorded as timeout too.
  const dir = mkdtempSync(join(tmpdir(), "wirecost-stdio-hang-"));
  const pids = mkdtempSync(join(tmpdir(), "wirecost-pids-"));
  const target = join(root, "test/fixtures/fault-targets/never-answers.mjs");
  const matrix = `version: 1\ntimeoutSeconds: 2\naxes:\n  - name: target\n    values: [hang]\n  - name: transport\n    values: [stdio]\n  - name: revision\n    values: ["2025-11-25"]\n  - name: flow\n    values: [plain]\ntargets:\n  hang:\n    stdio:\n      argv: [node, ${JSON.stringify(target)}]\n`;
  writeFileSync(join(dir, "hang.yaml"), matrix);
  const r = await execa(process.execPath, [cli, "run", join(dir, "hang.yaml"), "--results", join(dir, "r")], { reject: false, env: { FAULT_PID_DIR: pids } });
  assert.equal(r.exitCode, 1, r.stderr);
  const [run] = tsv(join(dir, "r", "runs.tsv"));
  assert.equal(run!.status, "timeout", run!.error);
  assert.match(run!.error!, /^no line from the target's stdout within 2000 ms/);
  assert.deepEqual(readdirSync(pids).map(Number).filter(alive), []);
});

test("a target whose port was taken before it bound is started again on another port, and the run measures", { timeout: 60_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-port-taken-"));
  const flags = mkdtempSync(join(tmpdir(), "wirecost-port-flag-"));
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/port-taken.yaml", "--results", out], {
    cwd: root,
    reject: false,
    env: { FAULT_FLAG_DIR: flags },
  });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.ok(existsSync(join(flags, "port-taken-once.flag")), "the first start did find its port taken");
  const [run] = tsv(join(out, "runs.tsv"));
  assert.equal(run?.status, "ok", run?.error);
  assert.equal(run?.jsonrpc_c2s, "2");
});

test("a target whose child leaves its process group (setsid) holding stdout: each run ends at the time limit with the reason; nothing left", {
  timeout: 90_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-setsid-"));
  const pids = mkdtempSync(join(tmpdir(), "wirecost-pids-"));
  const started = Date.now();
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/setsid-stray.yaml", "--jobs", "3", "--results", out], {
    cwd: root,
    reject: false,
    timeout: 60_000,
    env: { FAULT_PID_DIR: pids },
  });
  assert.equal(r.timedOut, false, "run ended by itself");
  assert.equal(r.exitCode, 1, r.stderr);
  assert.ok(Date.now() - started < 30_000, `ended near its 3 s limits, took ${Date.now() - started} ms`);
  const runs = tsv(join(out, "runs.tsv"));
  assert.deepEqual(runs.map((x) => x.config).sort(), [
    "raw-leaves-stdio-2026-07-28-plain",
    "raw-stays-http-2026-07-28-plain",
    "raw-stays-stdio-2026-07-28-plain",
  ]);
  for (const run of runs) {
    assert.equal(run.status, "timeout", `${run.config}: ${run.error}`);
    assert.match(run.error!, /time limit of 3 s|within 3000 ms/, run.config);
  }
  await new Promise((res) => setTimeout(res, 500));
  const recorded = readdirSync(pids).map(Number);
  assert.ok(recorded.length >= 6, `pids recorded: ${recorded.join(" ")}`);
  assert.deepEqual(recorded.filter(alive), [], "every process the targets started is gone");
});

test("SIGTERM of run while a target's setsid child holds its stdout: run ends, the child is killed", { timeout: 60_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-setsid-term-"));
  const pids = mkdtempSync(join(tmpdir(), "wirecost-pids-"));
  // The fixture with a 60 s limit, so that SIGTERM, not the limit, ends the run.
  const matrix = join(out, "setsid-stray-60s.yaml");
  writeFileSync(
    matrix,
    readFileSync(join(root, "test/fixtures/setsid-stray.yaml"), "utf8")
      .replace("timeoutSeconds: 3", "timeoutSeconds: 60")
      .replaceAll("fault-targets/", `${join(root, "test/fixtures/fault-targets")}/`),
  );
  const child = execa(process.execPath, [cli, "run", matrix, "--only", "raw-stays-stdio-*", "--results", join(out, "r")], {
    cwd: root,
    reject: false,
    timeout: 45_000,
    env: { FAULT_PID_DIR: pids },
  });
  for (let i = 0; i < 1200 && readdirSync(pids).length < 2; i++) await new Promise((res) => setTimeout(res, 25));
  assert.ok(readdirSync(pids).length >= 2, "the target and its setsid child started");
  const sent = Date.now();
  child.kill("SIGTERM");
  const r = await child;
  assert.equal(r.timedOut, false, `run ended after SIGTERM: ${r.stderr}`);
  assert.ok(Date.now() - sent < 10_000, `ended ${Date.now() - sent} ms after SIGTERM`);
  assert.match(r.stderr, /^interrupted: /m, "stopped by the signal, not by the time limit");
  await new Promise((res) => setTimeout(res, 500));
  assert.deepEqual(readdirSync(pids).map(Number).filter(alive), [], "the target and its setsid child are gone");
});
