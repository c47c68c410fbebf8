/** The predictions section: each prediction's text, verdict, pre-registration and evidence rows. */
import { mdCell, mdCode } from "../escape.js";
import { formatInt } from "../format.js";
import type { PredictionResult } from "../predictions/evaluate.js";
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

function registrationLine(r: Registration | undefined): string {
  if (r === undefined) return "pre-registration not checked";
  const stamp = (label: string, c: { hash: string; time: number } | undefined): string =>
    c === undefined ? "" : `; ${label} ${mdCode(c.hash.slice(0, 12))} at ${stampIso(c.time)}`;
  return `${r.preRegistered ? "**pre-registered**" : "**not pre-registered**"}: ${mdCell(r.reason)}${stamp("prediction added in", r.predictionCommit)}${stamp("results first committed in", r.resultsCommit)}`;
}

/** Build the views of judged predictions. */
export function predictionViews(results: readonly PredictionResult[], registration: ReadonlyMap<string, Registration>): PredictionView[] {
  return results.map((p) => ({
    id: mdCell(p.prediction.id),
    text: mdCell(p.prediction.text),
    verdict: p.verdict,
    registration: registrationLine(registration.get(p.prediction.id)),
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
