/** Locale-independent orderings, so sorted output is the same on every machine. */

/** Compare two strings by UTF-16 code units (never by locale); for `Array.prototype.sort`. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compare two equally long string tuples element by element with {@link compareCodeUnits}. */
export function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = compareCodeUnits(a[i] ?? "", b[i] ?? "");
    if (c !== 0) return c;
  }
  return 0;
}
