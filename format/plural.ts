/**
 * Counted nouns in the lines wirecost prints: `1 run`, `2 runs`, `1 configuration`.
 */

/**
 * `n` and its noun, singular for exactly 1 (`1 run`), plural otherwise (`0 runs`, `2 runs`).
 * @param n the count (printed as given)
 * @param singular the noun for one
 * @param plural the noun for any other count (default: `singular` + "s")
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
