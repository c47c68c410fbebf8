/**
 * The report rendered from results the REAL runner produced (`test/fixtures/results-wire`, made by
 * `node dist/bin/wirecost.js run --repeats 2 --results test/fixtures/results-wire --only …`, see
 * its provenance.json): golden copies of the report page and one configuration page (so the
 * exchange, coverage and trace sections are pinned), and the check that every number on the
 * report page traces to a results cell or a computation over them (rule in ./numbers.ts).
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { collapseReproduce } from "../../generators/html.js";
import { render } from "../../generators/render.js";
import { coincidingSeries } from "../../generators/sections/wire-charts.js";
import { messageRows, medianCells, tracedFigures, untracedNumbers } from "./numbers.js";
import { REPO_ROOT, htmlTables, parseFormatted, rowKeys, tempDir, textOf } from "./support.js";

const WIRE = join(REPO_ROOT, "test", "fixtures", "results-wire");
const GOLDEN_WIRE = join(REPO_ROOT, "test", "golden", "site-wire");
/** The configuration page pinned by a golden copy: HTTP, 2026-07-28, protocol headers and `_meta` in its trace. */
const CONFIG_PAGE = "config-raw-mcp-ts-v2-http-2026-07-28-plain";
const PINNED = ["mcp-on-the-wire.md", "mcp-on-the-wire.html", "mcp-on-the-wire-exchanges.md", `${CONFIG_PAGE}.md`, `${CONFIG_PAGE}.html`];

let rendered: Promise<string> | undefined;
/** Render the wire fixture once per test file; returns the site folder. */
function site(): Promise<string> {
  rendered ??= (async () => {
    const dir = tempDir("site-wire");
    await render({ results: WIRE, site: dir });
    return dir;
  })();
  return rendered;
}
const read = async (name: string): Promise<string> => readFileSync(join(await site(), name), "utf8");
/** Text a reader sees in an HTML page: the body without its script, tags removed and entities decoded. */
const bodyText = (html: string): string => textOf((/<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "").replace(/<script>[\s\S]*?<\/script>/g, ""));

