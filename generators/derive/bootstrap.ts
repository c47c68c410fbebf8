/**
 * The interval a page prints beside a median over trials: from {@link MIN_TRIALS_FOR_BOOTSTRAP}
 * trials on, the percentile bootstrap interval of the median; below that, the trials' min–max.
 *
 * Percentile bootstrap (Efron and Tibshirani, "An Introduction to the Bootstrap", 1993, §13.3):
 * {@link BOOTSTRAP_RESAMPLES} resamples of the n trial values drawn with replacement, the median of
 * each (simple-statistics `median`: the middle value, or the mean of the two middle values for an
 * even n), and the interval from the (1 − level)/2 to the (1 + level)/2 quantile of those medians,
 * each taken by nearest rank (the value at rank ⌈p · B⌉ of the B sorted medians). The draws come
 * from pure-rand's xoroshiro128+ seeded with {@link BOOTSTRAP_SEED}, so a page rendered twice from
 * the same results prints the same interval.
 *
 * With 5 trials the 95 % interval is always the min–max: the median of a resample of 5 is the
 * smallest trial value whenever 3 or more of the 5 draws are it, which happens with probability
 * 5.8 % (> 2.5 %), and likewise for the largest. From 7 trials on it is narrower.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { median } from "simple-statistics";

/** Trials from which the interval is a bootstrap interval (below: the trials' min–max). */
export const MIN_TRIALS_FOR_BOOTSTRAP = 5;
/** Resamples of the bootstrap. */
export const BOOTSTRAP_RESAMPLES = 10_000;
/** Seed of the resampling, fixed so that pages are reproducible. */
export const BOOTSTRAP_SEED = 28;
/** Coverage of the interval. */
export const BOOTSTRAP_LEVEL = 0.95;

/** How a page names the interval it prints, in words (one source for every page). */
export const BOOTSTRAP_METHOD = `percentile bootstrap ${BOOTSTRAP_LEVEL * 100} % interval of the median (${BOOTSTRAP_RESAMPLES.toLocaleString("en-US")} resamples of the trials with replacement, xoroshiro128+ seeded with ${BOOTSTRAP_SEED}, nearest-rank percentiles of the resampled medians)`;

/** An interval over trials and how it was taken. */
export interface TrialInterval {
  low: number;
  high: number;
  /** `bootstrap` from {@link MIN_TRIALS_FOR_BOOTSTRAP} trials on, `min–max` below. */
  method: "bootstrap" | "min–max";
  /** Trials it is taken over. */
  trials: number;
}

/**
 * The value at nearest rank ⌈p · n⌉ (1-based, at least 1) of ascending `sorted`.
 * @throws Error when `sorted` is empty or p is outside [0, 1]
 */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0 || !(p >= 0 && p <= 1)) throw new Error(`nearestRank: needs values and 0 ≤ p ≤ 1, got ${sorted.length} values, p ${p}`);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
}

/**
 * The percentile bootstrap interval of the median of `values` (see the module comment).
 * @param values the trials' figures, any order (at least one)
 * @returns `[low, high]` in the unit of `values`
 * @throws Error when `values` is empty or a parameter is out of range
 */
export function bootstrapMedianInterval(
  values: readonly number[],
  resamples = BOOTSTRAP_RESAMPLES,
  level = BOOTSTRAP_LEVEL,
  seed = BOOTSTRAP_SEED,
): [number, number] {
  if (values.length === 0) throw new Error("bootstrapMedianInterval: no values");
  if (!(resamples >= 1) || !(level > 0 && level < 1)) throw new Error(`bootstrapMedianInterval: resamples ${resamples}, level ${level}`);
  const rng = xoroshiro128plus(seed);
  const n = values.length;
  const medians = new Array<number>(resamples);
  const draw = new Array<number>(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) draw[i] = values[uniformInt(rng, 0, n - 1)]!;
    medians[b] = median(draw);
  }
  medians.sort((a, b) => a - b);
  return [nearestRank(medians, (1 - level) / 2), nearestRank(medians, (1 + level) / 2)];
}

/**
 * The interval a page prints beside the median of `values`: the bootstrap interval from
 * {@link MIN_TRIALS_FOR_BOOTSTRAP} values on, the min–max below.
 * @returns undefined when `values` is empty
 */
export function trialInterval(values: readonly number[]): TrialInterval | undefined {
  if (values.length === 0) return undefined;
  if (values.length < MIN_TRIALS_FOR_BOOTSTRAP) return { low: Math.min(...values), high: Math.max(...values), method: "min–max", trials: values.length };
  const [low, high] = bootstrapMedianInterval(values);
  return { low, high, method: "bootstrap", trials: values.length };
}

/**
 * How a page names the intervals it prints in brackets, from the methods of those intervals: the
 * bootstrap, the min–max, or both (naming the rule).
 * @param methods the method of each interval printed (empty: as if all were min–max)
 */
export function intervalWords(methods: ReadonlyArray<TrialInterval["method"]>): string {
  if (!methods.includes("bootstrap")) return `the trials' min–max (with fewer than ${MIN_TRIALS_FOR_BOOTSTRAP} trials, not a bootstrap interval)`;
  return methods.includes("min–max")
    ? `the ${BOOTSTRAP_METHOD}, or the trials' min–max where there are fewer than ${MIN_TRIALS_FOR_BOOTSTRAP} trials`
    : `the ${BOOTSTRAP_METHOD}`;
}
