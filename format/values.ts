/** Typed values in results TSV cells, with errors that name the file, line and column. */
import { UserError } from "./errors.js";

/** The fix printed when a results value is malformed. */
const REGENERATE = "regenerate the results with `npx wirecost run`, or correct the value by hand";

/**
 * Parse a non-negative decimal integer (a byte or message count).
 * @param fix the fix the message gives (default: regenerate the results)
 * @throws UserError naming `file:line (column)` when `text` is not digits, has a leading zero or exceeds 2^53−1 ({@link parseInteger})
 */
export function parseCount(text: string, file: string, line: number, column: string, fix = REGENERATE): number {
  if (!/^[0-9]+$/.test(text)) throw new UserError({ file, line, key: column, problem: `expected a non-negative integer, found \`${text}\``, fix });
  return parseInteger(text, file, line, column, fix);
}

/**
 * Parse a whole number that may be negative (a repeat, a trial, a signed count).
 * @param fix the fix the message gives (default: regenerate the results)
 * @throws UserError naming `file:line (column)` when `text` is not an optional minus and digits, or has a leading zero
 */
export function parseInteger(text: string, file: string, line: number, column: string, fix = REGENERATE): number {
  if (!/^-?[0-9]+$/.test(text)) throw new UserError({ file, line, key: column, problem: `expected an integer, found \`${text}\``, fix });
  if (/^-?0[0-9]/.test(text)) throw new UserError({ file, line, key: column, problem: `\`${text}\` has a leading zero, which no wirecost writes`, fix });
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new UserError({ file, line, key: column, problem: `\`${text}\` is past the integers a count holds exactly (±${Number.MAX_SAFE_INTEGER})`, fix });
  return n;
}

/**
 * Parse a decimal number (a time in µs or ms, a load, a share). `Infinity` is read as written: the
 * timing writer keeps one it computed (a quantisation error over zero ticks), and a page shows it.
 * @param fix the fix the message gives (default: regenerate the results)
 * @throws UserError naming `file:line (column)` when `text` is empty or not a number
 */
export function parseNumber(text: string, file: string, line: number, column: string, fix = REGENERATE): number {
  const v = Number(text);
  if (text.trim() === "" || Number.isNaN(v)) throw new UserError({ file, line, key: column, problem: `not a number: \`${text}\``, fix });
  return v;
}

/**
 * {@link parseNumber}, with an empty cell read as undefined (a figure that was not made).
 * @throws UserError as {@link parseNumber} for a non-empty cell that is not a finite number
 */
export function parseOptionalNumber(text: string, file: string, line: number, column: string, fix = REGENERATE): number | undefined {
  return text === "" ? undefined : parseNumber(text, file, line, column, fix);
}

/**
 * Parse a median of counts over repeats: a count, or halfway between two (`812.5`; the writer,
 * runner/results/store.ts, gives one decimal).
 * @throws UserError naming `file:line (column)` when `text` is not digits with at most one decimal,
 *   or exceeds 2^53−1
 */
export function parseMedianCount(text: string, file: string, line: number, column: string): number {
  const n = /^(0|[1-9][0-9]*)(\.[0-9])?$/.test(text) ? Number(text) : Number.NaN;
  if (!(n <= Number.MAX_SAFE_INTEGER)) {
    throw new UserError({
      file,
      line,
      key: column,
      problem: `expected a non-negative count (one decimal at most, no leading zero), found \`${text}\``,
      fix: REGENERATE,
    });
  }
  return n;
}

/**
 * Parse a cell that holds one of a fixed set of words.
 * @param fix the fix the message gives (default: regenerate the results)
 * @throws UserError naming `file:line (column)` for any other text, listing the words
 */
export function parseOneOf<T extends string>(text: string, words: readonly T[], file: string, line: number, column: string, fix = REGENERATE): T {
  if ((words as readonly string[]).includes(text)) return text as T;
  throw new UserError({ file, line, key: column, problem: `expected ${words.map((w) => `\`${w}\``).join(" or ")}, found \`${text}\``, fix });
}

/**
 * Parse a `yes`/`no` flag.
 * @param fix the fix the message gives (default: regenerate the results)
 * @throws UserError naming `file:line (column)` for any other text
 */
export function parseYesNo(text: string, file: string, line: number, column: string, fix = REGENERATE): boolean {
  return parseOneOf(text, ["yes", "no"], file, line, column, fix) === "yes";
}

/** The directions of a stream: client to server, server to client. */
export const DIRECTIONS = ["c2s", "s2c"] as const;

/**
 * Parse a stream direction ({@link DIRECTIONS}).
 * @throws UserError naming `file:line (column)` for any other text
 */
export function parseDirection(text: string, file: string, line: number, column: string, fix = REGENERATE): (typeof DIRECTIONS)[number] {
  return parseOneOf(text, DIRECTIONS, file, line, column, fix);
}