describe("report from real runner results", () => {
  it("fixture holds what the runner writes: logs, per-message breakdowns, coverage, runs", () => {
    for (const f of ["summary.tsv", "medians.tsv", "runs.tsv", "coverage.tsv", "provenance.json"]) {
      assert.ok(existsSync(join(WIRE, f)), `${f} in the fixture`);
    }
    assert.ok(existsSync(join(WIRE, "logs", "raw-mcp-ts-v2-http-2025-11-25-plain", "1.jsonl")));
    assert.ok(existsSync(join(WIRE, "logs", "raw-mcp-ts-v2-http-2025-11-25-plain", "1.messages.tsv")));
  });

  it("matches the golden report page and configuration page (UPDATE_GOLDEN=1 rewrites them)", async () => {
    const dir = await site();
    if (process.env["UPDATE_GOLDEN"] === "1") mkdirSync(GOLDEN_WIRE, { recursive: true });
    for (const name of PINNED) {
      const actual = readFileSync(join(dir, name), "utf8");
      const golden = join(GOLDEN_WIRE, name);
      if (process.env["UPDATE_GOLDEN"] === "1") {
        writeFileSync(golden, actual);
        continue;
      }
      assert.ok(existsSync(golden), `${golden} is missing; run \`npm run test:update\` to create it`);
      assert.equal(actual, readFileSync(golden, "utf8"), `${name} differs from ${golden}; if intended, run \`npm run test:update\``);
    }
  });

  it("shows decoded exchanges, the trace and coverage drawn from the logs (on the exchanges page the report links)", async () => {
    assert.match(await read("mcp-on-the-wire.md"), /\]\(mcp-on-the-wire-exchanges\.md\)/);
    const md = await read("mcp-on-the-wire-exchanges.md");
    assert.match(md, /client → POST initialize\nserver → HTTP 200 OK, text\/event-stream: initialize result\n/);
    assert.match(
      md,
      /client → POST tools\/call \[MCP-Protocol-Version, Mcp-Method, Mcp-Name, _meta\]\nserver → HTTP 200 OK, application\/json: tools\/call result/,
    );
    assert.match(md, /client → tools\/list \[_meta\]\nserver → tools\/list result/);
    assert.match(md, /## Coverage\n\nEvery expanded cell of the matrix: \d+ measured, 0 failed, \d+ excluded, 0 not run\./);
    const page = await read(`${CONFIG_PAGE}.md`);
    assert.match(page, /## Trace\n\nRepeat 1, from `messages.tsv`/);
  });

  it("every number on the report page and its exchanges page traces to a results cell or a computation over them", async () => {
    const figures = tracedFigures(WIRE);
    for (const page of ["mcp-on-the-wire-exchanges", "mcp-on-the-wire"]) {
      assert.deepEqual(untracedNumbers(await read(`${page}.md`), figures), [], `${page} markdown`);
      assert.deepEqual(untracedNumbers(bodyText(await read(`${page}.html`)), figures), [], `${page} HTML text`);
    }
    const md = await read("mcp-on-the-wire.md");
    // The check sees numbers at all: the page has many, and a changed one is caught.
    const tokens = md.match(/[0-9]/g)?.length ?? 0;
    assert.ok(tokens > 500, `the page has numbers (${tokens} digits)`);
  });

  it("the same holds for the hand-made fixtures (seed numbers, hostile wire content)", async () => {
    for (const name of ["results-basic", "results-xss"]) {
      const results = join(REPO_ROOT, "test", "fixtures", name);
      const out = tempDir(`site-${name}`);
      await render({ results, site: out });
      const figures = tracedFigures(results);
      assert.deepEqual(untracedNumbers(readFileSync(join(out, "mcp-on-the-wire.md"), "utf8"), figures), [], `${name} markdown`);
      assert.deepEqual(untracedNumbers(bodyText(readFileSync(join(out, "mcp-on-the-wire.html"), "utf8")), figures), [], `${name} HTML`);
    }
  });

  it("the number check fails on a corrupted page: a measured total, a derived figure, a typed number, a status", async () => {
    const figures = tracedFigures(WIRE);
    const md = await read("mcp-on-the-wire.md");
    // A median total in the HTTP table, off by one.
    // Total bytes is the first number after #, Flow, Revision, Target and Client.
    const h1 = /^\| \[H1\]\([^)]*\)(?: \| [^|\n]*){4} \| ([0-9,]+) \|/m.exec(md);
    assert.ok(h1?.[1]);
    const total = parseFormatted(h1[1]);
    const corruptTotal = md.replace(h1[0], h1[0].replace(`| ${h1[1]} |`, `| ${(total + 1).toLocaleString("en-US")} |`));
    assert.deepEqual(
      untracedNumbers(corruptTotal, figures).map((s) => s.split(" ")[0]),
      [String(total + 1)],
    );
    // The crossover point, one hundredth off.
    const meet = /\| ([0-9]+\.[0-9]{2}) \| -?[0-9,]+ \|$/m.exec(md);
    assert.ok(meet?.[1], "the page prints a crossover point");
    const bumped = (Number(meet[1]) + 0.01).toFixed(2);
    assert.deepEqual(
      untracedNumbers(md.replace(meet[0], meet[0].replace(meet[1], bumped)), figures).map((s) => s.split(" ")[0]),
      [bumped],
    );
    // A number typed into prose, and a status code no response carried.
    assert.equal(untracedNumbers(`${md}\nAbout 4,321 bytes were saved.\n`, figures).length, 1);
    assert.equal(untracedNumbers(`${md}\nserver → HTTP 418 I'm a teapot\n`, figures).length, 1);
  });

  it("opens with the answer: a headline of at most 12 rows whose cells are medians and differences of medians.tsv", async () => {
    const html = await read("mcp-on-the-wire.html");
    const keys = rowKeys(html);
    const medians = medianCells(WIRE);
    const first = htmlTables(html)[0];
    assert.ok(first !== undefined && first.headers[0] === "Flow" && first.headers[1] === "Revision", "the first table is the headline");
    assert.ok(first.rows.length > 0 && first.rows.length <= 12, `headline rows: ${first.rows.length}`);
    let checked = 0;
    for (const row of first.rows) {
      for (const cell of row.slice(2)) {
        const m = /^([0-9,]+)(?: \(([+-]?[0-9,]+)\))? \[(H[0-9]+)\]$/.exec(cell);
        if (m === null) {
          assert.equal(cell, "—", `headline cell ${cell}`);
          continue;
        }
        const config = keys.get(m[3] ?? "") ?? "";
        assert.equal(parseFormatted(m[1] ?? ""), medians.get(config)?.get("total_bytes"), `headline total of ${config}`);
        if (m[2] !== undefined) {
          const above: string[] | undefined = first.rows[first.rows.indexOf(row) - 1];
          assert.equal(above?.[0], row[0], "a difference is to the row above, same flow");
          const previous: string = config.replace(row[1] ?? "", above?.[1] ?? "");
          const expected: number = (medians.get(config)?.get("total_bytes") ?? 0) - (medians.get(previous)?.get("total_bytes") ?? 0);
          assert.equal(Number(m[2].replace(/,/g, "")), expected, `difference of ${config} to ${previous}`);
        }
        checked++;
      }
    }
    assert.ok(checked >= 4, "headline cells checked");
    const md = await read("mcp-on-the-wire.md");
    const meets = [...md.matchAll(/up to ([0-9.]+) calls per session/g)].map((x) => x[1] ?? "");
    assert.ok(meets.length > 0, "a crossover finding");
    for (const at of meets) assert.ok(tracedFigures(WIRE).all.has(at), `crossover ${at} recomputed from medians.tsv`);
  });

  it("the answer covers both transports: a stdio table beside the HTTP one, findings for each, fitted figures named by revision", async () => {
    const md = await read("mcp-on-the-wire.md");
    const answer = md.slice(md.indexOf("## The answer"), md.indexOf("## What the figures mean"));
    assert.ok(answer.includes("### Over HTTP") && answer.includes("### Over stdio"), "one table per transport");
    const html = await read("mcp-on-the-wire.html");
    const [httpTable, stdioTable] = htmlTables(html);
    assert.ok(stdioTable !== undefined && stdioTable.rows.length <= 12 && stdioTable.rows.some((r) => r.slice(2).some((c) => / \[S[0-9]+\]$/.test(c))));
    assert.ok(httpTable?.rows.every((r) => r.slice(2).every((c) => c === "—" || / \[H[0-9]+\]$/.test(c))));
    // Each row key in the answer links to its configuration page, as in the full tables.
    const keys = rowKeys(html);
    const linked = [...html.slice(0, html.indexOf("<h2>What the figures mean")).matchAll(/\[<a href="([^"]+)\.html">([HS][0-9]+)<\/a>\]/g)];
    assert.ok(linked.length > 0, "linked keys in the answer");
    for (const [, href, key] of linked) assert.equal(href, `config-${keys.get(key ?? "")}`, `${key} links to its configuration page`);
    // Each flow's sentence says how the revisions compare over both transports.
    assert.match(answer, /^- Flow `plain`, [0-9-]+ against [0-9-]+: over HTTP .* over stdio /m);
    // Every fitted figure in a crossover sentence is preceded by the revision it belongs to.
    const sentences = [...answer.matchAll(/^- With (.*) over (http|stdio), ([0-9-]+) is .* than ([0-9-]+) .*\((.*)\)\.$/gm)];
    assert.ok(sentences.length > 0, "crossover sentences");
    for (const [, , , newer, older, basis = ""] of sentences) {
      assert.match(
        basis,
        new RegExp(`^${newer}: [0-9,.]+ bytes per session \\+ [0-9,.]+ per added call; ${older}: [0-9,.]+ bytes per session \\+ [0-9,.]+ per added call$`),
      );
    }
    // The settings shared by every row are named, not left as "the main grid's options".
    assert.match(answer, /Every row has the same settings:\sclient `raw`/);
    assert.ok(!answer.includes("main\ngrid") && !answer.includes("main grid"));
  });

  it("the answer's legend names each server's installed version (provenance packages) when its label does not", async () => {
    const results = join(tempDir("wire-versions"), "results");
    cpSync(WIRE, results, { recursive: true });
    const file = join(results, "provenance.json");
    const provenance = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown> & { packages: Record<string, string> };
    provenance["targets"] = { "mcp-ts-v2": { label: "MCP TypeScript SDK v2 (@modelcontextprotocol/server)", package: "@modelcontextprotocol/server" } };
    writeFileSync(file, JSON.stringify(provenance));
    const site = tempDir("wire-versions-site");
    await render({ results, site });
    const md = readFileSync(join(site, "mcp-on-the-wire.md"), "utf8");
    const version = provenance.packages["@modelcontextprotocol/server"];
    assert.ok(version);
    assert.ok(md.includes(`Servers: mcp-ts-v2: MCP TypeScript SDK v2 (@modelcontextprotocol/server ${version}).`), "the version in the legend");
  });

  it("the HTML folds each Reproduce section into <details> (up to the next heading of its level); the markdown keeps it open", async () => {
    assert.equal(
      collapseReproduce("<h2>A</h2>\n<p>a</p>\n<h3>Reproduce the rows</h3>\n<ul><li>x</li></ul>\n<h4>sub</h4>\n<p>y</p>\n<h2>B</h2>\n"),
      '<h2>A</h2>\n<p>a</p>\n<details class="reproduce"><summary><h3>Reproduce the rows</h3></summary>\n<ul><li>x</li></ul>\n<h4>sub</h4>\n<p>y</p>\n</details>\n<h2>B</h2>\n',
    );
    assert.equal(
      collapseReproduce("<h2>Reproduce</h2>\n<p>z</p>\n"),
      '<details class="reproduce"><summary><h2>Reproduce</h2></summary>\n<p>z</p>\n</details>\n',
    );
    const html = await read("mcp-on-the-wire.html");
    const md = await read("mcp-on-the-wire.md");
    assert.ok(md.includes("### Reproduce the HTTP rows"));
    assert.ok(html.includes('<details class="reproduce"><summary><h3>Reproduce the HTTP rows</h3></summary>'));
    assert.equal((html.match(/<details /g) ?? []).length, (html.match(/<\/details>/g) ?? []).length);
  });

  it("a chart says which of its series coincide, from the plotted values", async () => {
    const pt = (panel: string, series: string, x: number, value: number) => ({ panel, series, x, value });
    assert.equal(
      coincidingSeries([pt("a", "r1", 1, 10), pt("a", "r1", 10, 50), pt("a", "r2", 1, 10), pt("a", "r2", 10, 50), pt("a", "r3", 1, 9), pt("a", "r3", 10, 50)]),
      "r1 and r2 coincide (the later drawn over the earlier)",
    );
    assert.equal(
      coincidingSeries([pt("a", "r1", 1, 10), pt("a", "r2", 1, 10), pt("a", "r2", 2, 12), pt("b", "r1", 1, 10), pt("b", "r2", 1, 10)]),
      "r1 and r2 coincide where both are drawn (the later drawn over the earlier) in a; r1 and r2 coincide (the later drawn over the earlier) in b",
    );
    assert.equal(
      coincidingSeries([pt("a", "r1", 1, 10), pt("a", "r2", 1, 10), pt("b", "r1", 1, 10), pt("b", "r2", 1, 11)]),
      "r1 and r2 coincide (the later drawn over the earlier) in a",
    );
    assert.equal(coincidingSeries([pt("a", "r1", 1, 10), pt("a", "r2", 1, 11)]), "");
    // On the page: the crossover's note matches its data file.
    const dir = await site();
    const md = await read("mcp-on-the-wire.md");
    const measured = readFileSync(join(dir, "mcp-on-the-wire-crossover.tsv"), "utf8")
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t"))
      .filter((r) => r[4] === "measured")
      .map(([panel = "", series = "", x = "", value = ""]) => ({ panel, series, x: Number(x), value: Number(value) }));
    const note = coincidingSeries(measured);
    if (note === "") assert.doesNotMatch(md, /Lines hidden under others/);
    else assert.ok(md.includes(`Lines hidden under others: ${note}.`), note);
  });

  it("charts plot traced figures: their data files hold medians of medians.tsv and the fitted lines recomputed", async () => {
    const dir = await site();
    const medians = medianCells(WIRE);
    const figures = tracedFigures(WIRE);
    const rows = (name: string): string[][] =>
      readFileSync(join(dir, name), "utf8")
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((l) => l.split("\t"));
    const md = await read("mcp-on-the-wire.md");
    for (const file of ["mcp-on-the-wire-crossover", "mcp-on-the-wire-http-layers", "mcp-on-the-wire-request-state"]) {
      assert.ok(md.includes(`](${file}.svg)`) && md.includes(`](${file}.tsv)`), `${file}: the page shows the chart and links its data`);
      assert.match(readFileSync(join(dir, `${file}.svg`), "utf8"), /^<svg /);
    }
    // The full tables' data files are the results files, copied and linked.
    for (const [copy, original] of [
      ["mcp-on-the-wire-medians.tsv", "medians.tsv"],
      ["mcp-on-the-wire-summary.tsv", "summary.tsv"],
    ] as const) {
      assert.equal(readFileSync(join(dir, copy), "utf8"), readFileSync(join(WIRE, original), "utf8"), `${copy} is ${original}`);
      assert.ok(md.includes(`](${copy})`), `the page links ${copy}`);
    }
    const crossover = rows("mcp-on-the-wire-crossover.tsv");
    assert.ok(crossover.some((r) => r[4] === "fitted") && crossover.some((r) => r[4] === "measured"));
    for (const [, , calls = "", bytes = "", kind, config = ""] of crossover) {
      if (kind === "measured") assert.equal(Number(bytes), medians.get(config)?.get("total_bytes"), `measured point of ${config}`);
      else {
        const expected = Number(figures.named.get(`fixed:${config}`)) + Number(figures.named.get(`marginal:${config}`)) * Number(calls);
        assert.ok(Math.abs(Number(bytes) - expected) <= 0.05 * (1 + Number(calls)), `fitted point of ${config} at ${calls} calls: ${bytes} vs ${expected}`);
      }
    }
    const metric: Record<string, string> = {
      "Request head": "request_head_bytes",
      "Request body": "request_body_bytes",
      "Response head": "response_head_bytes",
      "Response body": "response_body_bytes",
      "Chunk bytes": "chunk_framing_bytes",
    };
    const layers = rows("mcp-on-the-wire-http-layers.tsv");
    assert.ok(layers.length > 0);
    for (const [, , , layer = "", bytes = "", config = ""] of layers) {
      assert.equal(Number(bytes), medians.get(config)?.get(metric[layer] ?? ""), `${layer} of ${config}`);
    }
    // The request-state chart: every point is a state-flow row's median total bytes at its state size.
    const state = rows("mcp-on-the-wire-request-state.tsv");
    assert.ok(state.length > 1, "request-state points");
    for (const [, revision = "", stateBytes = "", bytes = "", config = ""] of state) {
      assert.equal(Number(bytes), medians.get(config)?.get("total_bytes"), `request-state point of ${config}`);
      assert.ok(
        config.includes(revision) && (stateBytes === "0" || config.includes(`-s${stateBytes}`)),
        `${config} at state ${stateBytes}, revision ${revision}`,
      );
    }
  });

  it("prints framing shares and the crossover recomputed from medians.tsv, in place", async () => {
    const html = await read("mcp-on-the-wire.html");
    const keys = rowKeys(html);
    const figures = tracedFigures(WIRE);
    const tables = htmlTables(html);
    const framing = tables.find((t) => t.headers.includes("Framing share [%]"));
    assert.ok(framing && framing.rows.length > 0, "framing table");
    for (const row of framing.rows) {
      const config = keys.get(row[0] ?? "") ?? "";
      assert.equal(row[2]?.replace(/,/g, ""), figures.named.get(`framing:${config}`), `framing bytes of ${config}`);
      assert.equal(row[4], figures.named.get(`share:${config}`), `framing share of ${config}`);
    }
    const lines = tables.filter((t) => t.headers.includes("Marginal bytes per added call"));
    assert.equal(lines.length, 2, "one crossover table per transport");
    for (const t of lines) {
      for (const row of t.rows) {
        const one = keys.get((row[2] ?? "").split(", ")[0] ?? "") ?? "";
        assert.equal(row[6]?.replace(/,/g, ""), figures.named.get(`fixed:${one}`), `fixed bytes from ${one}`);
        assert.equal(row[7]?.replace(/,/g, ""), figures.named.get(`marginal:${one}`), `marginal bytes from ${one}`);
      }
    }
  });

  it("a configuration page says which values of each axis its target ran (from summary.tsv), 'only this one' when one", async () => {
    const [head = "", ...lines] = readFileSync(join(WIRE, "summary.tsv"), "utf8").trimEnd().split("\n");
    const cols = head.split("\t");
    const rows = lines.map((l) => l.split("\t"));
    const config = "raw-mcp-ts-v2-http-2026-07-28-plain";
    const mine = rows.find((r) => r[0] === config) ?? [];
    const target = mine[cols.indexOf("target")];
    const html = await read(`${CONFIG_PAGE}.html`);
    const axes = htmlTables(html).find((t) => t.headers[0] === "Axis");
    assert.ok(axes !== undefined && axes.headers[2] === "Values this target ran");
    for (const [axis = "", , ran = ""] of axes.rows) {
      const i = cols.indexOf(axis);
      const values = [...new Set(rows.filter((r) => r[cols.indexOf("target")] === target).map((r) => r[i] ?? ""))];
      if (values.length <= 1) assert.equal(ran, "only this one", axis);
      else assert.deepEqual(ran.split(", ").sort(), values.sort(), axis);
    }
  });

  it("a configuration page draws its exchanges: one arrow per exchange line, labelled with its bytes per layer", async () => {
    const page = await read(`${CONFIG_PAGE}.md`);
    assert.ok(page.includes(`](${CONFIG_PAGE}-sequence.svg)`), "the page shows its sequence diagram");
    const svg = await read(`${CONFIG_PAGE}-sequence.svg`);
    const lines = (/```text\n([\s\S]*?)```/.exec(page)?.[1] ?? "").trimEnd().split("\n");
    assert.ok(lines.length > 0);
    assert.equal((svg.match(/marker-end="url\(#arrow\)"/g) ?? []).length, lines.length, "one arrow per exchange line");
    const rows = messageRows(WIRE, "raw-mcp-ts-v2-http-2026-07-28-plain") ?? [];
    const labels = [...svg.matchAll(/>([^<]*) bytes<\/text>/g)].map((m) => m[1] ?? "");
    // A body's split (SSE event fields + JSON-RPC) adds up to the body, and is not counted twice.
    const num = (x: string): number => Number(x.replace(/,/g, ""));
    // The 2025-11-25 session answers in SSE events.
    const sseSvg = await read("config-raw-mcp-ts-v2-http-2025-11-25-plain-sequence.svg");
    const sseLabels = [...sseSvg.matchAll(/>([^<]*) bytes<\/text>/g)].map((m) => m[1] ?? "");
    const splits = [...labels, ...sseLabels].flatMap((l) => [...l.matchAll(/body ([0-9,]+) \(SSE event fields ([0-9,]+) \+ JSON-RPC ([0-9,]+)\)/g)]);
    assert.ok(splits.length > 0, "SSE bodies say what their extra bytes are");
    for (const [, body = "", sse = "", rpc = ""] of splits) assert.equal(num(sse) + num(rpc), num(body));
    const drawn = labels.flatMap((l) => [...l.replace(/\([^)]*\)/g, "").matchAll(/[0-9][0-9,]*/g)].map((n) => num(n[0])));
    const total = rows.reduce(
      (sum, r) => sum + ["head_bytes", "body_bytes", "framing_bytes", "newline_bytes"].reduce((s2, k) => s2 + Number(r.get(k) ?? 0), 0),
      0,
    );
    assert.equal(
      drawn.reduce((a, b) => a + b, 0),
      total,
      "the arrows' bytes add up to the traced repeat's bytes",
    );
  });

  it("trace tables sum the per-message rows of messages.tsv", async () => {
    const keys = rowKeys(await read("mcp-on-the-wire.html"));
    const html = await read("mcp-on-the-wire-exchanges.html");
    const traces = htmlTables(html).filter((t) => t.headers.includes("All bytes"));
    const keyed = [...html.matchAll(/<h3><a href="[^"]*">([HS][0-9]+)<\/a>:/g)].map((m) => m[1] ?? "");
    assert.equal(traces.length, keyed.length, "one trace table per decoded exchange");
    traces.forEach((t, i) => {
      const config = keys.get(keyed[i] ?? "") ?? "";
      const rows = messageRows(WIRE, config);
      assert.ok(rows, `${config} has messages.tsv`);
      assert.equal(t.rows.length, rows.length + 1, `${config}: one row per message and a total`);
      const last = t.rows.at(-1) ?? [];
      const medianTotal = medianCells(WIRE).get(config)?.get("total_bytes");
      assert.equal(parseFormatted(last.at(-1) ?? ""), medianTotal, `${config}: the traced repeat's bytes equal the median total (repeats are count-identical)`);
      // One `_meta` definition: the trace's total is the count's meta_bytes (client → server only).
      const metaAt = t.headers.indexOf("_meta bytes C→S");
      if (metaAt >= 0)
        assert.equal(parseFormatted(last[metaAt] ?? ""), medianCells(WIRE).get(config)?.get("meta_bytes"), `${config}: trace _meta total = meta_bytes`);
    });
  });

  it("uses the target's label when provenance carries targets.<name>.label", async () => {
    const results = join(tempDir("labelled"), "results");
    cpSync(WIRE, results, { recursive: true });
    const file = join(results, "provenance.json");
    const prov = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    prov["targets"] = { "mcp-ts-v2": { label: "MCP TypeScript SDK v2 (@modelcontextprotocol/server)" } };
    writeFileSync(file, JSON.stringify(prov));
    const out = tempDir("site-labelled");
    await render({ results, site: out });
    const md = readFileSync(join(out, "mcp-on-the-wire.md"), "utf8");
    assert.match(md, /\| plain \| 2025-11-25 \| MCP TypeScript SDK v2 \(@modelcontextprotocol\/server\) \| raw \|/);
    assert.match(
      readFileSync(join(out, "mcp-on-the-wire-exchanges.md"), "utf8"),
      /### \[H1\]\([^)]*\): MCP TypeScript SDK v2 \(@modelcontextprotocol\/server\), client raw, http, 2025-11-25, state 0, args 5, catalog 3 /,
    );
    // Without the key (as the runner writes provenance today) the axis value stays.
    assert.match(await read("mcp-on-the-wire.md"), /\| plain \| 2025-11-25 \| mcp-ts-v2 \| raw \|/);
  });
});
