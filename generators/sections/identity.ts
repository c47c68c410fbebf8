/** The "identity of repeats" line for one configuration (ARCHITECTURE.md, "Identity of repeats"). */
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatInt } from "../format.js";
import type { ConfigSummary } from "../results/load.js";

/**
 * Describe a configuration's repeats as one line of markdown, e.g.
 * `20 of 20 repeats ok; counts identical: yes; bytes identical: no (varying: \`date\`)`.
 * Field names from the results are shown as code spans, so any character is safe.
 * @returns markdown source (inline, no line breaks)
 */
export function identityLine(summary: ConfigSummary): string {
  const yesNo = (b: boolean): string => (b ? "yes" : "no");
  const ok = `${formatInt(summary.repeatsOk)} of ${formatInt(summary.repeats)} repeats ok`;
  const varying = summary.varyingFields.length === 0 ? "" : ` (varying: ${summary.varyingFields.map((f) => mdCode(f) || mdCell("(empty)")).join(", ")})`;
  return `${ok}; counts identical: ${yesNo(summary.countIdentical)}; bytes identical: ${yesNo(summary.bytesIdentical)}${varying}`;
}
