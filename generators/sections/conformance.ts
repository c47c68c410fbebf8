/**
 * "Conformance beside the bytes": the wire report's section from `conformance.tsv`
 * (format/conformance.ts, written by `wirecost conformance`): per target, the official MCP
 * conformance suite's scenarios passed, failed and not applicable; each failure with its message;
 * and, for the scenarios wirecost's catalog cannot serve, the reason and what each SDK answered
 * (the same message from several targets listed once). Every text from the suite or the wire is
 * escaped (table cells by `tableView`, the rest by `mdCode`).
 */
import type { ConformanceRow } from "../../format/conformance.js";
import { mdCode } from "../../format/markdown.js";
import { shellQuote } from "../../format/shell.js";
import { formatInt } from "../format.js";
import { DEFAULT_MATRIX } from "../reproduce.js";
import type { Results } from "../results/load.js";
import { tableView, type TableView } from "../table.js";

/** What the template shows (templates/sections/conformance.md.njk); strings are markdown source. */
export interface ConformanceView {
  /** The suite and the Node.js that ran it, as inline code (`@modelcontextprotocol/conformance 0.1.16`). */
  suite: string;
  node: string;
  /** Per target: its SDK, scenarios passed, failed, not applicable, and the passed ones named. */
  counts: TableView;
  /** Each failed scenario with its message; undefined when none failed. */
  failures: TableView | undefined;
  /** Each not-applicable scenario's reason and each distinct answer, with the targets that gave it. */
  notApplicable: TableView | undefined;
  /** The command that runs the suite again into a scratch folder, as inline code. */
  command: string;
}

/**
 * The conformance section of a wire report, or undefined when its results folder has no
 * `conformance.tsv`.
 * @param labelOf a target's label on the page
 */
export function conformanceView(results: Results, labelOf: (target: string) => string): ConformanceView | undefined {
  const rows = results.conformance;
  if (rows === undefined || rows.length === 0) return undefined;
  const targets = [...new Set(rows.map((r) => r.target))];
  const of = (target: string) => rows.filter((r) => r.target === target);
  const count = (list: readonly ConformanceRow[], verdict: ConformanceRow["verdict"]) => list.filter((r) => r.verdict === verdict).length;
  const counts = tableView(
    [
      { header: "Server", align: "left", cell: (t: string) => labelOf(t) },
      { header: "SDK", align: "left", cell: (t) => `${of(t)[0]!.package} ${of(t)[0]!.version}`.trim() },
      { header: "Passed", align: "right", cell: (t) => formatInt(count(of(t), "passed")) },
      { header: "Failed", align: "right", cell: (t) => formatInt(count(of(t), "failed")) },
      { header: "Not applicable", align: "right", cell: (t) => formatInt(count(of(t), "not applicable")) },
      {
        header: "Scenarios passed",
        align: "left",
        cell: (t) =>
          of(t)
            .filter((r) => r.verdict === "passed")
            .map((r) => r.scenario)
            .join(", "),
      },
    ],
    targets,
  );
  const failed = rows.filter((r) => r.verdict === "failed");
  const failures = failed.length
    ? tableView(
        [
          { header: "Server", align: "left", cell: (r: ConformanceRow) => labelOf(r.target) },
          { header: "Scenario", align: "left", cell: (r) => r.scenario },
          { header: "Checks passed / failed", align: "right", cell: (r) => `${formatInt(r.checksPassed)} / ${formatInt(r.checksFailed)}` },
          { header: "Message", align: "left", cell: (r) => r.message },
        ],
        failed,
      )
    : undefined;
  const answers = new Map<string, { scenario: string; reason: string; message: string; targets: string[] }>();
  for (const r of rows.filter((x) => x.verdict === "not applicable")) {
    const key = JSON.stringify([r.scenario, r.reason, r.message]);
    const a = answers.get(key) ?? { scenario: r.scenario, reason: r.reason, message: r.message, targets: [] };
    a.targets.push(r.target);
    answers.set(key, a);
  }
  const notApplicable = answers.size
    ? tableView(
        [
          { header: "Scenario", align: "left", cell: (a: { scenario: string; reason: string; message: string; targets: string[] }) => a.scenario },
          { header: "Not applicable because", align: "left", cell: (a) => a.reason },
          { header: "The suite's message", align: "left", cell: (a) => a.message },
          { header: "Servers", align: "left", cell: (a) => (a.targets.length === targets.length ? "every server" : a.targets.join(", ")) },
        ],
        [...answers.values()],
      )
    : undefined;
  const first = rows[0]!;
  return {
    suite: mdCode(first.suite),
    node: mdCode(first.node),
    counts,
    failures,
    notApplicable,
    command: mdCode(
      `npx wirecost conformance${results.provenance.matrix.file === DEFAULT_MATRIX ? "" : ` ${shellQuote(results.provenance.matrix.file)}`} --results /tmp/wirecost-conformance`,
    ),
  };
}
