/**
 * The releases section of a bytes report with a `version` axis (generators/sections/releases.ts):
 * read from the committed releases report's results (summary, medians, provenance) and a
 * changes.tsv written here with known rows: one part per SDK (target), each with one chart per flow
 * and transport, its releases in version order, each consecutive pair counted, changed pairs listed
 * with their causes, and the page saying so when no release changed a byte.
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { changesTsv, type ChangeRow } from "../../format/changes.js";
import { loadResults } from "../../generators/results/load.js";
import { releaseOrder, type ReleasesView, releasesView, type SdkReleasesView } from "../../generators/sections/releases.js";
import { mcpOnTheWire } from "../../generators/pages/mcp-on-the-wire.js";
import { REPO_ROOT, tempDir } from "./support.js";

const SOURCE = join(REPO_ROOT, "results", "mcp-sdk-releases");

/** A copy of the releases results without logs, with `rows` as its changes.tsv. */
function resultsWith(rows: ChangeRow[]): string {
  const dir = join(tempDir("releases"), "results");
  for (const f of ["summary.tsv", "medians.tsv", "provenance.json", "coverage.tsv", "runs.tsv"]) cpSync(join(SOURCE, f), join(dir, f));
  writeFileSync(join(dir, "changes.tsv"), changesTsv(rows));
  return dir;
}

const pair = (from: string, to: string, rest: string, base: number, head: number) => ({
  axis: "version",
  from,
  to,
  baseConfig: `raw-mcp-ts-v1-${from}-${rest}`,
  headConfig: `raw-mcp-ts-v1-${to}-${rest}`,
  baseTotalBytes: base,
  headTotalBytes: head,
  deltaTotalBytes: head - base,
});
/** The report page's markdown for the results in `dir`. */
async function page(dir: string): Promise<string> {
  const built = await mcpOnTheWire.build(loadResults(dir), { predictions: undefined, configPage: (c) => `config-${c}` });
  return typeof built === "string" ? built : built.markdown;
}
const none = { kind: "", change: "", dir: "", method: "", name: "", count: 0, bytes: 0 };

test("releases are ordered by version, numbers compared as numbers", () => {
  assert.deepEqual(releaseOrder(["1.13.0", "1.9.0", "2.0.0", "1.10.1", "1.13.0"]), ["1.9.0", "1.10.1", "1.13.0", "2.0.0"]);
});

/** The part of `view` for `target`. */
function sdk(view: ReleasesView, target: string): SdkReleasesView {
  const part = view.sdks.find((s) => s.target === `\`${target}\``);
  assert.ok(part, `a part for ${target}`);
  return part;
}

test("one part per SDK, each with its own releases", async () => {
  const out = await releasesView(loadResults(resultsWith([])), "mcp-sdk-releases");
  assert.ok(out);
  assert.deepEqual(
    out.view.sdks.map((s) => s.target),
    ["mcp-go", "mcp-py", "mcp-rust", "mcp-ts-v1", "mcp-ts-v2"].map((t) => `\`${t}\``),
  );
  const go = sdk(out.view, "mcp-go");
  assert.match(go.releases, /^`v1\.2\.0`, .*`v1\.8\.0`$/, "a target's own releases only");
  assert.doesNotMatch(go.releases, /`1\.13\.0`/);
});

