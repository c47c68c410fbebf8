/**
 * The tests that need chromium or tshark (test/tools.ts): skipped with one line naming the
 * install command when the tool is missing, required (failing) with CI=true, skipped on purpose
 * with WIRECOST_NO_<TOOL>=1. Checked on the decision itself and on the real test files run in a
 * child `node --test` with PATH emptied, so neither tool can be found.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { root } from "../paths.js";
import { inCi, toolSkip, type ToolNeed } from "../tools.js";

const need: ToolNeed = { tool: "tshark", found: false, install: "apt-get install tshark", optOut: "WIRECOST_NO_TSHARK" };

test("toolSkip: missing → the skip line with the install command; CI=true → required; opt-out → skipped on request", () => {
  assert.equal(toolSkip(need, {}), "tshark not found — install it: apt-get install tshark (with CI=true this test is required)");
  assert.equal(toolSkip(need, { CI: "true" }), false);
  assert.equal(toolSkip(need, { CI: "1" }), false);
  assert.equal(toolSkip(need, { CI: "false" }), toolSkip(need, {}));
  assert.equal(toolSkip({ ...need, found: true }, {}), false);
  assert.equal(toolSkip({ ...need, found: true, unusable: "needs root" }, {}), "needs root (with CI=true this test is required)");
  assert.equal(toolSkip({ ...need, found: true, unusable: "needs root" }, { CI: "true" }), false);
  assert.equal(toolSkip(need, { CI: "true", WIRECOST_NO_TSHARK: "1" }), "WIRECOST_NO_TSHARK=1: tshark test skipped on request");
  assert.equal(inCi({ CI: "TRUE" }), true);
  assert.equal(inCi({}), false);
});

/** The environment of a child test run in which no tool is on PATH, without the CI and opt-out variables. */
function bareEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== "CI" && !k.startsWith("WIRECOST_NO_") && !k.startsWith("NODE_TEST")) env[k] = v;
  return { ...env, PATH: mkdtempSync(join(tmpdir(), "wirecost-empty-path-")), ...extra };
}

for (const [file, tool] of [
  ["dist/test/tshark/cross-check.test.js", "tshark"],
  ["dist/test/browser/site.test.js", "chromium"],
] as const) {
  test(`${file} without ${tool}: skipped with the install line; with CI=true it fails`, { timeout: 120_000 }, async () => {
    const args = ["--test", "--test-reporter=tap", file];
    const bare = await execa(process.execPath, args, { cwd: root, env: bareEnv(), extendEnv: false, reject: false });
    assert.equal(bare.exitCode, 0, bare.stdout + bare.stderr);
    assert.match(bare.stdout, new RegExp(`# SKIP ${tool} not found — install it: apt-get install ${tool} \\(with CI=true this test is required\\)`));
    assert.doesNotMatch(bare.stdout, /^not ok/m);
    const ci = await execa(process.execPath, args, { cwd: root, env: bareEnv({ CI: "true" }), extendEnv: false, reject: false });
    assert.notEqual(ci.exitCode, 0, "required with CI=true");
    assert.match(ci.stdout, /^not ok/m);
    assert.match(ci.stdout, new RegExp(`${tool}.*(not found|not installed)`));
  });
}
