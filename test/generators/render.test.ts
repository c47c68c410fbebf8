/** render(): numbers match medians.tsv, output is deterministic and matches the golden copies. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { render } from "../../generators/render.js";
import { FIXTURE, GOLDEN, fixtureCopy, htmlTables, parseFormatted, readMedianCells, rowKeys, tempDir, type HtmlTable } from "./support.js";

/** Table header → metric in medians.tsv, written out here independently of the page code. */
const HEADER_METRIC: Record<string, string> = {
  "HTTP round trips": "http_round_trips",
  "Request head": "request_head_bytes",
  "Request body": "request_body_bytes",
  "Response head": "response_head_bytes",
  "Response body": "response_body_bytes",
  "Chunk bytes": "chunk_framing_bytes",
  "SSE events": "sse_events",
  "_meta bytes": "meta_bytes",
  "Newline bytes": "newline_bytes",
  "Total bytes": "total_bytes",
};
const TEXT_HEADERS = new Set(["#", "Flow", "Revision", "Target", "Client"]);

async function renderFixture(): Promise<{ site: string; md: string; html: string }> {
  const site = tempDir("site");
  await render({ results: FIXTURE, site });
  return {
    site,
    md: readFileSync(join(site, "mcp-on-the-wire.md"), "utf8"),
    html: readFileSync(join(site, "mcp-on-the-wire.html"), "utf8"),
  };
}

/** Check every numeric cell of `table` against medians.tsv; returns the configurations seen. */
function checkTable(table: HtmlTable, keys: Map<string, string>, medians: Map<string, Map<string, number>>): string[] {
  const seen: string[] = [];
  for (const row of table.rows) {
    assert.equal(row.length, table.headers.length, `row ${row.join(" | ")} has one cell per header`);
    const config = keys.get(row[0] ?? "");
    assert.ok(config !== undefined, `row key ${row[0]} has a reproduce entry`);
    const metrics = medians.get(config);
    assert.ok(metrics, `${config} is in medians.tsv`);
    seen.push(config);
    table.headers.forEach((header, i) => {
      const cell = row[i] ?? "";
      if (TEXT_HEADERS.has(header)) return;
      if (header === "JSON-RPC C→S / S→C") {
        const [c2s, s2c] = cell.split(" / ");
        assert.equal(parseFormatted(c2s ?? ""), metrics.get("jsonrpc_c2s"), `${config} jsonrpc_c2s`);
        assert.equal(parseFormatted(s2c ?? ""), metrics.get("jsonrpc_s2c"), `${config} jsonrpc_s2c`);
        return;
      }
      const metric = HEADER_METRIC[header];
      assert.ok(metric !== undefined, `unexpected header ${header}`);
      assert.equal(parseFormatted(cell), metrics.get(metric), `${config} ${metric}`);
    });
  }
  return seen;
}

