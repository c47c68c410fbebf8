/**
 * The kinds of results folder (format/kinds.ts), through the real CLI: each command reads a
 * folder's kind in one place, and a folder holding two kinds' marker files is refused in one line
 * by render and compare alike, nothing written; a run does not write one kind into a folder of
 * another.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";
import { resultKindOf } from "../../format/kinds.js";

const work = mkdtempSync(join(tmpdir(), "wirecost-kinds-"));

test("each committed results folder is of one kind", () => {
  assert.equal(resultKindOf(join(root, "results")), "wire");
  assert.equal(resultKindOf(join(root, "results/a2a-layer-cost")), "timing");
  assert.equal(resultKindOf(join(root, "results/mcp-per-call-overhead")), "percall");
  assert.equal(resultKindOf(join(root, "results/logs")), undefined);
});

test("a folder holding two kinds' markers is refused in one line by render and compare", () => {
  const two = join(work, "two");
  cpSync(join(root, "test/fixtures/results-before-anomalies"), two, { recursive: true });
  cpSync(join(root, "results/mcp-per-call-overhead/percall.tsv"), join(two, "percall.tsv"));
  for (const args of [
    ["render", "--results", two, "--site", join(work, "site")],
    ["compare", two, two],
  ]) {
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8" });
    assert.notEqual(r.status, 0, args[0]);
    assert.deepEqual(r.stderr.trimEnd().split("\n"), [
      `wirecost: ${two}: holds the results of two kinds (summary.tsv: bytes, percall.tsv: percall); fix: keep one kind of results per folder: move one of them into a folder of its own`,
    ]);
  }
  assert.equal(existsSync(join(work, "site")), false);
});

test("a run of one kind into a folder of another is refused in one line, before anything is built or written", () => {
  const bytes = join(work, "bytes");
  cpSync(join(root, "test/fixtures/results-before-anomalies"), bytes, { recursive: true });
  const r = spawnSync(process.execPath, [cli, "run", "matrices/a2a-layer-cost.yaml", "--results", bytes], { cwd: root, encoding: "utf8" });
  assert.notEqual(r.status, 0);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(
    lines[0]!,
    /^wirecost: .*bytes: holds bytes results, and matrices\/a2a-layer-cost\.yaml is a timing matrix; fix: give --results a folder of its own/,
  );
  assert.equal(existsSync(join(bytes, "timings-summary.tsv")), false);
  assert.equal(existsSync(join(bytes, "timings-run.json")), false);
});

test("merge into a folder of another kind, and recount of a folder holding two kinds, are refused in one line", () => {
  const timing = join(work, "timing");
  cpSync(join(root, "results/a2a-layer-cost"), timing, { recursive: true });
  const two = join(work, "two-recount");
  cpSync(join(root, "test/fixtures/results-before-anomalies"), two, { recursive: true });
  cpSync(join(root, "results/a2a-layer-cost/timings-summary.tsv"), join(two, "timings-summary.tsv"));
  for (const [args, line] of [
    [
      ["merge", join(root, "test/fixtures/results-before-anomalies"), "--results", timing],
      `wirecost: --results ${timing}: holds timing results — merge bytes shards into a folder of their own`,
    ],
    [
      ["recount", "--results", two],
      `wirecost: ${two}: holds the results of two kinds (summary.tsv: bytes, timings-summary.tsv: timing); fix: keep one kind of results per folder: move one of them into a folder of its own`,
    ],
  ] as const) {
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: "utf8" });
    assert.notEqual(r.status, 0, args[0]);
    assert.deepEqual(r.stderr.trimEnd().split("\n"), [line]);
  }
  assert.equal(existsSync(join(timing, "summary.tsv")), false);
});
