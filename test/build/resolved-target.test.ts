/**
 * A target without a build whose package comes from PyPI (`resolved: {from: pip, path}`): its
 * version is read from the Python it names, checked at preflight and recorded in provenance.json
 * — here `pip` of a venv made for the test (python3 -m venv installs it from the interpreter's own
 * wheel), in front of the TypeScript v2 target's server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

let dir: string;
let pipVersion: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "wirecost-resolved-"));
  await execa("python3", ["-m", "venv", join(dir, "venv")]);
  const r = await execa(join(dir, "venv/bin/python"), ["-m", "pip", "--version"]);
  pipVersion = /^pip (\S+)/.exec(r.stdout)![1]!;
});
after(() => rmSync(dir, { recursive: true, force: true }));

function matrix(version: string): string {
  const file = join(dir, `m-${version.replace(/\W/g, "")}.yaml`);
  writeFileSync(
    file,
    `version: 1
repeats: 1
axes:
  - { name: client, values: [raw] }
  - { name: target, values: [srv] }
  - { name: transport, values: [stdio] }
  - { name: revision, values: ["2025-11-25"] }
  - { name: flow, values: [plain] }
targets:
  srv:
    package: pip
    version: "${version}"
    resolved: { from: pip, path: venv/bin/python }
    stdio: { argv: [node, ${join(root, "dist/targets/mcp-ts-v2/server.js")}, --transport, stdio] }
`,
  );
  return file;
}

test("a PyPI package without a build: its version is recorded in provenance.json", { timeout: 60_000 }, async () => {
  const out = join(dir, "results");
  const r = await execa(process.execPath, [cli, "run", matrix(`>=${pipVersion.split(".")[0]}`), "--results", out], { cwd: root, reject: false });
  assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
  const prov = JSON.parse(readFileSync(join(out, "provenance.json"), "utf8")) as { packages: Record<string, string> };
  assert.equal(prov.packages.pip, pipVersion);
});

test("a PyPI package without a build at another version is refused at preflight in one line", { timeout: 60_000 }, async () => {
  const file = matrix("==1.0");
  const r = await execa(process.execPath, [cli, "run", file, "--results", join(dir, "refused")], { cwd: root, reject: false });
  assert.equal(r.exitCode, 1);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`m-10\\.yaml:\\d+:\\d+: target srv needs pip ==1\\.0 but ${pipVersion.replace(/\./g, "\\.")} is installed`));
});
