/**
 * Identity of repeats over real runs of the committed matrix's HTTP configurations (targets as
 * users deploy them): summary.tsv's varying_fields names `date` (both eras), `mcp-session-id`
 * (2025-era, where the v2 target issues session ids), and nothing else: the runner keeps a
 * configuration's relay on one port across its repeats, so the Host header does not vary.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, root } from "../paths.js";

test("real runs: varying_fields names date and mcp-session-id (2025-11-25) and date (2026-07-28), nothing unexpected", () => {
  const results = join(mkdtempSync(join(tmpdir(), "identity-")), "results");
  execFileSync(
    process.execPath,
    [
      cli,
      "run",
      join(root, "matrix.yaml"),
      "--only",
      "raw-mcp-ts-v2-http-2025-11-25-plain",
      "--only",
      "raw-mcp-ts-v2-http-2026-07-28-plain",
      "--repeats",
      "3",
      "--results",
      results,
    ],
    { stdio: "pipe" },
  );
  const [head, ...lines] = readFileSync(join(results, "summary.tsv"), "utf8").trimEnd().split("\n");
  const cols = head!.split("\t");
  const rows = lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
  assert.equal(rows.length, 2);
  for (const r of rows) {
    assert.equal(r.repeats_ok, "3", `${r.config}: all repeats ok`);
    // The Date header has one-second resolution: repeats within one second agree on it.
    const fields = r.varying_fields ? r.varying_fields.split(",") : [];
    const allowed = r.revision === "2025-11-25" ? ["date", "mcp-session-id"] : ["date"];
    if (r.revision === "2025-11-25") assert.ok(fields.includes("mcp-session-id"), `${r.config}: names mcp-session-id (${r.varying_fields})`);
    for (const f of fields) assert.ok(allowed.includes(f), `${r.config}: unexpected varying field ${f}`);
    assert.equal(r.bytes_identical === "no", fields.length > 0, `${r.config}: bytes differ exactly when a field is named`);
  }
});
