import { test } from "node:test";
import assert from "node:assert/strict";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, bootstrapMedianInterval, nearestRank, trialInterval } from "../../generators/derive/bootstrap.js";

/** A known sample of 9 distinct trial figures (µs), out of order. */
const NINE = [131.2, 127.9, 140.5, 126.4, 129.0, 133.8, 128.3, 150.1, 130.6];

/** Binomial coefficient by a plain loop. */
function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/**
 * The exact bootstrap distribution of the median of an odd number n of distinct values: the
 * median of a resample is at most the j-th smallest value exactly when at least (n + 1) / 2 of
 * the n draws are among the j smallest, each draw being one with probability j / n.
 * @returns P(median ≤ j-th smallest) for j = 1…n
 */
function exactMedianCdf(n: number): number[] {
  const m = (n + 1) / 2;
  const cdf: number[] = [];
  for (let j = 1; j <= n; j++) {
    const p = j / n;
    let s = 0;
    for (let k = m; k <= n; k++) s += choose(n, k) * p ** k * (1 - p) ** (n - k);
    cdf.push(s);
  }
  return cdf;
}

/** The exact percentile interval: the smallest values whose exact CDF reaches 2.5 % and 97.5 %. */
function exactInterval(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const cdf = exactMedianCdf(values.length);
  const at = (p: number) => sorted[cdf.findIndex((c) => c >= p)]!;
  return [at(0.025), at(0.975)];
}

/** The same resampling written out as a plain loop: same seeded draws, its own median and ranks. */
function loopInterval(values: readonly number[]): [number, number] {
  const rng = xoroshiro128plus(BOOTSTRAP_SEED);
  const n = values.length;
  const medians: number[] = [];
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    const draw: number[] = [];
    for (let i = 0; i < n; i++) draw.push(values[uniformInt(rng, 0, n - 1)]!);
    draw.sort((a, b) => a - b);
    medians.push(n % 2 === 1 ? draw[(n - 1) / 2]! : (draw[n / 2 - 1]! + draw[n / 2]!) / 2);
  }
  medians.sort((a, b) => a - b);
  return [medians[Math.ceil(0.025 * BOOTSTRAP_RESAMPLES) - 1]!, medians[Math.ceil(0.975 * BOOTSTRAP_RESAMPLES) - 1]!];
}

test("the bootstrap interval of the median of a known sample matches the exact bootstrap distribution", () => {
  // The exact CDF of the median of 9 at the 1st and 2nd smallest: 0.00145 and 0.03037 (2.5 % falls
  // at the 2nd); at the 7th and 8th: 0.96963 and 0.99855 (97.5 % at the 8th). Both are 3.5 standard
  // errors of a 10,000-resample percentile away from the boundary, so the seeded interval must agree.
  const cdf = exactMedianCdf(9);
  assert.ok(Math.abs(cdf[1]! - 0.03037) < 1e-5 && Math.abs(cdf[6]! - 0.96963) < 1e-5, cdf.join(" "));
  assert.deepEqual(exactInterval(NINE), [127.9, 140.5]);
  assert.deepEqual(bootstrapMedianInterval(NINE), [127.9, 140.5]);
});

test("the bootstrap interval equals a plain-loop computation of the same seeded resampling, for odd and even trial counts", () => {
  for (const sample of [NINE, NINE.slice(0, 6), NINE.slice(0, 5), [2, 2, 2, 9, 1, 4, 4]]) {
    assert.deepEqual(bootstrapMedianInterval(sample), loopInterval(sample), sample.join(" "));
  }
});

test("with 5 trials the 95 % bootstrap interval of the median is the min–max (the exact distribution says so too)", () => {
  const five = NINE.slice(0, 5);
  // P(median of a resample of 5 = the smallest) = P(3 or more of 5 draws are it) = 0.05792 > 0.025.
  assert.ok(Math.abs(exactMedianCdf(5)[0]! - 0.05792) < 1e-9);
  assert.deepEqual(exactInterval(five), [Math.min(...five), Math.max(...five)]);
  assert.deepEqual(trialInterval(five), { low: 126.4, high: 140.5, method: "bootstrap", trials: 5 });
});

test("below 5 trials the interval is the min–max and says so; no trials, no interval; the same input gives the same interval", () => {
  assert.deepEqual(trialInterval([3, 1, 2]), { low: 1, high: 3, method: "min–max", trials: 3 });
  assert.equal(trialInterval([]), undefined);
  assert.deepEqual(bootstrapMedianInterval(NINE, 2000), bootstrapMedianInterval(NINE, 2000));
  assert.throws(() => bootstrapMedianInterval([]), /no values/);
  assert.equal(nearestRank([1, 2, 3, 4], 0.5), 2);
  assert.equal(nearestRank([1, 2, 3, 4], 0), 1);
});
