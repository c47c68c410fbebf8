/**
 * The built site as a person reads it: Debian's Chromium (headless, driven by playwright-core)
 * opens every page from file://, with no console error, every internal link resolving, tables
 * and SVG charts present; a screenshot of the report page goes to test-output/.
 * Cases: the hand-made fixture, the real runner's fixture (results-wire), and any built site
 * named by WIRECOST_BROWSE_SITE. Without chromium on PATH the tests are skipped with one line
 * naming `apt-get install chromium`; with CI=true they fail instead (test/tools.ts).
 * WIRECOST_NO_BROWSER=1 skips them on purpose.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { chromium } from "playwright-core";
import { render } from "../../generators/render.js";
import { REPO_ROOT, fixtureCopy, tempDir } from "../generators/support.js";
import { onPath, toolSkip } from "../tools.js";

/** Results the real runner produced (see test/generators/wire.test.ts). */
const WIRE = join(REPO_ROOT, "test", "fixtures", "results-wire");
/** An already built site to check as well (e.g. one rendered from `npm start` results); unset: that case is skipped. */
const EXTRA_SITE = process.env["WIRECOST_BROWSE_SITE"];

/** Debian's chromium (its launcher script), as found on PATH. */
const CHROMIUM = onPath("chromium") ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const skip = toolSkip({ tool: "chromium", found: onPath("chromium") !== undefined, install: "apt-get install chromium", optOut: "WIRECOST_NO_BROWSER" });

/**
 * Open every HTML page of `site` in Chromium: no console error, every file link resolves,
 * every image renders; the report page shows tables and an SVG chart; screenshot to test-output/.
 */
async function checkSite(site: string, screenshot: string): Promise<void> {
  assert.ok(
    existsSync(CHROMIUM) && onPath("chromium") !== undefined,
    `chromium not found on PATH: install Debian's chromium (apt-get install chromium), or set WIRECOST_NO_BROWSER=1 to skip`,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
    const htmlPages = readdirSync(site)
      .filter((f) => f.endsWith(".html"))
      .sort();
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
    const svgs = await page.$$eval(
      "img",
      (imgs) => imgs.filter((i) => (i as HTMLImageElement).src.endsWith(".svg") && (i as HTMLImageElement).naturalWidth > 0).length,
    );
    assert.ok(svgs >= 1, "report page shows an SVG chart");
    const out = join(REPO_ROOT, "test-output");
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: join(out, screenshot), fullPage: true });
    assert.deepEqual(errors, [], "no console errors");
  } finally {
    await browser.close();
  }
}

describe("site in a browser", { skip }, () => {
  it("hand-made results: every page loads without console errors, links resolve, tables and charts show", { timeout: 120_000 }, async () => {
    const site = tempDir("browser-site");
    await render({ results: fixtureCopy(), site });
    await checkSite(site, "mcp-on-the-wire.png");
  });

  it("real runner results (results-wire): the same, with decoded exchanges and traces", { timeout: 120_000 }, async () => {
    const site = tempDir("browser-site-wire");
    await render({ results: WIRE, site });
    await checkSite(site, "mcp-on-the-wire-wire.png");
  });

  it("a built site named by WIRECOST_BROWSE_SITE (e.g. from `npm start`)", {
    timeout: 300_000,
    skip: EXTRA_SITE === undefined ? "WIRECOST_BROWSE_SITE not set" : false,
  }, async () => {
    await checkSite(EXTRA_SITE ?? "", "mcp-on-the-wire-extra.png");
  });
});
