/**
 * changes.tsv along the version axis (runner/results/axis-changes.ts) on the releases report's
 * committed capture logs: consecutive releases of one target are paired in the axis' order (not
 * the ids' order), each pair's causes sum to its change, a release that changed nothing gives one
 * row without a cause, and releases of another target are never paired.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { versionChanges } from "../../runner/results/axis-changes.js";
import { readPlan, readRuns } from "../../runner/results/journal.js";
import type { Configuration } from "../../runner/matrix/types.js";

const DIR = join(import.meta.dirname, "..", "..", "..", "results", "mcp-sdk-releases");
const ORDER = ["1.9.9", "1.22.0", "1.23.0", "1.24.0", "1.31.0", "1.32.2", "2.0.0"];

const config = (target: string, version: string, transport: string, flow = "plain"): Configuration => ({
  id: `raw-${target}-${version}-${transport}-2025-06-18-${flow}`,
  values: { client: "raw", target, version, transport, revision: "2025-06-18", flow },
  repeats: 2,
});
const planned = new Map(readPlan(DIR)!.configurations.map((c) => [c.id, c.repeats]));
const okRuns = (id: string) => readRuns(DIR, id, planned.get(id) ?? 0).filter((r) => r.status === "ok" && r.counts);

test("consecutive releases are paired in the axis' order and their causes sum to the change", () => {
  const rows = versionChanges(
    DIR,
    [config("mcp-ts-v1", "1.24.0", "stdio"), config("mcp-ts-v1", "1.22.0", "stdio"), config("mcp-ts-v1", "1.23.0", "stdio")],
    ORDER,
    okRuns,
  );
  const pairs = [...new Set(rows.map((r) => `${r.from} → ${r.to}`))];
  assert.deepEqual(pairs, ["1.22.0 → 1.23.0", "1.23.0 → 1.24.0"]);
  const added = rows.find((r) => r.to === "1.24.0")!;
  assert.equal(added.kind, "json path");
  assert.equal(added.change, "added");
  assert.equal(added.method, "tools/list");
  assert.equal(added.name, "result.tools[*].execution");
  for (const to of ["1.23.0", "1.24.0"]) {
    const of = rows.filter((r) => r.to === to);
    assert.notEqual(of[0]!.deltaTotalBytes, 0);
    assert.equal(
      of.reduce((s, r) => s + r.bytes, 0),
      of[0]!.deltaTotalBytes,
      `causes of ${to} sum to its change`,
    );
    assert.equal(of[0]!.headTotalBytes - of[0]!.baseTotalBytes, of[0]!.deltaTotalBytes);
  }
});

test("a release that changed no byte gives one row without a cause; another target's releases are not paired", () => {
  const rows = versionChanges(
    DIR,
    [config("mcp-ts-v1", "1.31.0", "http"), config("mcp-ts-v1", "1.32.2", "http"), config("mcp-ts-v2", "2.0.0", "http")],
    ORDER,
    okRuns,
  );
  assert.equal(rows.length, 1);
  assert.deepEqual(
    { from: rows[0]!.from, to: rows[0]!.to, kind: rows[0]!.kind, bytes: rows[0]!.bytes, delta: rows[0]!.deltaTotalBytes },
    { from: "1.31.0", to: "1.32.2", kind: "", bytes: 0, delta: 0 },
  );
});

test("an HTTP framing change is named: chunked → content-length from 1.25.0 to 1.26.0", () => {
  const rows = versionChanges(DIR, [config("mcp-ts-v1", "1.25.0", "http"), config("mcp-ts-v1", "1.26.0", "http")], ["1.25.0", "1.26.0"], okRuns);
  assert.ok(rows.every((r) => r.kind === "framing" && r.name === "chunked → content-length"));
  assert.deepEqual(rows.map((r) => r.method).sort(), ["initialize", "tools/list"]);
  assert.equal(
    rows.reduce((s, r) => s + r.bytes, 0),
    rows[0]!.deltaTotalBytes,
  );
});
