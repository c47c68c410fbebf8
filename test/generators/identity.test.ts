/**
 * A bytes report's identity comes from its matrix: a real run of
 * `test/fixtures/matrices/jsonrpc-echo.yaml` (`title: JSON-RPC echo on the wire`, a JSON-RPC
 * server that does not speak MCP, driven by the `jsonrpc` client) is put in a sub-folder of a
 * results folder whose root holds the real MCP results fixture (`test/fixtures/results-wire`,
 * written before reports were named). One render gives two reports: the JSON-RPC one under its
 * own title, slug and configuration page names, without MCP wording, and the MCP one exactly as
 * its golden copies.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { execa } from "execa";
import { render } from "../../generators/render.js";
import { cli } from "../paths.js";
import { REPO_ROOT, htmlTables, tempDir, textOf } from "./support.js";

const MATRIX = "test/fixtures/matrices/jsonrpc-echo.yaml";
const TITLE = "JSON-RPC echo on the wire";
const SLUG = "json-rpc-echo-on-the-wire";
const ECHO_IDS = ["jsonrpc-echo-http-plain", "jsonrpc-echo-http-ten", "jsonrpc-echo-stdio-plain", "jsonrpc-echo-stdio-ten"];
const GOLDEN_WIRE = join(REPO_ROOT, "test", "golden", "site-wire");

let results = "";
let site = "";
let files: string[] = [];
const read = (name: string): string => readFileSync(join(site, name), "utf8");
/** Text a reader sees in an HTML page: the body without its script, tags removed and entities decoded. */
const bodyText = (html: string): string => textOf((/<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "").replace(/<script>[\s\S]*?<\/script>/g, ""));

