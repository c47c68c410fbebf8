/** Number formatting that does not depend on the machine's locale, and the transports' names on pages. */

/** A transport as pages name it in prose and headings: `HTTP` (the `http` axis value), `stdio`, any other as given. */
export function transportName(transport: string): string {
  return transport === "http" ? "HTTP" : transport;
}

/**
 * Format an integer with `,` between groups of three digits: `1234567` → `"1,234,567"`,
 * `-1234` → `"-1,234"`, `0` → `"0"`; a half keeps its `.5` (`11633.5` → `"11,633.5"`: the median
 * of an even number of repeats whose counts differ, results/store.ts). Independent of locale and
 * ICU data.
 * @param n a safe integer (byte or message count), or such a median: a safe integer plus one half
 * @throws Error if `n` is neither (a bug: results hold counts and their medians only)
 */
export function formatInt(n: number): string {
  if (!Number.isSafeInteger(n) && !Number.isSafeInteger(n * 2)) throw new Error(`formatInt: not a safe integer or half: ${n}`);
  const whole = Math.trunc(n);
  const half = whole === n ? "" : ".5";
  const digits = String(Math.abs(whole));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  out += half;
  return n < 0 ? `-${out}` : out;
}

/**
 * Format a number with fixed decimals and `,` between groups of three integer digits:
 * `formatFixed(2346.333, 1)` → `"2,346.3"`, `formatFixed(-0.04, 1)` → `"0.0"`. Rounds half away
 * from zero on the decimal value; locale-independent. NaN and infinities print as `n/a`.
 * @param n any number
 * @param digits decimals after the point (0–6)
 */
export function formatFixed(n: number, digits: number): string {
  if (!Number.isFinite(n)) return "n/a";
  const scale = 10 ** digits;
  const rounded = Math.round(Math.abs(n) * scale + 1e-9) / scale;
  const [whole = "0", frac] = rounded.toFixed(digits).split(".");
  const sign = n < 0 && rounded !== 0 ? "-" : "";
  return `${sign}${formatInt(Number(whole))}${frac === undefined ? "" : `.${frac}`}`;
}

/**
 * Format a median of counts: an integer as {@link formatInt}; the median of an even number of
 * repeats that differ, which falls between two counts (`3.5`), with one decimal (`"3.5"`).
 * @param n a finite number
 */
export function formatMedianCount(n: number): string {
  return Number.isInteger(n) ? formatInt(n) : formatFixed(n, 1);
}
