/**
 * The rank test of `wirecost compare` (runner/compare/stats.ts) against values worked by hand, and
 * the `--fail-on` rule grammar (runner/compare/rules.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { rankTest } from "../../runner/compare/stats.js";
import { parseRule } from "../../runner/compare/rules.js";

test("exact Mann-Whitney p: separated 5 and 5 is 2/C(10,5) = 2/252; identical samples give 1", () => {
  const r = rankTest([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
  assert.equal(r.method, "exact");
  assert.equal(r.p, 2 / 252);
  assert.ok(r.significant);
  assert.equal(r.ratio, 8 / 3);
  assert.equal(rankTest([5, 5, 5], [5, 5, 5]).p, 1);
  // 3 and 3: the smallest two-sided p is 2/20 = 0.1, never significant.
  assert.equal(rankTest([1, 2, 3], [10, 20, 30]).p, 0.1);
  assert.equal(rankTest([1, 2, 3], [10, 20, 30]).significant, false);
  // One swap across the groups: rank sum 16, mean 27.5; splits as extreme: sums 15 and 16, and 39 and 40 (4 of 252).
  assert.equal(rankTest([1, 2, 3, 4, 6], [5, 7, 8, 9, 10]).p, 4 / 252);
});

test("normal approximation for large samples: a shift of 3 standard errors is significant, none is not", () => {
  const a = Array.from({ length: 400 }, (_, i) => i);
  assert.equal(rankTest(a, a).method, "normal");
  assert.ok(rankTest(a, a).p > 0.9);
  const r = rankTest(
    a,
    a.map((x) => x + 40),
  );
  assert.ok(r.p < 0.01 && r.significant, `p = ${r.p}`);
});

test("--fail-on rules: METRIC OP VALUE[%]", () => {
  assert.deepEqual(parseRule("total_bytes>0"), { text: "total_bytes>0", metric: "total_bytes", op: ">", value: 0, percent: false });
  assert.deepEqual(parseRule("cpu_per_request_us>+10%"), { text: "cpu_per_request_us>+10%", metric: "cpu_per_request_us", op: ">", value: 10, percent: true });
  assert.deepEqual(parseRule("trial:p50_us <= -2.5%").op, "<=");
  assert.throws(() => parseRule("total_bytes"), /--fail-on total_bytes: not a rule; fix: write METRIC OP VALUE/);
  assert.throws(() => parseRule("total_bytes>ten"), /not a rule/);
});
