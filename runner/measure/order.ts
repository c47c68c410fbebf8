/**
 * The order of timing trials: every configuration's trial 1, then every trial 2, … (A B A B), or
 * the same rounds each shuffled by a seeded PRNG (mulberry32), so drift on a shared machine spreads
 * over all compared configurations. The order is recorded with the results.
 */

/** One scheduled trial. */
export interface TrialSlot {
  config: string;
  trial: number;
  /** Position in the run, from 1. */
  seq: number;
}

/** mulberry32: a small deterministic PRNG; returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Interleave `trials` trials of each configuration.
 * @param order `interleaved` (declared order every round) or `random:SEED` (each round shuffled)
 * @throws Error for another order string
 */
export function trialOrder(configs: readonly string[], trials: number, order: string): TrialSlot[] {
  const m = /^random:(\d+)$/.exec(order);
  if (order !== "interleaved" && !m) throw new Error(`order "${order}": use "interleaved" or "random:SEED"`);
  const rnd = m ? mulberry32(Number(m[1])) : undefined;
  const out: TrialSlot[] = [];
  for (let t = 1; t <= trials; t++) {
    const round = [...configs];
    if (rnd)
      for (let i = round.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [round[i], round[j]] = [round[j]!, round[i]!];
      }
    for (const c of round) out.push({ config: c, trial: t, seq: out.length + 1 });
  }
  return out;
}
