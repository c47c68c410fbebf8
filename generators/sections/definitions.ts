/**
 * The words the pages use, defined once (README, "What a byte count means", and the flows of
 * runner/drivers/mcp/flows.ts say the same): each report's definitions section picks its terms
 * from {@link DEFINITIONS}, so a term reads the same on every page. Text only, no figures.
 */

/** Term (markdown) → definition (markdown), in the order a page lists them. */
export const DEFINITIONS = {
  flow: "what the client does after the session opens. `plain`: `tools/list`, then one `tools/call`; `ten`: `tools/list`, then ten `tools/call`; `input`: one `tools/call` whose handler asks the user one question (earlier revisions: the server sends `elicitation/create` and the client answers; 2026-07-28: an `input_required` result, then the call retried with the answer and any `requestState`); `state`: like `input`, the `requestState` as long as the `state` axis asks.",
  client:
    "who drives the session. `raw`: wirecost's own thin client, the same bytes for every server; `sdk`: the SDK's own client; `jsonrpc`: plain JSON-RPC requests to a server that does not speak MCP.",
  revision: "the MCP protocol revision the client asks for (its date).",
  layer:
    "where a byte sits on the wire. HTTP: the request or response head (start line and headers), the body (without chunk framing), the chunk framing; inside bodies, SSE events and JSON-RPC messages (one JSON-RPC object each); stdio: one line per message and its newline byte.",
  meta: "`_meta` bytes: the spans of `_meta` values in client → server messages (the `params` of requests and notifications, and results the client returns); the same definition in the tables, the traces and the predictions.",
  repeat:
    "one fresh run of a configuration (a new server process and session); a byte figure is the median over the ok repeats, and repeats whose streams are byte-identical are said to be so.",
  trial:
    "one timed run of a configuration (a fresh process, warm-up discarded); a timing figure is the median over trials, with its interval beside it: from 5 trials on the percentile bootstrap 95 % interval of the median (10,000 seeded resamples, so a page renders the same twice; with exactly 5 trials it equals the min–max), with fewer the trials' min–max.",
  floor: "a server that answers every request with a pre-baked constant and does no protocol work: what the machine and the HTTP stack cost on their own.",
  percentile: "the latency that half of the calls (p50) and 95 % of the calls (p95) stay under, per trial.",
  busy: "a trial that started with a 1-minute load average above the cores it was allowed; its figures are flagged.",
} as const;

/** Each flow in a few words, for a line under a table (the full words: {@link DEFINITIONS}'s `flow`). */
export const FLOW_BRIEF: Readonly<Record<string, string>> = {
  plain: "`tools/list` and one `tools/call`",
  input: "one `tools/call` that asks the user one question",
  ten: "`tools/list` and ten `tools/call`",
  state: "`input` with a `requestState` of the `state` axis's size",
};

/**
 * The brief line of the given flows (`` `plain`: `tools/list` and one `tools/call`; … ``), those
 * without a brief left out.
 * @param flows flow names in the order to show them
 */
export function flowBriefLine(flows: readonly string[]): string {
  return flows.flatMap((f) => (FLOW_BRIEF[f] === undefined ? [] : [`\`${f}\`: ${FLOW_BRIEF[f]}`])).join("; ");
}

/** A term of {@link DEFINITIONS}. */
export type Term = keyof typeof DEFINITIONS;

/** Labels of the terms as the definitions list shows them. */
const LABELS: Record<Term, string> = {
  flow: "Flow",
  client: "Client",
  revision: "Revision",
  layer: "Layer",
  meta: "`_meta` bytes",
  repeat: "Repeat",
  trial: "Trial",
  floor: "Floor",
  percentile: "p50, p95",
  busy: "Busy machine",
};

/**
 * The definitions a page shows, as markdown list items (`**Flow**: …`), in the given order.
 * @param terms the page's terms
 */
export function definitionItems(terms: readonly Term[]): string[] {
  return terms.map((t) => `**${LABELS[t]}**: ${DEFINITIONS[t]}`);
}
