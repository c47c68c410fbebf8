/**
 * A package version as an axis through the real CLI: the releases matrix's configuration of
 * @modelcontextprotocol/sdk 1.13.0 builds that release's environment from its committed lock
 * (npm ci, npm's cache) into `<build root>/mcp-ts-v1@1.13.0`, the server resolves the SDK there
 * (not the project's 1.32.2), provenance records the resolved set under the version's entry, and a
 * build whose resolved set is not the listed version is refused with both versions named.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "../execute/helpers.js";

const ID = "raw-mcp-ts-v1-1.13.0-stdio-2025-06-18-plain";

test("one release's environment is built from its lock, runs, is recorded, and is checked", { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-versions-"));
  const env = { WIRECOST_BUILD_ROOT: join(dir, "build") };
  const run = (results: string) =>
    execa(process.execPath, [cli, "run", "matrices/mcp-sdk-releases.yaml", "--only", ID, "--repeats", "1", "--results", join(dir, results)], {
      cwd: root,
      env,
      reject: false,
    });
  const first = await run("r1");
  assert.equal(first.exitCode, 0, first.stderr);
  assert.match(first.stderr, /building target mcp-ts-v1@1\.13\.0 \(not built yet\)/);
  const built = join(dir, "build", "mcp-ts-v1@1.13.0");
  const pkg = JSON.parse(readFileSync(join(built, "node_modules", "@modelcontextprotocol", "sdk", "package.json"), "utf8")) as { version: string };
  assert.equal(pkg.version, "1.13.0");
  assert.deepEqual(
    tsv(join(dir, "r1", "runs.tsv")).map((r) => [r.config, r.status]),
    [[ID, "ok"]],
  );
  const prov = JSON.parse(readFileSync(join(dir, "r1", "provenance.json"), "utf8")) as {
    builds?: Record<string, { ecosystem?: string; packages?: Record<string, string> }>;
  };
  assert.equal(prov.builds?.["mcp-ts-v1@1.13.0"]?.ecosystem, "npm");
  assert.equal(prov.builds?.["mcp-ts-v1@1.13.0"]?.packages?.["@modelcontextprotocol/sdk"], "1.13.0");
  // The server answered with the release's own bytes: 1.13.0's tools/list carries additionalProperties (gone in 1.23.0).
  const log = readFileSync(join(dir, "r1", "logs", ID, "1.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { dir: string; b64?: string })
    .filter((r) => r.dir === "s2c" && r.b64)
    .map((r) => Buffer.from(r.b64!, "base64").toString("utf8"))
    .join("");
  assert.match(log, /"additionalProperties":false/);

  // A build whose resolved set says another version is refused before anything runs.
  const record = join(built, "wirecost-build.json");
  const rec = JSON.parse(readFileSync(record, "utf8")) as { resolved: { packages: Record<string, string> } };
  rec.resolved.packages["@modelcontextprotocol/sdk"] = "1.15.0";
  writeFileSync(record, JSON.stringify(rec));
  const refused = await run("r2");
  assert.equal(refused.exitCode, 1);
  assert.match(refused.stderr, /target mcp-ts-v1@1\.13\.0 needs @modelcontextprotocol\/sdk 1\.13\.0 but its build resolved 1\.15\.0/);
});
