/**
 * `conformance.tsv` of a wire results folder: the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, its `server` mode) run against each MCP target's
 * Streamable HTTP server by `wirecost conformance` (runner/conformance/), one row per target and
 * scenario; the wire report shows it as its conformance section (generators/sections/conformance.ts).
 *
 * Columns, in order: `target package version suite node scenario verdict checks_passed
 * checks_failed reason message`:
 * - `package`, `version`: the target's SDK package and version (from the matrix);
 * - `suite`: the suite's package and version (`@modelcontextprotocol/conformance 0.1.16`), `node`:
 *   the Node.js that ran it (`v22.23.5`);
 * - `verdict`: `passed` (every check of the scenario succeeded), `failed` (a check failed or the
 *   scenario could not run, in a scenario the target's catalog serves) or `not applicable` (a check
 *   failed in a scenario that needs what the catalog does not serve: `reason` says what);
 * - `checks_passed`, `checks_failed`: the suite's checks with status SUCCESS and FAILURE;
 * - `message`: the failed checks' messages, joined with `; ` ("" when none failed). Text from the
 *   suite and the wire: escape it before it goes into a page.
 */
import { existsSync } from "node:fs";
import { UserError } from "./errors.js";
import { columnIndex, field, readTsv, toTsv, type TsvCell } from "./tsv.js";

/** The columns of `conformance.tsv`, in order. */
export const CONFORMANCE_COLUMNS = [
  "target",
  "package",
  "version",
  "suite",
  "node",
  "scenario",
  "verdict",
  "checks_passed",
  "checks_failed",
  "reason",
  "message",
] as const;

/** What became of one scenario against one target. */
export const VERDICTS = ["passed", "failed", "not applicable"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** One row of `conformance.tsv` (see the module docstring for each field). */
export interface ConformanceRow {
  target: string;
  package: string;
  version: string;
  suite: string;
  node: string;
  scenario: string;
  verdict: Verdict;
  /** Checks with status SUCCESS and FAILURE (the suite's INFO and WARNING checks are not counted). */
  checksPassed: number;
  checksFailed: number;
  /** Why a scenario is not applicable (what the catalog does not serve); "" otherwise. */
  reason: string;
  /** The failed checks' messages joined with `; `; "" when none failed. */
  message: string;
}

/** `conformance.tsv` text for `rows` (in the order given). */
export function conformanceTsv(rows: readonly ConformanceRow[]): string {
  return toTsv(
    CONFORMANCE_COLUMNS,
    rows.map((r): TsvCell[] => [r.target, r.package, r.version, r.suite, r.node, r.scenario, r.verdict, r.checksPassed, r.checksFailed, r.reason, r.message]),
  );
}

/**
 * Read `conformance.tsv` at `file`; undefined when the folder has none.
 * @throws UserError naming the file, line and column when it is malformed (format/tsv.ts), or
 *   `file:line` for a verdict other than passed, failed or not applicable
 */
export function readConformance(file: string): ConformanceRow[] | undefined {
  if (!existsSync(file)) return undefined;
  const table = readTsv(file, "run the suite again with npx wirecost conformance");
  const col = columnIndex(table, CONFORMANCE_COLUMNS);
  return table.rows.map((row) => {
    const s = (name: (typeof CONFORMANCE_COLUMNS)[number]) => field(row, col(name));
    const n = (name: (typeof CONFORMANCE_COLUMNS)[number]) => Number(field(row, col(name)) || 0);
    const verdict = s("verdict");
    if (!(VERDICTS as readonly string[]).includes(verdict))
      throw new UserError(`${file}:${row.line}: verdict "${verdict}" is not one of ${VERDICTS.join(", ")} — run the suite again with npx wirecost conformance`);
    return {
      target: s("target"),
      package: s("package"),
      version: s("version"),
      suite: s("suite"),
      node: s("node"),
      scenario: s("scenario"),
      verdict: verdict as Verdict,
      checksPassed: n("checks_passed"),
      checksFailed: n("checks_failed"),
      reason: s("reason"),
      message: s("message"),
    };
  });
}
