/** The small pure helpers: number format, markdown escaping, reproduce command, link rewriting. */
import { createHash } from "node:crypto";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mdCell, mdCode, mdCodeCell, mdFence } from "../../format/markdown.js";
import { formatInt } from "../../generators/format.js";
import { markdownToHtml } from "../../generators/html.js";
import { reproduceCommand, scratchFolder } from "../../generators/reproduce.js";
import { pcreLiteral, shellQuote } from "../../format/shell.js";

describe("formatInt", () => {
  it("groups thousands with commas, whatever the locale", () => {
    assert.equal(formatInt(0), "0");
    assert.equal(formatInt(999), "999");
    assert.equal(formatInt(1000), "1,000");
    assert.equal(formatInt(3064), "3,064");
    assert.equal(formatInt(1234567), "1,234,567");
    assert.equal(formatInt(-1234), "-1,234");
    assert.equal(formatInt(Number.MAX_SAFE_INTEGER), "9,007,199,254,740,991");
  });
  it("keeps a median's half (an even number of repeats), rejects other non-integers", () => {
    assert.equal(formatInt(11633.5), "11,633.5");
    assert.equal(formatInt(-0.5), "-0.5");
    assert.throws(() => formatInt(1.25), /not a safe integer/);
    assert.throws(() => formatInt(Number.NaN), /not a safe integer/);
  });
});

describe("mdCell", () => {
  it("escapes markup and cell separators and flattens line breaks", () => {
    assert.equal(mdCell("a|b"), "a\\|b");
    assert.equal(mdCell("`x` *y* _z_ [l](u) <b> & ~s~ !"), "\\`x\\` \\*y\\* \\_z\\_ \\[l\\](u) \\<b\\> \\& \\~s\\~ \\!");
    assert.equal(mdCell("back\\slash"), "back\\\\slash");
    assert.equal(mdCell("one\ntwo\r\nthree\tfour"), "one two three four");
    assert.equal(mdCell("plain-text 2026-07-28"), "plain-text 2026-07-28");
  });
  it("renders back to the literal text in one table cell", () => {
    const raw = "<script>alert(1)</script>|x `y` *z* [a](b) &amp; \\";
    const html = markdownToHtml(`| h |\n| --- |\n| ${mdCell(raw)} |\n`);
    assert.match(html, /<td>&lt;script&gt;alert\(1\)&lt;\/script&gt;\|x `y` \*z\* \[a\]\(b\) &amp;amp; \\<\/td>/);
    assert.equal((html.match(/<td>/g) ?? []).length, 1);
  });
});

