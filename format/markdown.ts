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
 * Unicode's bidirectional formatting characters (Unicode 15.1, UAX #9 §2: the embeddings and
 * overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E, U+200F, U+061C).
 * Invisible, they reorder how the text around them is shown ("Trojan Source", CVE-2021-42574): a
 * header name from the wire holding U+202E would display reversed in a page or the pull-request
 * comment. The escapings below show each as the visible text `<U+202E>`.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One character written as the visible text `<U+XXXX>` (its code point, four hex digits or more). */
const visibleCodePoint = (c: string): string => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;

/** `text` with each bidirectional formatting character ({@link BIDI}) written as visible text `<U+XXXX>`. */
export function showBidi(text: string): string {
  return text.replace(BIDI, visibleCodePoint);
}

/**
 * Control characters a terminal acts on: C0 but the tab (ESC starts the sequences that set the
 * window title, clear the screen, write the clipboard; a line break starts a line of its own),
 * DEL, C1 (U+0080–U+009F: U+009B is a one-character CSI to some terminals) and the line and
 * paragraph separators U+2028, U+2029 (ECMA-48; Unicode 15.1 §5.8).
 */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * One line of terminal text made of text from results files or the wire: each control character
 * ({@link TERMINAL_CONTROL}) and each bidirectional formatting character ({@link BIDI}) written as
 * visible text `<U+XXXX>`, so what a results folder holds (a `provenance.json` from elsewhere, a
 * JSON key) can neither drive the terminal nor start a line; tabs stay (TSV columns).
 * @param line one line, without its line break
 */
export function terminalLine(line: string): string {
  return showBidi(line).replace(TERMINAL_CONTROL, visibleCodePoint);
}

/**
 * Escape text for one markdown table cell (or any inline run of text): backslash-escapes
 * `\`, backtick, `*`, `_`, `[`, `]`, `<`, `>`, `|`, `&`, `~`, `!`, turns each line break or
 * tab into one space, and shows bidirectional formatting characters as `<U+XXXX>` ({@link showBidi}),
 * so the value renders literally, in its own order, and stays inside its cell.
 * @param text raw text, e.g. an axis value or a package name
 * @returns markdown source that renders as exactly `text` (line breaks and tabs as spaces)
 */
export function mdCell(text: string): string {
  return showBidi(text)
    .replace(/\r\n|[\r\n\t]/g, " ")
    .replace(MD_SPECIAL, (c) => `\\${c}`);
}

/**
 * Wrap text in an inline code span whose fence is longer than any backtick run inside, padded
 * with one space when the text starts or ends with a backtick or space (CommonMark strips that
 * padding again). Line breaks become spaces; bidirectional formatting characters show as
 * `<U+XXXX>` ({@link showBidi}). Not for table cells: a `|` would still split a cell.
 * @param text raw text, e.g. a configuration id or a shell command
 * @returns markdown source of a code span showing `text`; `""` for empty text
 */
export function mdCode(text: string): string {
  const flat = showBidi(text).replace(/\r\n|[\r\n]/g, " ");
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
 * A fenced code block holding `lines` verbatim (bidirectional formatting characters shown as
 * `<U+XXXX>`, {@link showBidi}), fenced with more backticks than any run inside
 * (at least three), so wire text can never close it early.
 * @returns markdown source ending with a newline
 */
export function mdFence(lines: readonly string[]): string {
  const body = lines.map((l) => showBidi(l).replace(/\r/g, "")).join("\n");
  let longest = 2;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${body}\n${fence}\n`;
}
