/**
 * `--fail-on RULE` of `wirecost compare`: `METRIC OP VALUE`, e.g. `total_bytes>0`,
 * `cpu_per_request_us>+10%`, `trial:p50_us>=+5%`. OP is `>`, `>=`, `<` or `<=`; VALUE a number,
 * signed or not, in the metric's unit (compared with head − base) or with `%` (compared with
 * (head / base − 1) × 100). METRIC is a count column or `unexplained_bytes` for wire folders
 * (per configuration: the median's change; `unexplained_bytes`: what no cause holds, the whole
 * `total_bytes` change when no causes could be found), a metric of
 * timings.tsv for timing folders, `KIND:METRIC` of percall-samples.tsv for per-call folders. A
 * timing or per-call change trips a rule only when it is significant (a `~` change never does).
 * A configuration that ran ok on one side and failed every run (trial) on the other trips every
 * rule but `unexplained_bytes` (its change cannot be measured, so a gate must not pass it).
 */
import { UserError } from "../../format/errors.js";
import type { Comparison } from "./compare.js";
import { isCountColumn } from "../../format/count-columns.js";

/** A parsed rule. */
export interface FailRule {
  /** The rule as given. */
  text: string;
  metric: string;
  op: ">" | ">=" | "<" | "<=";
  value: number;
  /** Whether `value` is a percentage of the base. */
  percent: boolean;
}

/** A rule that tripped, where. */
export interface Trip {
  rule: string;
  config: string;
  metric: string;
  /** The change as printed: `+120` or `+104.2%`. */
  change: string;
}

const RULE = /^\s*([A-Za-z0-9_:]+)\s*(>=|<=|>|<)\s*([+-]?[0-9]+(?:\.[0-9]+)?)\s*(%?)\s*$/;

/** Parse one `--fail-on` rule. @throws UserError with the rule's shape */
export function parseRule(text: string): FailRule {
  const m = RULE.exec(text);
  if (!m) throw new UserError(`--fail-on ${text}: not a rule; fix: write METRIC OP VALUE, e.g. total_bytes>0 or cpu_per_request_us>+10%`);
  return { text, metric: m[1]!, op: m[2] as FailRule["op"], value: Number(m[3]), percent: m[4] === "%" };
}

function holds(x: number, r: FailRule): boolean {
  if (Number.isNaN(x)) return false;
  switch (r.op) {
    case ">":
      return x > r.value;
    case ">=":
      return x >= r.value;
    case "<":
      return x < r.value;
    case "<=":
      return x <= r.value;
  }
}

const signed = (x: number, unit = ""): string => `${x > 0 ? "+" : ""}${Number.isInteger(x) ? x : x.toFixed(1)}${unit}`;

/**
 * The trips of `rules` in a comparison.
 * @throws UserError when a rule names a metric that the comparison does not have
 */
export function checkRules(c: Comparison, rules: readonly FailRule[]): Trip[] {
  const trips: Trip[] = [];
  const known = new Set<string>(
    c.kind === "wire" ? [...c.bytes.flatMap((b) => b.changes.map((x) => x.column)), "unexplained_bytes"] : c.metrics.map((m) => m.metric),
  );
  for (const r of rules) {
    if (c.kind === "wire") {
      if (!isCountColumn(r.metric) && r.metric !== "unexplained_bytes")
        throw new UserError(
          `--fail-on ${r.text}: \`${r.metric}\` is not a count column of a wire folder; fix: use one of the columns of medians.tsv (e.g. total_bytes) or unexplained_bytes`,
        );
      if (r.metric === "unexplained_bytes" && r.percent)
        throw new UserError(`--fail-on ${r.text}: unexplained_bytes has no base to take a percentage of; fix: give bytes, e.g. unexplained_bytes>0`);
      if (r.metric !== "unexplained_bytes") trips.push(...failedTrips(c, r));
      // A column the base counted and the head does not: the rule cannot be checked there, so it trips.
      for (const u of c.uncounted)
        if (u.column === r.metric && u.side === "base") trips.push({ rule: r.text, config: u.config, metric: r.metric, change: "not counted in head" });
      for (const b of c.bytes) {
        if (r.metric === "unexplained_bytes") {
          // No causes found (no capture log kept on a side, another transport): the whole change is unexplained.
          const u = b.causes ? b.causes.unexplainedBytes : (b.changes.find((x) => x.column === "total_bytes")?.delta ?? 0);
          if (!r.percent && holds(u, r)) trips.push({ rule: r.text, config: b.config, metric: r.metric, change: signed(u) });
          continue;
        }
        const ch = b.changes.find((x) => x.column === r.metric);
        if (!ch) continue;
        const x = r.percent ? (ch.head / ch.base - 1) * 100 : ch.delta;
        if (holds(x, r)) trips.push({ rule: r.text, config: b.config, metric: r.metric, change: signed(x, r.percent ? "%" : "") });
      }
      continue;
    }
    if (!known.has(r.metric) && c.metrics.length > 0)
      throw new UserError(
        `--fail-on ${r.text}: no metric \`${r.metric}\` in ${c.base.dir} and ${c.head.dir}; fix: use one of ${[...known].slice(0, 6).join(", ")}${known.size > 6 ? ", …" : ""}`,
      );
    trips.push(...failedTrips(c, r));
    for (const m of c.metrics) {
      if (m.metric !== r.metric || !m.significant) continue;
      const x = r.percent ? (m.ratio - 1) * 100 : m.medianHead - m.medianBase;
      if (holds(x, r)) trips.push({ rule: r.text, config: m.config, metric: m.metric, change: signed(x, r.percent ? "%" : "") });
    }
  }
  return trips;
}

/** The trips of rule `r` on configurations that ran ok on one side only. */
function failedTrips(c: Comparison, r: FailRule): Trip[] {
  const failedBase = new Set(c.failedBase);
  const failedHead = new Set(c.failedHead);
  return c.compared
    .filter((id) => failedBase.has(id) !== failedHead.has(id))
    .map((id) => ({ rule: r.text, config: id, metric: r.metric, change: failedHead.has(id) ? "no ok run in head" : "no ok run in base" }));
}
