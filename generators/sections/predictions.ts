/** The predictions section: each prediction's text, verdict, pre-registration and evidence rows. */
import { mdCell, mdCode } from "../escape.js";
import { formatInt } from "../format.js";
import type { PredictionResult } from "../predictions/evaluate.js";
import type { Prediction } from "../predictions/load.js";
import { stampIso, type Registration } from "../predictions/registration.js";
import { tableView, type TableView } from "../table.js";

/** One prediction ready for the template (all strings markdown-safe). */
export interface PredictionView {
  /** Id, escaped. */
  id: string;
  /** Text, escaped. */
  text: string;
  /** Verdict word. */
  verdict: string;
  /** Pre-registration sentence. */
  registration: string;
  /** Per check: claim, expression, verdict and evidence table. */
  checks: Array<{ claim: string; expect: string; verdict: string; evidence: TableView | undefined }>;
}

/**
 * The registration label: what predictions.yaml declares (`registered:`) and what git shows. A
 * prediction declared written after trial runs is never called pre-registered, whatever git says;
 * one declared before the run is pre-registered only when git agrees.
 */
function registrationLine(r: Registration | undefined, declared: Prediction["registered"]): string {
  const stamp = (label: string, c: { hash: string; time: number } | undefined): string =>
    c === undefined ? "" : `; ${label} ${mdCode(c.hash.slice(0, 12))} at ${stampIso(c.time)}`;
  const git =
    r === undefined
      ? "git check not made"
      : `git check: ${mdCell(r.reason)}${stamp("prediction added in", r.predictionCommit)}${stamp("results first committed in", r.resultsCommit)}`;
  if (declared === "after-trial-runs") return `**written after trial runs** (declared in the predictions file); ${git}`;
  if (declared === "before-run")
    return r?.preRegistered
      ? `**pre-registered** (declared before the run, and git agrees); ${git}`
      : `**not shown to be pre-registered** (declared before the run, git does not confirm it); ${git}`;
  if (r === undefined) return "pre-registration not checked (not declared in the predictions file, no git check)";
  return `${r.preRegistered ? "**pre-registered**" : "**not pre-registered**"} (not declared in the predictions file: from git alone); ${git}`;
}

/** Build the views of judged predictions. */
export function predictionViews(results: readonly PredictionResult[], registration: ReadonlyMap<string, Registration>): PredictionView[] {
  return results.map((p) => ({
    id: mdCell(p.prediction.id),
    text: mdCell(p.prediction.text),
    verdict: p.verdict,
    registration: registrationLine(registration.get(p.prediction.id), p.prediction.registered),
    checks: p.checks.map((c) => ({
      claim: mdCell(c.check.claim),
      expect: mdCode(c.check.expect),
      verdict: c.verdict,
      evidence:
        c.evidence.length === 0
          ? undefined
          : tableView(
              [
                { header: "Configurations", align: "left", cell: (e) => e.configs.map(([a, id]) => `${a} = ${id}`).join("; ") },
                {
                  header: "Values (medians)",
                  align: "left",
                  cell: (e) => e.values.map(([n, v]) => `${n} = ${v === undefined ? "missing" : formatInt(v)}`).join("; "),
                },
                { header: "Outcome", align: "left", cell: (e) => (e.outcome === undefined ? "untested" : e.outcome ? "true" : "false") },
              ],
              c.evidence,
            ),
    })),
  }));
}