describe("render", () => {
  it("writes the report and the index, as markdown and HTML", async () => {
    const site = tempDir("site");
    const report = await render({ results: FIXTURE, site });
    assert.equal(report.site, site);
    for (const f of ["index.html", "index.md", "mcp-on-the-wire.html", "mcp-on-the-wire.md", "mcp-on-the-wire-http-layers.svg"]) {
      assert.ok(report.files.includes(f), `writes ${f}`);
    }
    for (const config of readMedianCells(FIXTURE).keys()) {
      assert.ok(report.files.includes(`config-${config}.html`) && report.files.includes(`config-${config}.md`), `page for ${config}`);
    }
    assert.deepEqual(
      readdirSync(site)
        .filter((f) => f !== ".wirecost-site.json")
        .sort(),
      report.files,
      "the pages, and beside them only the manifest",
    );
    assert.deepEqual([report.removed, report.kept], [[], []], "nothing to remove in a new site folder");
    const index = readFileSync(join(site, "index.html"), "utf8");
    assert.match(index, /<a href="mcp-on-the-wire\.html">MCP on the wire<\/a>/);
    assert.match(readFileSync(join(site, "index.md"), "utf8"), /\[MCP on the wire\]\(mcp-on-the-wire\.md\)/);
  });

  it("puts the median of medians.tsv in every number cell of the HTTP and stdio tables", async () => {
    const { html } = await renderFixture();
    const medians = readMedianCells(FIXTURE);
    const keys = rowKeys(html);
    const tables = htmlTables(html);
    const http = tables.filter((t) => t.headers.includes("Response head"));
    const stdio = tables.filter((t) => t.headers.includes("Newline bytes"));
    assert.equal(http.length, 1);
    assert.equal(stdio.length, 1);
    const [httpTable, stdioTable] = [http[0], stdio[0]];
    assert.ok(httpTable && stdioTable);
    // Key columns first: the totals show without scrolling.
    assert.deepEqual(httpTable.headers, [
      "#",
      "Flow",
      "Revision",
      "Target",
      "Client",
      "Total bytes",
      "_meta bytes",
      "JSON-RPC C→S / S→C",
      "HTTP round trips",
      "Request head",
      "Request body",
      "Response head",
      "Response body",
      "Chunk bytes",
      "SSE events",
    ]);
    assert.deepEqual(stdioTable.headers, ["#", "Flow", "Revision", "Target", "Client", "Total bytes", "_meta bytes", "JSON-RPC C→S / S→C", "Newline bytes"]);
    const httpConfigs = checkTable(httpTable, keys, medians);
    const stdioConfigs = checkTable(stdioTable, keys, medians);
    // Rows sorted by flow, then revision (target and client are equal in the fixture).
    assert.deepEqual(httpConfigs, [
      "raw-python-sdk-http-2025-11-25-input",
      "raw-python-sdk-http-2026-07-28-input",
      "raw-python-sdk-http-2025-11-25-plain",
      "raw-python-sdk-http-2026-07-28-plain",
    ]);
    assert.deepEqual(
      stdioConfigs,
      httpConfigs.map((c) => c.replace("-http-", "-stdio-")),
    );
    // The seed's published totals, as the reader sees them.
    assert.deepEqual(
      httpTable.rows.map((r) => r[httpTable.headers.indexOf("Total bytes")]),
      ["2,741", "1,950", "3,064", "2,065"],
    );
  });

  it("prints, per row, the reproduce command and its expected median total", async () => {
    const { md } = await renderFixture();
    const medians = readMedianCells(FIXTURE);
    for (const [config, metrics] of medians) {
      const command =
        `npx wirecost run --only ${config} --results /tmp/wirecost-${config} && ` + `grep -P '^${config}\\ttotal_bytes\\t' /tmp/wirecost-${config}/medians.tsv`;
      assert.ok(md.includes(`\`${command}\` — expect median \`${metrics.get("total_bytes")}\``), `command for ${config}`);
    }
    assert.match(
      md,
      /- \*\*H1\*\* `raw-python-sdk-http-2025-11-25-input`\n.*\n {2}- repeats: 19 of 20 repeats ok; counts identical: no; bytes identical: no \(varying: `date`, `mcp-session-id`\)\n/,
    );
  });

  it("names the matrix recorded in provenance.json in every reproduce command when it is not matrix.yaml", async () => {
    const results = fixtureCopy({ "provenance.json": (t) => t.replace('"file": "matrix.yaml"', '"file": "matrices/t-small.yaml"') });
    const site = tempDir("site");
    await render({ results, site });
    const md = readFileSync(join(site, "mcp-on-the-wire.md"), "utf8");
    const commands = [...md.matchAll(/reproduce: `([^`]*)`/g)].map((m) => m[1] ?? "");
    assert.equal(commands.length, readMedianCells(FIXTURE).size, "one command per configuration row");
    for (const c of commands) assert.match(c, /^npx wirecost run matrices\/t-small\.yaml --only /);
    assert.equal(new Set(commands.map((c) => c.split(" --results ")[1]?.split(" ")[0])).size, commands.length, "one scratch folder per row");
  });

  it("shows the environment from provenance.json", async () => {
    const { md } = await renderFixture();
    for (const line of [
      "| Tool | wirecost 0.1.0 |",
      "| Commit | f5ca5220000000000000000000000000000000aa |",
      "| Uncommitted changes | no (clean) |",
      "| Node | v20.20.2 |",
      "| OS | linux 6.8.0-fixture x64 |",
      "| CPU | Fixture CPU @ 3.00GHz, 16 cores |",
      "| Command | npx wirecost run matrix.yaml |",
      "| Started | 2026-09-30T05:14:00.000Z |",
      "| Ended | 2026-09-30T05:58:41.000Z |",
      "| @modelcontextprotocol/sdk | 1.32.2 |\n| @modelcontextprotocol/server | 2.4.0 |\n| mcp | 2.2.0 |",
    ]) {
      assert.ok(md.includes(line), `environment shows ${line}`);
    }
  });

  it("renders a median half-way between two counts (an even number of ok repeats that differ) as such, not a crash", async () => {
    const config = "raw-python-sdk-http-2025-11-25-input";
    let median = 0;
    const results = fixtureCopy({
      "medians.tsv": (text) =>
        text.replace(new RegExp(`^(${config}\ttotal_bytes\t\\d+\t)(\\d+)(\t\\d+)$`, "m"), (_, head: string, m: string, tail: string) => {
          median = Number(m) + 0.5;
          return `${head}${median}${tail}`;
        }),
    });
    assert.ok(median > 0, "the fixture's median edited");
    const site = tempDir("site-half");
    await render({ results, site });
    const page = readFileSync(join(site, "mcp-on-the-wire.md"), "utf8");
    const shown = `${Math.trunc(median).toLocaleString("en-US")}.5`;
    assert.ok(page.includes(shown), `the page shows ${shown}`);
  });

  it("writes a byte-identical site when run twice", async () => {
    const a = tempDir("site-a");
    const b = tempDir("site-b");
    const ra = await render({ results: FIXTURE, site: a });
    const rb = await render({ results: FIXTURE, site: b });
    assert.deepEqual(ra.files, rb.files);
    for (const name of ra.files) {
      assert.ok(readFileSync(join(a, name)).equals(readFileSync(join(b, name))), `${name} is byte-identical`);
    }
  });

  it("matches the golden copies (UPDATE_GOLDEN=1 rewrites them)", async () => {
    const site = tempDir("site");
    const report = await render({ results: FIXTURE, site });
    if (process.env["UPDATE_GOLDEN"] === "1") mkdirSync(GOLDEN, { recursive: true });
    for (const name of report.files) {
      const actual = readFileSync(join(site, name), "utf8");
      const golden = join(GOLDEN, name);
      if (process.env["UPDATE_GOLDEN"] === "1") {
        writeFileSync(golden, actual);
        continue;
      }
      assert.ok(existsSync(golden), `${golden} is missing; run \`npm run test:update\` to create it`);
      assert.equal(actual, readFileSync(golden, "utf8"), `${name} differs from ${golden}; if the change is intended, run \`npm run test:update\``);
    }
  });
});
