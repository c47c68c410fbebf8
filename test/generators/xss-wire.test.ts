/**
 * Wire content cannot inject markup. `test/fixtures/results-xss` is hand-made: its messages.tsv
 * methods, ids and start lines, its capture logs' HTTP header names and values and JSON-RPC
 * bodies, an axis value, a coverage reason and its tool catalog (`tools.tsv`: a tool name and the
 * reason a configuration has none) hold `<script>`, `</table>`, `<img onerror>`, `|`, backticks,
 * quotes and markdown link syntax with `javascript:` targets.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { render } from "../../generators/render.js";
import { REPO_ROOT, htmlTables, tempDir, textOf } from "./support.js";

const XSS = join(REPO_ROOT, "test", "fixtures", "results-xss");
const PAGES = ["mcp-on-the-wire", "mcp-on-the-wire-exchanges", "config-raw-evil-http-2026-07-28-plain", "config-raw-evil-stdio-2026-07-28-plain"];

/** Split one markdown table line into cells on unescaped pipes outside code spans. */
function mdCells(line: string): string[] {
  const cells: string[] = [];
  let cur = "";
  let fence = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? "";
    if (c === "\\" && fence === 0) {
      cur += c + (line[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "`") {
      let n = 1;
      while (line[i + n] === "`") n++;
      if (fence === 0) fence = n;
      else if (fence === n) fence = 0;
      cur += "`".repeat(n);
      i += n - 1;
      continue;
    }
    if (c === "|" && fence === 0) {
      cells.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  cells.push(cur);
  return cells.slice(1, -1);
}

/** Markdown tables outside fenced code blocks: each as its lines (header, delimiter, body). */
function mdTables(md: string): string[][] {
  const tables: string[][] = [];
  let cur: string[] = [];
  let inFence = false;
  for (const line of md.split("\n")) {
    if (/^`{3,}/.test(line)) inFence = !inFence;
    if (!inFence && line.startsWith("|")) cur.push(line);
    else if (cur.length) {
      tables.push(cur);
      cur = [];
    }
  }
  if (cur.length) tables.push(cur);
  return tables;
}

async function renderXss(): Promise<string> {
  const site = tempDir("site-xss");
  await render({ results: XSS, site });
  return site;
}

describe("escaping of wire content", () => {
  it("the fixture really carries the hostile strings", () => {
    const messages = readFileSync(join(XSS, "logs", "raw-evil-http-2026-07-28-plain", "1.messages.tsv"), "utf8");
    for (const s of ["<script>alert(1)</script>", "</table>", "<img src=x onerror=", "|", "`", '"', "[a](javascript:alert(1))"]) {
      assert.ok(messages.includes(s), `messages.tsv holds ${s}`);
    }
    const log = readFileSync(join(XSS, "logs", "raw-evil-http-2026-07-28-plain", "1.jsonl"), "utf8");
    const bytes = log
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { b64?: string })
      .map((r) => Buffer.from(r.b64 ?? "", "base64").toString())
      .join("");
    assert.ok(bytes.includes("Mcp-</table><script>alert(1)</script>:"), "a header name holds markup");
    assert.ok(bytes.includes('Content-Type: text/html"><img src=x onerror=alert(3)>'), "a header value holds markup");
  });

  it("HTML pages hold no live tag from the wire and exactly the tables the markdown declares", async () => {
    const site = await renderXss();
    for (const page of PAGES) {
      const html = readFileSync(join(site, `${page}.html`), "utf8");
      const md = readFileSync(join(site, `${page}.md`), "utf8");
      // The one script is the layout's table enhancement, after </main>; nothing from the wire adds one.
      assert.equal((html.match(/<script/gi) ?? []).length, 1, `${page}: one <script, the layout's`);
      assert.ok(!/<script/i.test(html.slice(0, html.indexOf("</main>"))), `${page}: no <script in the page body`);
      assert.ok(
        !/<img(?![^>]*src="(?:mcp-on-the-wire-(?:http-layers|crossover)|config-[A-Za-z0-9._-]+-sequence)\.svg")/i.test(html),
        `${page}: no <img but the charts`,
      );
      assert.ok(!/\son[a-z]+=/i.test(html.replace(/&[a-z]+;|&#[0-9]+;/g, "").replace(/>[^<]*</g, "><")), `${page}: no event-handler attribute in a tag`);
      assert.ok(!/href="javascript:/i.test(html), `${page}: no javascript: link`);
      const expected = mdTables(md).length;
      assert.ok(expected >= 3, `${page} has tables`);
      assert.equal((html.match(/<table>/g) ?? []).length, expected, `${page}: one <table> per markdown table`);
      assert.equal((html.match(/<\/table>/g) ?? []).length, expected, `${page}: one </table> per markdown table`);
      // Every link on the page is a sibling page or a chart's data file.
      for (const m of html.matchAll(/<a href="([^"]*)"/g)) assert.match(m[1] ?? "", /^[A-Za-z0-9._-]+\.(?:html(#[^"]*)?|tsv)$/, `${page}: link ${m[1]}`);
      // The hostile text is shown, as text.
      assert.ok(textOf(html).includes("<script>alert(1)</script>"), `${page}: wire text visible as text`);
    }
  });

  it("the tool catalog section shows a hostile tool name and reason as text, in one cell", async () => {
    const site = await renderXss();
    const html = readFileSync(join(site, "mcp-on-the-wire.html"), "utf8");
    const catalog = htmlTables(html).find((t) => t.headers[0] === "Tool");
    assert.ok(catalog, "the catalog table");
    assert.deepEqual(
      catalog.rows.map((r) => r[0]),
      ["t<script>alert(1)</script>|`x`[a](javascript:alert(1))", "echo", "all 2 definitions"],
    );
    assert.deepEqual(catalog.rows[2]!.slice(1), ["200", "50 / 50"]);
    assert.ok(textOf(html).includes("the log holds no </table><script>alert(2)</script> answer"), "the reason, as text");
  });

  it("sequence diagrams show the hostile wire text escaped: no tag, no script", async () => {
    const site = await renderXss();
    for (const page of PAGES.filter((p) => p.startsWith("config-"))) {
      const svg = readFileSync(join(site, `${page}-sequence.svg`), "utf8");
      assert.ok(!/<script/i.test(svg) && !/<img/i.test(svg) && !/<\/table>/i.test(svg), `${page}: no live tag from the wire`);
      assert.ok(svg.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), `${page}: the wire text shown, escaped`);
    }
  });

  it("every table row keeps one cell per header, in markdown and in HTML", async () => {
    const site = await renderXss();
    for (const page of PAGES) {
      const md = readFileSync(join(site, `${page}.md`), "utf8");
      for (const table of mdTables(md)) {
        const width = mdCells(table[0] ?? "").length;
        for (const line of table) assert.equal(mdCells(line).length, width, `${page}: ${line}`);
      }
      for (const t of htmlTables(readFileSync(join(site, `${page}.html`), "utf8"))) {
        for (const row of t.rows) assert.equal(row.length, t.headers.length, `${page}: ${row.join(" ¦ ")}`);
      }
    }
  });

  it("shows the hostile method, id, start line and header names literally where they belong", async () => {
    const site = await renderXss();
    const html = readFileSync(join(site, "mcp-on-the-wire-exchanges.html"), "utf8");
    const method = "tools/call</table><script>alert(1)</script>|`x`\"'[a](javascript:alert(1))";
    const trace = htmlTables(html).find((t) => t.headers.includes("All bytes"));
    assert.ok(trace, "trace table");
    assert.equal(trace.rows[1]?.[4], method, "method cell");
    assert.equal(trace.rows[0]?.[3], 'POST /mcp?<script>alert(1)</script>|`x`"[a](javascript:alert(1)) HTTP/1.1', "start line cell");
    const exchange = textOf(/<pre><code class="language-text">([\s\S]*?)<\/code><\/pre>/.exec(html)?.[1] ?? "");
    assert.equal(
      exchange.split("\n")[0],
      `client → POST ${method} [Mcp-Method, Mcp-</table><script>alert(1)</script>, _meta]`,
      "exchange line with the header names",
    );
    assert.match(exchange, /^server → HTTP 200 <script>alert\(1\)<\/script>\|`\[x\]\(javascript:alert\(1\)\), text\/html"><img src=x onerror=alert\(3\)>: /m);
  });
});
