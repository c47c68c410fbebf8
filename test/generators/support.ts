/**
 * Helpers shared by the generators tests: repository paths, fixture copies, and a small parser
 * for the HTML tables markdown-it writes. Not a test file itself.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root: tests run from dist/test/generators/, three levels below it. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The hand-made results fixture (4 HTTP + 4 stdio configurations, seed numbers). */
export const FIXTURE = join(REPO_ROOT, "test", "fixtures", "results-basic");

/** Golden copies of the site rendered from {@link FIXTURE}. */
export const GOLDEN = join(REPO_ROOT, "test", "golden", "site-basic");

/** A fresh empty temporary folder. */
export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `wirecost-${label}-`));
}

/**
 * Copy the fixture to a temporary folder, optionally rewriting one of its files.
 * @param edit file name → function from old text to new text
 * @returns the copy's path
 */
export function fixtureCopy(edit: Record<string, (text: string) => string> = {}): string {
  const dir = join(tempDir("results"), "results");
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [name, change] of Object.entries(edit)) {
    const file = join(dir, name);
    writeFileSync(file, change(readFileSync(file, "utf8")));
  }
  return dir;
}

/** medians.tsv read independently of the code under test: config → metric → median. */
export function readMedianCells(resultsDir: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const lines = readFileSync(join(resultsDir, "medians.tsv"), "utf8").replace(/\n$/, "").split("\n").slice(1);
  for (const line of lines) {
    const [config, metric, , median] = line.split("\t");
    if (config === undefined || metric === undefined || median === undefined) throw new Error(`bad line ${line}`);
    if (!out.has(config)) out.set(config, new Map());
    out.get(config)?.set(metric, Number(median));
  }
  return out;
}

/** Decode the entities markdown-it writes (`&amp; &lt; &gt; &quot;`) and `&#39;`. */
export function decodeEntities(html: string): string {
  return html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Text of an HTML fragment: tags removed, entities decoded. */
export function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ""));
}

/** One HTML table: header texts and body rows of cell texts. */
export interface HtmlTable {
  headers: string[];
  rows: string[][];
}

/** Every `<table>` of an HTML page, as plain text cells. */
export function htmlTables(html: string): HtmlTable[] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((m) => {
    const body = m[1] ?? "";
    const headers = [...body.matchAll(/<th(?:\s[^>]*)?>([\s\S]*?)<\/th>/g)].map((c) => textOf(c[1] ?? ""));
    const tbody = /<tbody>([\s\S]*?)<\/tbody>/.exec(body)?.[1] ?? "";
    const rows = [...tbody.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
      [...(r[1] ?? "").matchAll(/<td(?:\s[^>]*)?>([\s\S]*?)<\/td>/g)].map((c) => textOf(c[1] ?? "")),
    );
    return { headers, rows };
  });
}

/** Row key (`H1`, `S2`, …) → configuration id, from the reproduce lists under the tables. */
export function rowKeys(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<li><strong>([HS][0-9]+)<\/strong> <code>([^<]*)<\/code>/g)) {
    out.set(m[1] ?? "", decodeEntities(m[2] ?? ""));
  }
  return out;
}

/** Parse a formatted count (`1,234`) strictly: digits in groups of three. */
export function parseFormatted(text: string): number {
  if (!/^[0-9]{1,3}(,[0-9]{3})*$/.test(text)) throw new Error(`not a formatted count: ${JSON.stringify(text)}`);
  return Number(text.replace(/,/g, ""));
}
