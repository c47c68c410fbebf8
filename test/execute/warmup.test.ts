/**
 * `warmup`: each configuration's warm-up runs happen before its counted repeats, against the real
 * target, and leave nothing in the results (no record, no log).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";

test("warm-up runs start the target before the counted repeats and are not recorded", { timeout: 60_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), "wirecost-warmup-test-"));
  const starts = join(mkdtempSync(join(tmpdir(), "wirecost-starts-")), "starts");
  const r = await execa(process.execPath, [cli, "run", "test/fixtures/warmup.yaml", "--results", out], {
    cwd: root,
    reject: false,
    env: { WIRECOST_STARTS: starts },
  });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(readFileSync(starts, "utf8"), "start\n".repeat(3)); // 2 warm-up runs + 1 repeat
  const runs = tsv(join(out, "runs.tsv"));
  assert.deepEqual(
    runs.map((x) => [x.repeat, x.status]),
    [["1", "ok"]],
  );
  assert.deepEqual(readdirSync(join(out, "logs", "raw-mcp-ts-v2-stdio-2025-11-25-plain")).sort(), ["1.jsonl", "1.messages.tsv"]);
});
