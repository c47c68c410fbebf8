/**
 * Which configurations had anomalies (what the counter found odd on the wire, README
 * "Anomalies"), from summary.tsv's `anomalies` column: a table of those configurations with their
 * codes and counts summed over the ok repeats, or the count of configurations that had none.
 */
import { formatInt } from "../format.js";
import type { Results } from "../results/load.js";
import { tableView, type TableView } from "../table.js";

/** The report's anomalies section, ready for a template. */
export interface AnomalyView {
  /** Configurations with at least one anomaly (with the file name of each one's page), or undefined when none had any. */
  table: TableView | undefined;
  /** How many configurations had none, and of how many with an ok repeat. */
  clean: string;
  /** Configurations with an ok repeat. */
  measured: string;
  /** False for results written before anomalies were counted: the page says so instead of "none". */
  recorded: boolean;
}

/** Build the anomalies section of a bytes report. */
export function anomalyView(results: Results, configPage: (config: string) => string): AnomalyView {
  const measured = results.configs.filter((c) => c.repeatsOk > 0);
  const odd = measured.filter((c) => c.anomalies.size > 0);
  return {
    table: odd.length
      ? tableView(
          [
            { header: "Configuration", align: "left", cell: (c: (typeof odd)[number]) => c.config },
            { header: "Page", align: "left", cell: (c: (typeof odd)[number]) => `${configPage(c.config)}.md` },
            {
              header: "Anomalies (code × count over the ok repeats)",
              align: "left",
              cell: (c: (typeof odd)[number]) => [...c.anomalies].map(([code, n]) => `${code} × ${formatInt(n)}`).join(", "),
            },
          ],
          odd,
        )
      : undefined,
    clean: `${formatInt(measured.length - odd.length)} of ${formatInt(measured.length)}`,
    measured: formatInt(measured.length),
    recorded: results.anomaliesRecorded,
  };
}
