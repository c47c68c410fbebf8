/** Number formatting that does not depend on the machine's locale. */

/**
 * Format an integer with `,` between groups of three digits: `1234567` → `"1,234,567"`,
 * `-1234` → `"-1,234"`, `0` → `"0"`. Independent of locale and ICU data.
 * @param n a safe integer (byte or message count)
 * @throws Error if `n` is not a safe integer (a bug: results hold integers only)
 */
export function formatInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`formatInt: not a safe integer: ${n}`);
  const digits = String(Math.abs(n));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return n < 0 ? `-${out}` : out;
}