describe("bidirectional formatting characters", () => {
  it("show as <U+XXXX> text in cells, code spans and fences, never as themselves", () => {
    const raw = "a\u202Eb\u2066c\u2069d\u202Ae\u200Ff";
    assert.equal(mdCell(raw), "a\\<U+202E\\>b\\<U+2066\\>c\\<U+2069\\>d\\<U+202A\\>e\\<U+200F\\>f");
    assert.equal(mdCode(raw), "`a<U+202E>b<U+2066>c<U+2069>d<U+202A>e<U+200F>f`");
    assert.equal(mdFence([raw]), "```text\na<U+202E>b<U+2066>c<U+2069>d<U+202A>e<U+200F>f\n```\n");
    assert.doesNotMatch(markdownToHtml(`| h |\n| --- |\n| ${mdCell(raw)} |\n`), /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
  });
});

describe("mdCode", () => {
  it("picks a fence longer than any backtick run", () => {
    assert.equal(mdCode("date"), "`date`");
    assert.equal(mdCode("a`b"), "``a`b``");
    assert.equal(mdCode("`date`"), "`` `date` ``");
    assert.equal(mdCode("x``y"), "```x``y```");
    assert.equal(mdCode(""), "");
  });
  it("renders back to the literal text", () => {
    for (const raw of ["a`b", "`date`", "<img src=x onerror=alert(1)>", " spaced "]) {
      const html = markdownToHtml(mdCode(raw));
      const code = /<code>(.*)<\/code>/.exec(html)?.[1];
      const expected = raw.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      assert.equal(code, expected, raw);
    }
  });
});

describe("reproduceCommand", () => {
  it("is the documented command for a plain id: its own scratch folder, the default matrix left out", () => {
    assert.equal(
      reproduceCommand("raw-mcp-ts-v2-http-2026-07-28-plain", "matrix.yaml", "medians.tsv", "total_bytes"),
      "npx wirecost run --only raw-mcp-ts-v2-http-2026-07-28-plain --results /tmp/wirecost-raw-mcp-ts-v2-http-2026-07-28-plain && " +
        "grep -P '^raw-mcp-ts-v2-http-2026-07-28-plain\\ttotal_bytes\\t' /tmp/wirecost-raw-mcp-ts-v2-http-2026-07-28-plain/medians.tsv",
    );
  });
  it("names any other matrix file, and prints a one-row-per-configuration file without a metric", () => {
    assert.equal(
      reproduceCommand("mcp-ts-v1-stdio-2025-11-25", "matrices/t small.yaml", "percall.tsv"),
      "npx wirecost run 'matrices/t small.yaml' --only mcp-ts-v1-stdio-2025-11-25 --results /tmp/wirecost-mcp-ts-v1-stdio-2025-11-25 && " +
        "grep -P '^mcp-ts-v1-stdio-2025-11-25\\t' /tmp/wirecost-mcp-ts-v1-stdio-2025-11-25/percall.tsv",
    );
  });
  it("gives two configurations two scratch folders", () => {
    assert.notEqual(scratchFolder("a-1"), scratchFolder("a-2"));
  });
  it("quotes for the shell and escapes for PCRE; an id unsafe in a file name gets a hash folder", () => {
    assert.equal(shellQuote("it's"), "'it'\\''s'");
    assert.equal(shellQuote(""), "''");
    assert.equal(pcreLiteral("a.b+c(d)"), "a\\.b\\+c\\(d\\)");
    assert.equal(scratchFolder("../x"), `/tmp/wirecost-${createHash("sha256").update("../x").digest("hex").slice(0, 16)}`);
    assert.equal(
      reproduceCommand("v1.2 it's", "matrix.yaml", "medians.tsv", "total_bytes"),
      "npx wirecost run --only 'v1.2 it'\\''s' --results /tmp/wirecost-HASH && grep -P '^v1\\.2 it'\\''s\\ttotal_bytes\\t' /tmp/wirecost-HASH/medians.tsv".replaceAll(
        "HASH",
        createHash("sha256").update("v1.2 it's").digest("hex").slice(0, 16),
      ),
    );
  });
});

describe("markdownToHtml", () => {
  it("rewrites relative .md links to .html and leaves others alone", () => {
    const html = markdownToHtml("[a](page.md) [b](page.md#x) [c](https://example.com/r.md) [d](/abs.md)");
    assert.match(html, /href="page\.html"/);
    assert.match(html, /href="page\.html#x"/);
    assert.match(html, /href="https:\/\/example\.com\/r\.md"/);
    assert.match(html, /href="\/abs\.md"/);
  });
  it("shows raw HTML as text", () => {
    assert.equal(markdownToHtml("<script>x</script>"), "<p>&lt;script&gt;x&lt;/script&gt;</p>\n");
  });
});

describe("mdCodeCell", () => {
  it("keeps backticks, pipes, brackets, HTML and line breaks literal in one code span of one table cell", () => {
    const raw = "a`b|c [x](y) <script>alert(1)</script>\nd";
    const html = markdownToHtml(`| h | n |\n| --- | --- |\n| ${mdCodeCell(raw)} | 2 |\n`);
    assert.equal((html.match(/<td>/g) ?? []).length, 2, html);
    assert.match(html, /<td><code>a`b\|c \[x\]\(y\) &lt;script&gt;alert\(1\)&lt;\/script&gt; d<\/code><\/td>/);
  });
});
