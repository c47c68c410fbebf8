/**
 * Judge predictions against results: each check's expression is compiled by filtrex (a parsed
 * expression language; no `eval` of user text) and evaluated over the medians of the selected
 * configurations, once per group of configurations that agree on every axis no alias selects.
 */
import { compileExpression } from "filtrex";
import type { Results } from "../results/load.js";
import { compareTuples } from "../../format/order.js";
import type { Prediction, PredictionCheck } from "./load.js";

/** A verdict: `held`, `failed`, `untested` (no matching cells), `partly held` (checks disagree). */
export type Verdict = "held" | "failed" | "untested" | "partly held";

/** One evaluation of a check over one group of configurations. */
export interface Evidence {
  /** Alias → configuration id used. */
  configs: ReadonlyArray<readonly [alias: string, config: string]>;
  /** `alias.metric` → median read, for every name the expression uses. */
  values: ReadonlyArray<readonly [name: string, value: number | undefined]>;
  /** The expression's value: true, false, or undefined when a metric was missing. */
  outcome: boolean | undefined;
}

/** A check's verdict and its evidence rows. */
export interface CheckResult {
  /** The check as written. */
  check: PredictionCheck;
  /** `held` when every evaluation was true, `failed` when any was false, else `untested`. */
  verdict: Exclude<Verdict, "partly held">;
  /** Every evaluation, in group order. */
  evidence: readonly Evidence[];
}

/** A prediction's verdict from its checks. */
export interface PredictionResult {
  /** The prediction as written. */
  prediction: Prediction;
  /** Combined verdict (see {@link combineVerdicts}). */
  verdict: Verdict;
  /** One result per check. */
  checks: readonly CheckResult[];
}

/** Names `alias.metric` used by an expression (outside string literals), in first-seen order. */
export function expressionNames(expr: string): string[] {
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, "");
  return [...new Set([...bare.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)\b/g)].map((m) => m[1] ?? ""))];
}

/**
 * Combine check verdicts: all held → held; all failed, or failed with only untested → failed;
 * all untested (or no checks) → untested; held together with failed or untested → partly held.
 */
export function combineVerdicts(verdicts: ReadonlyArray<Exclude<Verdict, "partly held">>): Verdict {
  const has = (v: string): boolean => verdicts.includes(v as Exclude<Verdict, "partly held">);
  if (verdicts.length === 0 || verdicts.every((v) => v === "untested")) return "untested";
  if (verdicts.every((v) => v === "held")) return "held";
  if (!has("held")) return "failed";
  return "partly held";
}

/**
 * Evaluate one check.
 * @throws UserError-free: an expression that does not parse yields `untested` with no evidence
 *   and is reported by {@link checkExpression} before rendering
 */
export function evaluateCheck(check: PredictionCheck, results: Results): CheckResult {
  const selected = new Set([...check.cells.values()].flatMap((sel) => [...sel.keys()]));
  const free = results.axisNames.filter((a) => !selected.has(a));
  const groups = new Map<string, { tuple: string[]; byAlias: Map<string, string[]> }>();
  for (const [alias, sel] of check.cells) {
    for (const c of results.configs) {
      if (![...sel].every(([axis, value]) => c.axes.get(axis) === value)) continue;
      const tuple = free.map((a) => c.axes.get(a) ?? "");
      const key = JSON.stringify(tuple);
      const g = groups.get(key) ?? { tuple, byAlias: new Map<string, string[]>() };
      g.byAlias.set(alias, [...(g.byAlias.get(alias) ?? []), c.config]);
      groups.set(key, g);
    }
  }
  const fn = compileExpression(check.expect);
  const names = expressionNames(check.expect);
  const evidence: Evidence[] = [];
  const ordered = [...groups.values()].sort((a, b) => compareTuples(a.tuple, b.tuple));
  for (const g of ordered) {
    if (![...check.cells.keys()].every((alias) => g.byAlias.has(alias))) continue;
    let combos: Array<Array<readonly [string, string]>> = [[]];
    for (const alias of check.cells.keys()) {
      combos = combos.flatMap((combo) => (g.byAlias.get(alias) ?? []).map((config) => [...combo, [alias, config] as const]));
    }
    for (const combo of combos) {
      const data: Record<string, number> = {};
      const config = new Map(combo);
      const values = names.map((name): readonly [string, number | undefined] => {
        const [alias = "", metric = ""] = name.split(".");
        const v = results.medians.get(config.get(alias) ?? "")?.get(metric)?.median;
        if (v !== undefined) data[name] = v;
        return [name, v];
      });
      const missing = values.some(([, v]) => v === undefined);
      const out: unknown = missing ? undefined : fn(data);
      evidence.push({ configs: combo, values, outcome: typeof out === "boolean" ? out : out instanceof Error ? undefined : Boolean(out) });
    }
  }
  const outcomes = evidence.map((e) => e.outcome).filter((o): o is boolean => o !== undefined);
  const verdict = outcomes.length === 0 ? "untested" : outcomes.every((o) => o) ? "held" : "failed";
  return { check, verdict, evidence };
}

/**
 * Compile a check's expression to catch syntax errors before rendering.
 * @returns undefined when it compiles, else the parser's first line
 */
export function checkExpression(expr: string): string | undefined {
  try {
    compileExpression(expr);
    return undefined;
  } catch (err) {
    return (err as Error).message.split("\n")[0] ?? "does not parse";
  }
}

/** Judge every prediction against the results. */
export function judgePredictions(predictions: readonly Prediction[], results: Results): PredictionResult[] {
  return predictions.map((prediction) => {
    const checks = prediction.checks.map((c) => evaluateCheck(c, results));
    return { prediction, verdict: combineVerdicts(checks.map((c) => c.verdict)), checks };
  });
}
