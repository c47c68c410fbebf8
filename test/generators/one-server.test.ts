/**
 * A page of one server: its findings name that server, never "every server measured" (the real
 * CLI runs the small matrix of the TypeScript v2 server, then renders it).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

test("the findings of a one-server report name the server", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-one-server-"));
  try {
    const results = join(dir, "results");
    const run = await execa(process.execPath, [cli, "run", "test/fixtures/runner-small.yaml", "--repeats", "1", "--results", results], {
      cwd: root,
      reject: false,
    });
    assert.equal(run.exitCode, 0, run.stderr);
    await execa(process.execPath, [cli, "render", "--results", results, "--site", join(dir, "site")], { cwd: root });
    const page = readFileSync(join(dir, "site", "runner-test-matrix.md"), "utf8");
    assert.match(page, /Flow `plain`, 2026-07-28 against 2025-11-25: .*(lighter|heavier) on mcp-ts-v2/);
    assert.doesNotMatch(page, /every server measured/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
