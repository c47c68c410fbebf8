/**
 * The capture's limit of application bytes: a target flooding its output (stdio and HTTP,
 * test/fixtures/fault-targets/flood.mjs) under `captureLimitMiB: 1` fails each run with the
 * limit's reason (failed, not a timeout), and its kept log holds at most the limit; `wirecost
 * capture --limit-mib 1 -- CMD` stops the flooding command with one line on stderr and exit 1.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";
import { readCaptureLog } from "../../runner/capture/log.js";

const MIB = 1024 * 1024;

/** Application bytes a capture log holds (both directions). */
function loggedBytes(path: string): number {
  return readCaptureLog(path).reduce((n, r) => n + (r.b64 === undefined ? 0 : Buffer.from(r.b64, "base64").length), 0);
}

test("a flooding target under captureLimitMiB: 1 fails each run with the limit's reason; the log holds at most 1 MiB", { timeout: 90_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-flood-"));
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/flood.yaml", "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 1, r.stderr);
  const runs = tsv(join(out, "runs.tsv"));
  assert.equal(runs.length, 2, JSON.stringify(runs));
  for (const run of runs) {
    assert.equal(run.status, "failed", `${run.config}: ${run.error}`);
    assert.match(
      run.error!,
      /the capture passed its limit of 1 MiB of application bytes in one run: it stopped there .*captureLimitMiB: in the matrix raises the limit/,
      run.config,
    );
    const log = join(out, "logs", run.config!, "1.jsonl");
    const bytes = loggedBytes(log);
    assert.ok(bytes > 0 && bytes <= MIB, `${run.config}: ${bytes} application bytes logged, at most ${MIB}`);
    assert.ok(statSync(log).size < 2 * MIB, `${run.config}: the log is ${statSync(log).size} bytes`);
  }
});

test("capture --limit-mib 1 around a flooding command: one line on stderr, exit 1, the log at most 1 MiB", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-flood-capture-"));
  const log = join(dir, "flood.jsonl");
  const r = await execa(process.execPath, [cli, "capture", "--limit-mib", "1", "--log", log, "--", process.execPath, "test/fixtures/fault-targets/flood.mjs"], {
    cwd: root,
    reject: false,
    stdout: "ignore",
    input: "",
  });
  assert.equal(r.exitCode, 1, r.stderr);
  assert.match(r.stderr, /^wirecost capture: the capture passed its limit of 1 MiB of application bytes in one run: .*--limit-mib raises the limit\), log /m);
  assert.ok(loggedBytes(log) <= MIB, `${loggedBytes(log)} bytes logged`);
  assert.ok(readFileSync(log, "utf8").length > 0);
  const bad = await execa(process.execPath, [cli, "capture", "--limit-mib", "0", "--log", log, "--", "true"], { cwd: root, reject: false });
  assert.notEqual(bad.exitCode, 0);
  assert.match(bad.stderr, /--limit-mib takes a whole number from 1 to 4096, got "0"/);
});
