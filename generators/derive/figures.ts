/**
 * Figures derived from measured cells: shares, differences, ratios and the linear crossover
 * estimate. Pure arithmetic; pages print each result beside the inputs it came from.
 */

/**
 * Share of `part` in `total`, in percent.
 * @returns `100 · part / total`; NaN when `total` is 0
 */
export function sharePercent(part: number, total: number): number {
  return total === 0 ? Number.NaN : (100 * part) / total;
}

/** A straight line through two measured flow totals: bytes = fixed + marginal · calls. */
export interface LinearCost {
  /** Fixed bytes per session (the line at zero calls: setup and `tools/list`). */
  fixedBytes: number;
  /** Marginal bytes per added `tools/call`. */
  marginalBytes: number;
}

/**
 * Fit bytes = fixed + marginal · calls through two measured endpoints.
 * @param callsA calls in the shorter flow (e.g. 1 for `plain`)
 * @param totalA its total bytes
 * @param callsB calls in the longer flow (e.g. 10 for `ten`)
 * @param totalB its total bytes
 * @throws Error when `callsA === callsB` (a bug: the page picks two different flows)
 */
export function linearCost(callsA: number, totalA: number, callsB: number, totalB: number): LinearCost {
  if (callsA === callsB) throw new Error("linearCost: both endpoints have the same call count");
  const marginalBytes = (totalB - totalA) / (callsB - callsA);
  return { fixedBytes: totalA - marginalBytes * callsA, marginalBytes };
}

/**
 * Call count where two linear costs meet: `(fixedA − fixedB) / (marginalB − marginalA)`.
 * @returns the call count (may be negative or fractional); undefined when the lines are parallel
 */
export function crossoverCalls(a: LinearCost, b: LinearCost): number | undefined {
  const slope = b.marginalBytes - a.marginalBytes;
  if (slope === 0) return undefined;
  return (a.fixedBytes - b.fixedBytes) / slope;
}
