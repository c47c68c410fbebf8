/** Which configurations of a bytes report speak MCP, from what the runner recorded. */
import type { ConfigSummary, Results } from "../results/load.js";

/**
 * True when configuration `c` speaks MCP: the protocol recorded for its client (provenance.json
 * `clients.<client>.protocol`, client `raw` when there is no client axis) is `mcp`, or the results
 * record no protocols at all (written before they were recorded, when every client spoke MCP).
 * A client the record does not name does not speak MCP.
 */
export function speaksMcp(results: Results, c: ConfigSummary): boolean {
  const protocols = results.provenance.clientProtocols;
  return protocols === undefined || protocols.get(c.axes.get("client") ?? "raw") === "mcp";
}
