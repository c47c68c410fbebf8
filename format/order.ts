/** Locale-independent orderings, so sorted output is the same on every machine. */

/** Compare two strings by UTF-16 code units (never by locale); for `Array.prototype.sort`. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compare two values: as numbers when both are whole decimal numbers (256 before 2048), else by code units. */
export function compareValues(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return Number(a) - Number(b);
  return compareCodeUnits(a, b);
}

/** Compare two equally long string tuples element by element with {@link compareValues}. */
export function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = compareValues(a[i] ?? "", b[i] ?? "");
    if (c !== 0) return c;
  }
  return 0;
}