describe("a bytes report named by its matrix, beside the MCP report", () => {
  before(async () => {
    results = join(tempDir("identity"), "results");
    cpSync(join(REPO_ROOT, "test", "fixtures", "results-wire"), results, { recursive: true });
    const run = await execa(process.execPath, [cli, "run", MATRIX, "--results", join(results, "echo")], { cwd: REPO_ROOT, reject: false });
    assert.equal(run.exitCode, 0, run.stderr);
    site = tempDir("identity-site");
    files = (await render({ results, site })).files;
  });

  it("the runner records the matrix's title and slug and each client's protocol in provenance.json", () => {
    const prov = JSON.parse(readFileSync(join(results, "echo", "provenance.json"), "utf8")) as Record<string, unknown>;
    assert.deepEqual(prov["report"], { title: TITLE, slug: SLUG });
    assert.deepEqual(prov["clients"], { jsonrpc: { protocol: "jsonrpc" } });
    const runs = readFileSync(join(results, "echo", "runs.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1);
    assert.equal(runs.length, 8);
    assert.ok(
      runs.every((line) => line.split("\t")[2] === "ok"),
      "every echo run is ok",
    );
  });

  it("renders the JSON-RPC report under its title and slug, and the index lists both reports", () => {
    for (const f of [
      `${SLUG}.md`,
      `${SLUG}.html`,
      `${SLUG}-http-layers.svg`,
      "mcp-on-the-wire.md",
      "mcp-on-the-wire.html",
      "mcp-on-the-wire-http-layers.svg",
    ]) {
      assert.ok(files.includes(f), `${f} written`);
    }
    assert.ok(read(`${SLUG}.md`).startsWith(`# ${TITLE}\n`));
    assert.match(read(`${SLUG}.html`), /<title>JSON-RPC echo on the wire — wirecost<\/title>/);
    assert.match(read(`${SLUG}.md`), new RegExp(`!\\[[^\\]]*\\]\\(${SLUG}-http-layers\\.svg\\)`));
    const index = read("index.md");
    assert.match(index, /\| \[MCP on the wire\]\(mcp-on-the-wire\.md\) \| [^|]* MCP flow[^|]* \| \. \|/);
    assert.match(
      index,
      /\| \[JSON-RPC echo on the wire\]\(json-rpc-echo-on-the-wire\.md\) \| Median bytes, JSON-RPC messages and HTTP round trips of each flow of echo, over HTTP and stdio\. \| echo \|/,
    );
  });

  it("the JSON-RPC report and its configuration pages carry no MCP wording or MCP sections", () => {
    const pages = [
      `${SLUG}.md`,
      `${SLUG}.html`,
      `${SLUG}-exchanges.md`,
      `${SLUG}-exchanges.html`,
      ...ECHO_IDS.flatMap((id) => [`config-${SLUG}--${id}.md`, `config-${SLUG}--${id}.html`]),
    ];
    for (const page of pages) {
      const text = page.endsWith(".html") ? bodyText(read(page)) : read(page);
      for (const word of [/\bMCP\b/, /_meta/, /tools\/call/, /Revision/, /servers side by side/, /totals cross/, /Request state/]) {
        assert.doesNotMatch(text, word, `${page} says ${word}`);
      }
    }
    const tables = htmlTables(read(`${SLUG}.html`));
    const http = tables.find((t) => t.headers.includes("Response head"));
    const stdio = tables.find((t) => t.headers.includes("Newline bytes") && t.headers.includes("#"));
    assert.deepEqual(http?.headers, [
      "#",
      "Flow",
      "Target",
      "Client",
      "Total bytes",
      "JSON-RPC C→S / S→C",
      "HTTP round trips",
      "Request head",
      "Request body",
      "Response head",
      "Response body",
      "Chunk bytes",
      "SSE events",
    ]);
    assert.deepEqual(stdio?.headers, ["#", "Flow", "Target", "Client", "Total bytes", "JSON-RPC C→S / S→C", "Newline bytes"]);
    assert.deepEqual(
      http?.rows.map((r) => [...r.slice(1, 4), r[5]]),
      [
        ["plain", "JSON-RPC echo (test fixture)", "jsonrpc", "1 / 1"],
        ["ten", "JSON-RPC echo (test fixture)", "jsonrpc", "10 / 10"],
      ],
    );
    assert.match(read(`${SLUG}-exchanges.md`), /```text\nclient → POST echo\nserver → HTTP 200 OK, application\/json: echo result\n```/);
    assert.match(read(`${SLUG}-exchanges.md`), /```text\nclient → echo\nserver → echo result\n```/);
  });

  it("each report's configuration pages have names of their own and link back to their report", () => {
    for (const id of ECHO_IDS) {
      const stem = `config-${SLUG}--${id}`;
      assert.ok(files.includes(`${stem}.md`) && files.includes(`${stem}.html`), `${stem} written`);
      assert.ok(!files.includes(`config-${id}.md`), `no unprefixed page for ${id}`);
      assert.match(read(`${stem}.md`), new RegExp(`^# Configuration \`${id}\`\n\n\\[Back to the report\\]\\(${SLUG}\\.md\\)\n`));
      assert.ok(read(`${SLUG}.md`).includes(`](${stem}.md)`), `the report links ${stem}`);
    }
    assert.match(read("config-raw-mcp-ts-v2-http-2026-07-28-plain.md"), /\[Back to the report\]\(mcp-on-the-wire\.md\)/);
  });

  it("leaves the MCP report beside it as its golden copies (results without a recorded identity)", () => {
    for (const name of [
      "mcp-on-the-wire.md",
      "mcp-on-the-wire.html",
      "config-raw-mcp-ts-v2-http-2026-07-28-plain.md",
      "config-raw-mcp-ts-v2-http-2026-07-28-plain.html",
    ]) {
      assert.equal(read(name), readFileSync(join(GOLDEN_WIRE, name), "utf8"), `${name} differs from its golden copy`);
    }
  });

  it("two reports with the same configuration ids but other slugs write distinct pages", async () => {
    const both = join(tempDir("identity-again"), "results");
    cpSync(results, both, { recursive: true });
    const again = join(both, "echo-again");
    cpSync(join(results, "echo"), again, { recursive: true });
    const file = join(again, "provenance.json");
    const prov = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    prov["report"] = { title: "JSON-RPC echo, again", slug: "json-rpc-echo-again" };
    writeFileSync(file, JSON.stringify(prov));
    const out = tempDir("identity-again-site");
    const written = (await render({ results: both, site: out })).files;
    for (const id of ECHO_IDS) {
      assert.ok(written.includes(`config-${SLUG}--${id}.md`) && written.includes(`config-json-rpc-echo-again--${id}.md`), `both pages of ${id}`);
    }
    assert.ok(written.includes("json-rpc-echo-again.md") && written.includes(`${SLUG}.md`) && written.includes("mcp-on-the-wire.md"));
    assert.ok(readFileSync(join(out, "json-rpc-echo-again.md"), "utf8").startsWith("# JSON-RPC echo, again\n"));
  });

  it("refuses two bytes reports with one slug instead of overwriting a page", async () => {
    const twice = join(tempDir("identity-twice"), "results");
    cpSync(results, twice, { recursive: true });
    cpSync(join(results, "echo"), join(twice, "echo-copy"), { recursive: true });
    const out = tempDir("identity-twice-site");
    await assert.rejects(render({ results: twice, site: out }), /a second report writes json-rpc-echo-on-the-wire\.md/);
    assert.ok(!existsSync(join(out, "index.html")), "nothing written");
  });

  it("refuses a recorded slug that is not a slug, naming the key", async () => {
    const bad = join(tempDir("identity-bad"), "results");
    cpSync(join(results, "echo"), bad, { recursive: true });
    const file = join(bad, "provenance.json");
    const prov = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    prov["report"] = { title: TITLE, slug: "../escape" };
    writeFileSync(file, JSON.stringify(prov));
    const out = tempDir("identity-bad-site");
    await assert.rejects(render({ results: bad, site: out }), /provenance\.json \(report\.slug\): expected `report\.slug` to be a slug/);
    assert.ok(!existsSync(join(out, "index.html")), "nothing written");
  });
});
