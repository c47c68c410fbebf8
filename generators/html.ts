/** Markdown → HTML (markdown-it, raw HTML off) and the one page layout. */
import MarkdownIt from "markdown-it";
import { renderHtmlTemplate } from "./templates.js";

const markdown = new MarkdownIt("default", { html: false, linkify: false, typographer: false });

/** A relative link to a sibling markdown page: `page.md` or `page.md#anchor`. */
const RELATIVE_MD = /^(?![a-z][a-z0-9+.-]*:|\/)([^?#]*)\.md(#.*)?$/i;

// Pages link to each other as `x.md`, so the markdown site works on its own; in HTML they become `x.html`.
markdown.core.ruler.push("md_links_to_html", (state) => {
  for (const block of state.tokens) {
    for (const token of block.children ?? []) {
      if (token.type !== "link_open") continue;
      const href = token.attrGet("href");
      const m = href === null ? null : RELATIVE_MD.exec(String(href));
      if (m) token.attrSet("href", `${m[1] ?? ""}.html${m[2] ?? ""}`);
    }
  }
  return true;
});

/**
 * Convert markdown to an HTML fragment. Raw HTML in the markdown is shown as text, never passed
 * through; relative links to `*.md` pages are rewritten to `*.html`.
 * @param source markdown source (e.g. a page's `build()` output)
 * @returns HTML fragment (no `<html>` wrapper)
 */
export function markdownToHtml(source: string): string {
  return collapseReproduce(markdown.render(source));
}

/** Headings whose section is folded away in HTML: the long lists of commands that re-measure each row. */
const COLLAPSED_HEADING = /^Reproduce\b/;

/**
 * Fold each section whose heading starts with "Reproduce" (the heading and everything up to the
 * next heading of the same or a higher level) into `<details>`, its heading the `<summary>`: the
 * commands stay in the page, one click away, and the page is not mostly command lists. The
 * markdown page keeps them open.
 * @param html an HTML fragment from markdown-it (headings as `<hN>text</hN>`)
 */
export function collapseReproduce(html: string): string {
  const heading = /<h([1-6])>([^<]*)<\/h\1>\n?/g;
  const heads = [...html.matchAll(heading)].map((m) => ({ at: m.index ?? 0, end: (m.index ?? 0) + m[0].length, level: Number(m[1]), text: m[2] ?? "" }));
  let out = "";
  let from = 0;
  for (let i = 0; i < heads.length; i++) {
    const h = heads[i];
    if (h === undefined || h.at < from || !COLLAPSED_HEADING.test(h.text)) continue;
    const next = heads.slice(i + 1).find((n) => n.level <= h.level);
    const stop = next?.at ?? html.length;
    out += `${html.slice(from, h.at)}<details class="reproduce"><summary><h${h.level}>${h.text}</h${h.level}></summary>\n${html.slice(h.end, stop)}</details>\n`;
    from = stop;
  }
  return out + html.slice(from);
}

/** What the layout shows around a page's body. */
export interface LayoutView {
  /** Page title, plain text (escaped by the layout). */
  title: string;
  /** The page's HTML fragment from {@link markdownToHtml}; inserted unescaped. */
  body: string;
  /** Footer text naming the tool that wrote the results, plain text (escaped by the layout). */
  generator: string;
}

/**
 * Wrap an HTML fragment in `templates/layout.html.njk` (inline CSS, a link to `index.html`).
 * @returns a complete HTML document ending with a newline
 */
export function htmlPage(view: LayoutView): string {
  const html = renderHtmlTemplate("layout.html.njk", { ...view, body: view.body.trimEnd() });
  return html.endsWith("\n") ? html : `${html}\n`;
}
