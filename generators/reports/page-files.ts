/** Turn a page's markdown into its two site files (`<id>.md`, `<id>.html` in the one layout). */
import { htmlPage, markdownToHtml } from "../html.js";

/**
 * Add `<id>.md` and `<id>.html` to `files`.
 * @param generator the layout's footer line (which tool, from which results)
 */
export function addPage(files: Map<string, string>, id: string, title: string, raw: string, generator: string): void {
  const markdown = `${raw.replace(/\s+$/, "")}\n`;
  files.set(`${id}.md`, markdown);
  files.set(`${id}.html`, htmlPage({ title, body: markdownToHtml(markdown), generator }));
}
