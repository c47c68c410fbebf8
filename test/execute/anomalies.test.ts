/**
 * A server's odd wire shape is a finding, not a lost run: a real server behind a stray stdout line
 * (test/fixtures/anomalies.yaml) runs ok, and the results name the anomaly in runs.tsv, summary.tsv,
 * the run's anomalies.tsv and messages.tsv, the configuration page and the report.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";

test("a stray stdout line is counted and named, and the run is ok", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-anomalies-"));
  const results = join(dir, "results");
  const run = await execa(process.execPath, [cli, "run", "test/fixtures/anomalies.yaml", "--results", results], { cwd: root, reject: false });
  assert.equal(run.exitCode, 0, run.stderr);
  const config = "raw-stray-stdio-2026-07-28-plain";
  for (const r of tsv(join(results, "runs.tsv"))) {
    assert.equal(r.status, "ok");
    assert.equal(r.anomalies, "stdio-non-jsonrpc-line:1");
    assert.equal(r.unattributed_bytes, "21", "`warning startup done` and its newline: 21 bytes no layer holds");
  }
  assert.equal(tsv(join(results, "summary.tsv"))[0]!.anomalies, "stdio-non-jsonrpc-line:2");
  const anomalies = tsv(join(results, "logs", config, "1.anomalies.tsv"));
  assert.deepEqual(
    anomalies.map((a) => [a.code, a.conn, a.dir, a.offset, a.bytes]),
    [["stdio-non-jsonrpc-line", "0", "s2c", "0", "21"]],
  );
  const messages = tsv(join(results, "logs", config, "1.messages.tsv"));
  assert.ok(
    messages.some((m) => m.anomalies === "stdio-non-jsonrpc-line" && m.unattributed_bytes === "21"),
    "messages.tsv marks the stray line",
  );
  const site = join(dir, "site");
  const render = await execa(process.execPath, [cli, "render", "--results", results, "--site", site], { cwd: root, reject: false });
  assert.equal(render.exitCode, 0, render.stderr);
  const report = readFileSync(join(site, "anomalies-fixture.md"), "utf8");
  assert.match(report, /## Anomalies\n\nConfigurations whose wire the counter found odd/);
  assert.match(
    report,
    /\| raw-stray-stdio-2026-07-28-plain \| config-anomalies-fixture--raw-stray-stdio-2026-07-28-plain\.md \| stdio-non-jsonrpc-line × 2 \|/,
  );
  const page = readFileSync(join(site, `config-anomalies-fixture--${config}.md`), "utf8");
  assert.match(page, /\| 1 \| stdio-non-jsonrpc-line \| stdio s2c \| 0 \| 21 \| line 1 holds no JSON-RPC message/);
});

test("--strict fails the run on its first anomaly, naming it", { timeout: 120_000 }, async () => {
  const results = join(mkdtempSync(join(tmpdir(), "wirecost-strict-")), "results");
  const run = await execa(process.execPath, [cli, "run", "test/fixtures/anomalies.yaml", "--strict", "--repeats", "1", "--results", results], {
    cwd: root,
    reject: false,
  });
  assert.equal(run.exitCode, 1, run.stderr);
  const [r] = tsv(join(results, "runs.tsv"));
  assert.equal(r!.status, "failed");
  assert.match(r!.error!, /^counting .*stdio-non-jsonrpc-line/);
});
