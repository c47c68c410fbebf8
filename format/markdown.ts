/**
 * The one markdown escaping of the project: every place that puts text from results files or
 * the wire into markdown (the pages' templates and sections, `wirecost compare --format md` and
 * so the pull-request comment of `.github/workflows/compare.yml`) goes through these functions.
 * Templates receive only escaped strings; markdown-it (raw HTML off) then escapes whatever is
 * left when it writes HTML; GitHub, which renders HTML in comments, sees no live markup either.
 * What {@link mdCell}, {@link mdCode} and {@link mdCodeCell} return is one line (line breaks become
 * spaces), so cutting markdown made of them at a line end never leaves a code span or an escape open. Rules: CommonMark 0.31 (backslash escapes, code
 * spans) and GitHub Flavored Markdown's tables (`\|` inside a cell, code spans included).
 */

/** ASCII punctuation that could start markup inside inline markdown or split a table cell. */
const MD_SPECIAL = /[\\`*_[\]<>|&~!]/g;

/**
 * Escape text for one markdown table cell (or any inline run of text): backslash-escapes
 * `\`, backtick, `*`, `_`, `[`, `]`, `<`, `>`, `|`, `&`, `~`, `!`, and turns each line break or
 * tab into one space, so the value renders literally and stays inside its cell.
 * @param text raw text, e.g. an axis value or a package name
 * @returns markdown source that renders as exactly `text` (line breaks and tabs as spaces)
 */
export function mdCell(text: string): string {
  return text.replace(/\r\n|[\r\n\t]/g, " ").replace(MD_SPECIAL, (c) => `\\${c}`);
}

/**
 * Wrap text in an inline code span whose fence is longer than any backtick run inside, padded
 * with one space when the text starts or ends with a backtick or space (CommonMark strips that
 * padding again). Line breaks become spaces. Not for table cells: a `|` would still split a cell.
 * @param text raw text, e.g. a configuration id or a shell command
 * @returns markdown source of a code span showing `text`; `""` for empty text
 */
export function mdCode(text: string): string {
  const flat = text.replace(/\r\n|[\r\n]/g, " ");
  if (flat === "") return "";
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A code span inside a markdown table cell: {@link mdCode}, with each `|` written `\|` (GFM
 * tables split cells at a bare `|` before they read code spans, and drop the backslash of `\|`
 * inside one), so a value holding backticks, pipes or HTML stays one literal code span in its cell.
 * @param text raw text, e.g. a JSON path from the wire
 * @returns markdown source for one cell (or part of one); `""` for empty text
 */
export function mdCodeCell(text: string): string {
  return mdCode(text).replace(/\|/g, "\\|");
}

/**
 * A fenced code block holding `lines` verbatim, fenced with more backticks than any run inside
 * (at least three), so wire text can never close it early.
 * @returns markdown source ending with a newline
 */
export function mdFence(lines: readonly string[]): string {
  const body = lines.map((l) => l.replace(/\r/g, "")).join("\n");
  let longest = 2;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${body}\n${fence}\n`;
}
