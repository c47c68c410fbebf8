/** Values from results files cannot inject markup: they render as text in both .md and .html. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { render } from "../../generators/render.js";
import { fixtureCopy, htmlTables, tempDir } from "./support.js";

const EVIL_TARGET = "<script>alert(1)</script>|x";
const CONFIG = "raw-python-sdk-http-2026-07-28-plain";

describe("escaping of results values", () => {
  it("escapes an axis value and backticked varying fields in markdown and HTML", async () => {
    const results = fixtureCopy({
      "summary.tsv": (t) =>
        t
          .split("\n")
          .map((line) => {
            const f = line.split("\t");
            if (f[0] !== CONFIG) return line;
            f[1] = EVIL_TARGET;
            f[9] = "no";
            f[10] = "x`y,`date`,<img src=x onerror=alert(2)>";
            return f.join("\t");
          })
          .join("\n"),
    });
    const site = tempDir("site");
    await render({ results, site });
    const md = readFileSync(join(site, "mcp-on-the-wire.md"), "utf8");
    const html = readFileSync(join(site, "mcp-on-the-wire.html"), "utf8");

    // Markdown: the cell is backslash-escaped, so it neither opens a tag nor splits the cell.
    assert.ok(md.includes("| \\<script\\>alert(1)\\</script\\>\\|x |"), "escaped cell in markdown");
    assert.ok(!md.includes("<script>"), "no raw <script> in markdown");
    assert.ok(md.includes("(varying: ``x`y``, `` `date` ``, `<img src=x onerror=alert(2)>`)"), "fields as code spans");

    // HTML: text only, no tag, and the row keeps one cell per header.
    assert.equal((html.match(/<script/gi) ?? []).length, 1, "one <script, the layout's");
    assert.ok(!/<script/i.test(html.slice(0, html.indexOf("</main>"))), "no <script in the page body");
    assert.ok(!/<img[^>]*onerror/i.test(html), "no injected <img in HTML");
    assert.deepEqual(
      [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1]),
      ["mcp-on-the-wire-http-layers.svg"],
      "only the chart image",
    );
    assert.ok(html.includes("<td>&lt;script&gt;alert(1)&lt;/script&gt;|x</td>"), "escaped cell in HTML");
    assert.ok(html.includes("(varying: <code>x`y</code>, <code>`date`</code>, <code>&lt;img src=x onerror=alert(2)&gt;</code>)"), "fields as code in HTML");
    const http = htmlTables(html).find((t) => t.headers.includes("Response head"));
    assert.ok(http);
    const row = http.rows.find((r) => r.includes(EVIL_TARGET));
    assert.ok(row, "the row shows the value as text");
    assert.equal(row.length, http.headers.length);
  });
});
