/** The predictions section: each prediction's text, verdict, pre-registration and evidence rows. */
import { mdCell, mdCode } from "../../format/markdown.js";
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
  /** Per check: claim, expression, verdict, why it failed ("" unless it failed) and evidence table. */
  checks: Array<{ claim: string; expect: string; verdict: string; why: string; evidence: TableView | undefined }>;
  /** Why the prediction failed: how many configuration groups do not hold it (`2 of 30 configuration groups`); "" unless failed. */
  why: string;
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

type EvidenceRow = PredictionResult["checks"][number]["evidence"][number];

/** `2 of 30 configuration groups`: the false evidence rows of all tested ones; "" when none is false. */
function failedCounts(evidence: readonly EvidenceRow[]): string {
  const tested = evidence.filter((e) => e.outcome !== undefined);
  const failed = tested.filter((e) => e.outcome === false);
  return failed.length === 0 ? "" : `${formatInt(failed.length)} of ${formatInt(tested.length)} configuration groups`;
}

/** How many evidence rows are false, and the configurations of the first few, markdown; "" when none. */
function failedWhy(evidence: readonly EvidenceRow[]): string {
  const counts = failedCounts(evidence);
  if (counts === "") return "";
  const failed = evidence.filter((e) => e.outcome === false);
  const shown = failed.slice(0, 3).map((e) => e.configs.map(([a, id]) => `${mdCell(a)} = ${mdCode(id)}`).join(", "));
  return `${counts}: ${shown.join("; ")}${failed.length > shown.length ? "; …" : ""}`;
}

/** Build the views of judged predictions. */
export function predictionViews(results: readonly PredictionResult[], registration: ReadonlyMap<string, Registration>): PredictionView[] {
  return results.map((p) => ({
    id: mdCell(p.prediction.id),
    text: mdCell(p.prediction.text),
    verdict: p.verdict,
    registration: registrationLine(registration.get(p.prediction.id), p.prediction.registered),
    why: failedCounts(p.checks.flatMap((c) => c.evidence)),
    checks: p.checks.map((c) => ({
      claim: mdCell(c.check.claim),
      expect: mdCode(c.check.expect),
      verdict: c.verdict,
      why: failedWhy(c.evidence),
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