test("a chart per flow and transport, each pair counted, a changed pair listed with its causes", async () => {
  const dir = resultsWith([
    { ...pair("1.22.0", "1.23.0", "stdio-2025-06-18-plain", 1255, 1255), ...none },
    {
      ...pair("1.23.0", "1.24.0", "stdio-2025-06-18-plain", 1255, 1375),
      kind: "json path",
      change: "added",
      dir: "s2c",
      method: "tools/list",
      name: "result.tools[*].execution",
      count: 3,
      bytes: 120,
    },
  ]);
  const out = await releasesView(loadResults(dir), "mcp-sdk-releases");
  assert.ok(out);
  const v1 = sdk(out.view, "mcp-ts-v1");
  assert.deepEqual(
    v1.charts.map((c) => c.file),
    ["plain-http", "plain-stdio", "ten-http", "ten-stdio"].map((s) => `mcp-sdk-releases-releases-mcp-ts-v1-${s}.svg`),
  );
  assert.equal(out.assets.length, 4 * out.view.sdks.length);
  const svg = out.assets.find((a) => a.file === v1.charts[0]!.file)!.content;
  assert.match(svg, /^<svg/);
  const at = (label: string) => svg.indexOf(`>${label}</text>`);
  assert.ok(at("1.13.0") >= 0 && at("1.13.0") < at("1.29.0") && at("1.29.0") < at("1.32.2"), "x axis in release order");
  assert.equal(at("2.4.0"), -1, "a part's chart has its own target's releases only");
  assert.match(v1.releases, /^`1\.13\.0`, `1\.15\.0`, .*`1\.32\.2`$/);
  assert.equal(out.view.compared, "2");
  assert.equal(out.view.changed, "1");
  assert.equal(v1.compared, "2");
  assert.equal(v1.changed, "1");
  assert.deepEqual(v1.pairs.rows[0], ["1.22.0 → 1.23.0", "1", "0", "0"]);
  assert.ok(v1.changes);
  const row = v1.changes.rows[0]!;
  assert.equal(row[0], "1.23.0 → 1.24.0");
  assert.equal(row[4], "1,255 → 1,375");
  assert.equal(row[5], "+120");
  assert.equal(row[6], "json path result.tools\\[\\*\\].execution added in tools/list ×3: +120 B");
  const md = await page(dir);
  assert.match(md, /## Across releases/);
  assert.match(md, /### MCP TypeScript SDK v1 \(@modelcontextprotocol\/sdk\)/);
  assert.match(md, /!\[[^\]]*\]\(mcp-sdk-releases-releases-mcp-ts-v1-plain-http\.svg\)/);
  assert.match(md, /1 of\n2 configuration pairs changed bytes/);
  assert.match(md, /#### `mcp-ts-v1`: what changed, and why/);
  // The answer is at the top, before the charts: each changed pair of releases with its Δ and causes, from changes.tsv.
  assert.deepEqual(v1.summary, [
    "**`mcp-ts-v1` 1.23.0 → 1.24.0**: +120 B total bytes in 1 of 1 configuration; json path `result.tools[*].execution` added in tools/list.",
    "`mcp-ts-v1`, no byte changed: 1.22.0 → 1.23.0.",
  ]);
  const top = md.indexOf(v1.summary[0]!);
  const part = md.indexOf("### MCP TypeScript SDK v1");
  assert.ok(
    part > 0 && top > part && top < md.indexOf("](mcp-sdk-releases-releases-mcp-ts-v1-") && top < md.indexOf("`mcp-ts-v1`: what changed, and why"),
    "the part's summary comes before its charts and tables",
  );
  assert.doesNotMatch(md, /^## The answer$/m, "the revision table of a releases page is not called the answer");
  // Lines under others are named; the value axis starts at zero.
  for (const c of out.view.sdks.flatMap((s) => s.charts)) if (c.coincide !== "") assert.ok(md.includes(`Lines hidden under others: ${c.coincide}.`), c.file);
  assert.ok(
    sdk(out.view, "mcp-ts-v2").charts.some((c) => /2025-06-18 and 2025-11-25 coincide/.test(c.coincide)),
    "the committed results have coinciding v2 revisions",
  );
  assert.match(svg, />0<\/text>/, "the value axis has a 0 tick");
});

test("when no release changed a byte, the section says so with the pairs compared", async () => {
  const dir = resultsWith([{ ...pair("1.22.0", "1.23.0", "stdio-2025-06-18-plain", 1342, 1342), ...none }]);
  const out = await releasesView(loadResults(dir), "mcp-sdk-releases");
  assert.ok(out);
  const v1 = sdk(out.view, "mcp-ts-v1");
  assert.equal(v1.changes, undefined);
  const md = await page(dir);
  assert.match(md, /No release changed any byte of any configuration of `mcp-ts-v1`/);
  assert.deepEqual(v1.summary, ["**`mcp-ts-v1` 1.22.0 → 1.23.0**: no release changed any byte (1 configuration pair)."]);
  assert.doesNotMatch(md, /what changed, and why/);
});

test("results without a version axis have no releases section", async () => {
  const dir = resultsWith([]);
  const summary = join(dir, "summary.tsv");
  writeFileSync(summary, readFileSync(summary, "utf8").replace(/\tversion\t/, "\trelease\t"));
  assert.equal(await releasesView(loadResults(dir), "x"), undefined);
});
