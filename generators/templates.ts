/**
 * The two nunjucks environments: markdown templates (`*.md.njk`, autoescape off, because every
 * value handed to them is already markdown-escaped) and the HTML layout (`*.html.njk`,
 * autoescape on). Both throw on an undefined variable, so a typo fails loudly.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import nunjucks from "nunjucks";

let cached: { md: nunjucks.Environment; html: nunjucks.Environment } | undefined;

/**
 * The repository's `templates/` folder, found by walking up from this module (it runs from
 * `dist/generators/` after a build and from `generators/` under a TypeScript loader).
 * @throws Error if no ancestor holds `templates/layout.html.njk` (a broken install, not a user error)
 */
export function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "templates");
    if (existsSync(join(candidate, "layout.html.njk"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("templates/layout.html.njk not found above generators/");
    dir = parent;
  }
}

function environments(): { md: nunjucks.Environment; html: nunjucks.Environment } {
  if (cached === undefined) {
    const make = (autoescape: boolean): nunjucks.Environment =>
      new nunjucks.Environment(new nunjucks.FileSystemLoader(templatesDir(), { noCache: true }), {
        autoescape,
        throwOnUndefined: true,
        trimBlocks: true,
        lstripBlocks: true,
      });
    cached = { md: make(false), html: make(true) };
  }
  return cached;
}

/**
 * Render a markdown template. Values in `view` must already be markdown-safe strings (see
 * `escape.ts`); numbers must already be formatted (see `format.ts`).
 * @param name template path under `templates/`, e.g. `mcp-on-the-wire.md.njk`
 * @returns markdown source
 */
export function renderMarkdownTemplate(name: string, view: object): string {
  return environments().md.render(name, view);
}

/**
 * Render an HTML template with autoescape on; only values marked `| safe` in the template
 * (the markdown-it output) pass unescaped.
 * @param name template path under `templates/`, e.g. `layout.html.njk`
 * @returns HTML source
 */
export function renderHtmlTemplate(name: string, view: object): string {
  return environments().html.render(name, view);
}
