/**
 * Against the real MCP SDK v2 target (test/fixtures/runner-small.yaml: four configurations, 2
 * repeats): an uninterrupted run is the reference; a run stopped by SIGINT at a random point and
 * then resumed, and shards 1/3 + 2/3 + 3/3 merged, must give the same count results; verify on
 * the reference prints `N of N cells reproduced`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { processesWithMarker, tsv } from "./helpers.js";

const MATRIX = "test/fixtures/runner-small.yaml";
const SELECT = [MATRIX, "--jobs", "2"];
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `wirecost-${p}-`));
const wc = (args: string[], env: Record<string, string> = {}) => execa(process.execPath, [cli, ...args], { cwd: root, reject: false, env });

/**
 * The count facts of a results folder: what must be identical between two runs of the same matrix.
 * Byte identity and the fields that varied are left out: they depend on the clock (the Date
 * header has one-second resolution, so repeats within one second may agree on it).
 */
function counts(dir: string) {
  const runs = tsv(join(dir, "runs.tsv")).map(({ exit: _e, stream_sha256: _s, ...rest }) => rest);
  const summary = tsv(join(dir, "summary.tsv")).map(({ bytes_identical: _b, varying_fields: _v, ...rest }) => rest);
  return { runs, summary, medians: tsv(join(dir, "medians.tsv")), coverage: tsv(join(dir, "coverage.tsv")) };
}

test("SIGINT + --resume, shards merged, and verify all reproduce an uninterrupted run", { timeout: 170_000 }, async (t) => {
  const full = tmp("full");
  const ref = await wc(["run", ...SELECT, "--results", full]);
  assert.equal(ref.exitCode, 0, ref.stderr);
  const reference = counts(full);
  assert.equal(reference.runs.length, 8);
  assert.ok(reference.runs.every((r) => r.status === "ok"));

  await t.test("SIGINT at a random point, then --resume", async () => {
    const dir = tmp("int");
    const marker = randomUUID();
    const child = execa(process.execPath, [cli, "run", ...SELECT, "--results", dir], { cwd: root, reject: false, env: { WIRECOST_TEST_MARK: marker } });
    const after = 1 + Math.floor(Math.random() * 6); // finished runs before ^C: 1..6 of 8
    let seen = 0;
    child.stderr!.on("data", (d: Buffer) => {
      seen += (d.toString().match(/^\[\d+\/8\]/gm) ?? []).length;
      if (seen >= after && !child.killed) child.kill("SIGINT");
    });
    const r = await child;
    assert.equal(r.exitCode, 130, `^C after ${after} runs: ${r.stderr}`);
    assert.match(r.stderr, /resume: npx wirecost run .*--resume/);
    assert.deepEqual(processesWithMarker(`WIRECOST_TEST_MARK=${marker}`), [], "no process left after ^C");
    const partial = tsv(join(dir, "runs.tsv"));
    assert.ok(partial.length >= after && partial.length < 8, `${partial.length} runs written after ^C at ${after}`);
    const resumed = await wc(["run", ...SELECT, "--results", dir, "--resume"]);
    assert.equal(resumed.exitCode, 0, resumed.stderr);
    assert.match(resumed.stderr, /done before, resumed/);
    assert.deepEqual(counts(dir), reference);
  });

  await t.test("shards 1/3 + 2/3 + 3/3 merged equal the full run", async () => {
    const shards = [1, 2, 3].map(() => tmp("shard"));
    for (const [i, dir] of shards.entries()) {
      const r = await wc(["run", ...SELECT, "--shard", `${i + 1}/3`, "--results", dir]);
      assert.equal(r.exitCode, 0, r.stderr);
    }
    assert.deepEqual(
      shards.map((d) => tsv(join(d, "summary.tsv")).length),
      [2, 1, 1],
    );
    const merged = tmp("merged");
    const m = await wc(["merge", ...shards, "--results", merged]);
    assert.equal(m.exitCode, 0, m.stderr);
    assert.deepEqual(counts(merged), reference);
    const short = await wc(["merge", shards[0]!, shards[2]!, "--results", tmp("short")]);
    assert.equal(short.exitCode, 1);
    assert.match(short.stderr, /missing \(no folder ran them\): raw-mcp-ts-v2-http-2026-07-28-plain|missing \(no folder ran them\): \S+/);
    const dup = await wc(["merge", shards[0]!, shards[0]!, "--results", tmp("dup")]);
    assert.equal(dup.exitCode, 1);
    assert.match(dup.stderr, /in more than one folder/);
  });

  await t.test("verify on the reference: N of N cells reproduced", async () => {
    const v = await wc(["verify", MATRIX, "--results", full, "--jobs", "2"]);
    assert.equal(v.exitCode, 0, v.stderr + v.stdout);
    const m = /^(\d+) of (\d+) cells reproduced/m.exec(v.stdout);
    assert.ok(m, v.stdout);
    assert.equal(m[1], m[2]);
    assert.equal(Number(m[2]), reference.medians.length);
  });
});
