/** Derived figures from the seed's published totals, checked to the printed precision. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crossoverCalls, linearCost, sharePercent } from "../../generators/derive/figures.js";
import { formatFixed } from "../../generators/format.js";

describe("derived figures", () => {
  it("reproduces the seed's crossover: 3,064/9,523 and 2,065/9,566 → 9.63 calls", () => {
    const old = linearCost(1, 3064, 10, 9523);
    const neu = linearCost(1, 2065, 10, 9566);
    assert.equal(formatFixed(old.fixedBytes, 1), "2,346.3");
    assert.equal(formatFixed(old.marginalBytes, 1), "717.7");
    assert.equal(formatFixed(neu.fixedBytes, 1), "1,231.6");
    assert.equal(formatFixed(neu.marginalBytes, 1), "833.4");
    assert.equal(formatFixed(crossoverCalls(old, neu) ?? Number.NaN, 2), "9.63");
  });
  it("reproduces the seed's framing shares: 60 and 32 percent", () => {
    assert.equal(formatFixed(sharePercent(821 + 990 + 34, 3064), 0), "60");
    assert.equal(formatFixed(sharePercent(418 + 252 + 0, 2065), 0), "32");
  });
  it("has no crossover for parallel lines", () => {
    assert.equal(crossoverCalls({ fixedBytes: 1, marginalBytes: 2 }, { fixedBytes: 3, marginalBytes: 2 }), undefined);
  });
});
