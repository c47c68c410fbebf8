/**
 * The significance test of `wirecost compare` for timings: the Mann-Whitney U test (Wilcoxon rank
 * sum test), two-sided, on the trials (or kept samples) of one metric of one configuration in the
 * base and head results. The rank sum is simple-statistics' `wilcoxonRankSum` (mid-ranks for ties).
 * The p-value is exact (every split of the pooled values into groups of the two sizes, ties as
 * ranked) when there are at most {@link EXACT_SPLITS} splits, else the normal approximation with the
 * tie correction and a continuity correction (Hollander, Wolfe & Chicken, "Nonparametric
 * Statistical Methods", 3rd ed., §4.1).
 */
import { combinations, cumulativeStdNormalProbability, median, wilcoxonRankSum } from "simple-statistics";

/** Most splits enumerated for an exact p-value (C(16, 8) = 12870 fits: 8 trials each). */
export const EXACT_SPLITS = 20000;

/** The significance level below which a change is reported (two-sided). */
export const ALPHA = 0.05;

/** A rank test's outcome. */
export interface RankTest {
  /** Values in the base and in the head. */
  nBase: number;
  nHead: number;
  /** Medians (units of the metric). */
  medianBase: number;
  medianHead: number;
  /** `medianHead / medianBase` (Infinity or NaN when the base median is 0). */
  ratio: number;
  /** Two-sided p-value; 1 when either side has no value. */
  p: number;
  /** `exact` or `normal` (how p was found). */
  method: "exact" | "normal";
  /** p < {@link ALPHA}. */
  significant: boolean;
}

/** Binomial coefficient C(n, k) as a float. */
function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/**
 * Mann-Whitney U test of `base` against `head` (two-sided).
 * @throws never; empty inputs give p = 1
 */
export function rankTest(base: readonly number[], head: readonly number[]): RankTest {
  const nBase = base.length;
  const nHead = head.length;
  const medianBase = nBase > 0 ? median([...base]) : Number.NaN;
  const medianHead = nHead > 0 ? median([...head]) : Number.NaN;
  const out = { nBase, nHead, medianBase, medianHead, ratio: medianHead / medianBase };
  if (nBase === 0 || nHead === 0) return { ...out, p: 1, method: "exact", significant: false };
  const pooled = [...base, ...head];
  // Mid-ranks of the pooled values (as wilcoxonRankSum ranks them).
  const sorted = pooled.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(pooled.length);
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]![0] === sorted[i]![0]) j++;
    for (let k = i; k <= j; k++) ranks[sorted[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const w = wilcoxonRankSum([...base], [...head]);
  const mean = (nBase * (pooled.length + 1)) / 2;
  const observed = Math.abs(w - mean);
  let p: number;
  let method: "exact" | "normal";
  if (choose(pooled.length, nBase) <= EXACT_SPLITS) {
    method = "exact";
    let extreme = 0;
    let total = 0;
    for (const split of combinations(ranks, nBase)) {
      const s = split.reduce((a, b) => a + b, 0);
      total++;
      if (Math.abs(s - mean) >= observed - 1e-9) extreme++;
    }
    p = extreme / total;
  } else {
    method = "normal";
    const n = pooled.length;
    const counts = new Map<number, number>();
    for (const v of pooled) counts.set(v, (counts.get(v) ?? 0) + 1);
    const tie = [...counts.values()].reduce((s, t) => s + t * t * t - t, 0);
    const variance = ((nBase * nHead) / 12) * (n + 1 - tie / (n * (n - 1)));
    const z = variance > 0 ? Math.max(0, observed - 0.5) / Math.sqrt(variance) : 0;
    p = Math.min(1, 2 * (1 - cumulativeStdNormalProbability(z)));
  }
  return { ...out, p, method, significant: p < ALPHA };
}
