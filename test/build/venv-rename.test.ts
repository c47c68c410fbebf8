/**
 * A build that makes a Python venv survives the rename of its temporary folder into place: the
 * venv's console scripts (here pip's own, written with the absolute path of the venv's Python)
 * start from the final folder (runner/build/build.ts, relocateShebangs). Real python3 -m venv
 * through the real CLI.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

test("a venv built into a temporary folder runs its console scripts once renamed into place", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-venv-"));
  try {
    writeFileSync(join(dir, "build.sh"), 'set -euo pipefail\npython3 -m venv "$1/venv"\n');
    writeFileSync(
      join(dir, "matrix.yaml"),
      `version: 1
repeats: 1
axes:
  - { name: client, values: [raw] }
  - { name: target, values: [py] }
  - { name: transport, values: [stdio] }
  - { name: revision, values: ["2025-11-25"] }
  - { name: flow, values: [plain] }
targets:
  py:
    build:
      command: [bash, build.sh, "{build}"]
      inputs: [build.sh]
      toolchain:
        - { command: python3, probe: [python3, -m, venv, --help], version: [python3, --version], install: "Python 3 with its venv module" }
    stdio: { argv: [node, ${join(root, "dist/targets/mcp-ts-v2/server.js")}, --transport, stdio] }
`,
    );
    const buildRoot = join(dir, ".wirecost", "build");
    const r = await execa(process.execPath, [cli, "run", join(dir, "matrix.yaml"), "--results", join(dir, "results")], {
      cwd: root,
      reject: false,
      env: { WIRECOST_BUILD_ROOT: buildRoot },
    });
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
    const pip = join(buildRoot, "py", "venv", "bin", "pip");
    assert.match(readFileSync(pip, "utf8").split("\n")[0]!, new RegExp(`^#!${join(buildRoot, "py", "venv", "bin", "python")}3?$`));
    const v = await execa(pip, ["--version"], { reject: false });
    assert.equal(v.exitCode, 0, v.stderr);
    assert.match(v.stdout, /^pip \d+/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
