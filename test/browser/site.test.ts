/**
 * The built site as a person reads it: Debian's Chromium (headless, driven by playwright-core)
 * opens every page from file://, with no console error, every internal link resolving, tables
 * and SVG charts present; a screenshot of the report page goes to test-output/.
 * Fails loudly when /usr/bin/chromium is absent, unless WIRECOST_NO_BROWSER=1.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { chromium } from "playwright-core";
import { render } from "../../generators/render.js";
import { REPO_ROOT, fixtureCopy, tempDir } from "../generators/support.js";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const skip = process.env["WIRECOST_NO_BROWSER"] === "1" ? "WIRECOST_NO_BROWSER=1: browser test skipped on request" : false;

describe("site in a browser", { skip }, () => {
  it("loads every page without console errors, resolves every link, shows tables and charts", { timeout: 120_000 }, async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} not found: install Debian's chromium (apt-get install chromium), or set WIRECOST_NO_BROWSER=1 to skip`);
    const site = tempDir("browser-site");
    await render({ results: fixtureCopy(), site });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("console", (m) => { if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`); });
      page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
      const htmlPages = readdirSync(site).filter((f) => f.endsWith(".html")).sort();
      assert.ok(htmlPages.includes("index.html") && htmlPages.includes("mcp-on-the-wire.html"));
      for (const name of htmlPages) {
        const url = pathToFileURL(join(site, name)).href;
        const response = await page.goto(url);
        assert.ok(response === null || response.ok(), `${name} loads`);
        const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).href));
        for (const href of hrefs) {
          if (!href.startsWith("file:")) continue;
          const file = decodeURIComponent(new URL(href).pathname);
          assert.ok(existsSync(file), `${name} links to ${href}, which exists`);
        }
        const images = await page.$$eval("img", (imgs) => imgs.map((i) => ({ src: (i as HTMLImageElement).src, ok: (i as HTMLImageElement).naturalWidth > 0 })));
        for (const img of images) assert.ok(img.ok, `${name}: image ${img.src} renders`);
      }
      await page.goto(pathToFileURL(join(site, "mcp-on-the-wire.html")).href);
      assert.ok((await page.$$("table")).length >= 3, "report page shows its tables");
      const svgs = await page.$$eval("img", (imgs) => imgs.filter((i) => (i as HTMLImageElement).src.endsWith(".svg") && (i as HTMLImageElement).naturalWidth > 0).length);
      assert.ok(svgs >= 1, "report page shows an SVG chart");
      const out = join(REPO_ROOT, "test-output");
      mkdirSync(out, { recursive: true });
      await page.screenshot({ path: join(out, "mcp-on-the-wire.png"), fullPage: true });
      assert.deepEqual(errors, [], "no console errors");
    } finally {
      await browser.close();
    }
  });
});
