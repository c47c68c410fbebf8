/**
 * The words the pages use, defined once (README, "What a byte count means", and the flows of
 * runner/drivers/mcp/flows.ts say the same): each report's definitions section picks its terms
 * from {@link DEFINITIONS}, so a term reads the same on every page; the flows and clients a
 * results folder records (provenance.json) replace the standard words where they are recorded.
 * Text only, no figures.
 */
import { mdCell, mdCode } from "../../format/markdown.js";

/** Term (markdown) → definition (markdown), in the order a page lists them. */
export const DEFINITIONS = {
  flow: "what the client does after the session opens. `plain`: `tools/list`, then one `tools/call`; `ten`: `tools/list`, then ten `tools/call`; `input`: one `tools/call` whose handler asks the user one question (earlier revisions: the server sends `elicitation/create` and the client answers; 2026-07-28: an `input_required` result, then the call retried with the answer and any `requestState`); `state`: like `input`, the `requestState` as long as the `state` axis asks.",
  client:
    "who drives the session. `raw`: wirecost's own thin client, the same bytes for every server; `sdk`: the SDK's own client; `sdk-v1`, `sdk-v2`: the MCP TypeScript SDK's v1 or v2 client, against any server; `jsonrpc`: plain JSON-RPC requests to a server that does not speak MCP.",
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

/** A flow as the results record it (provenance.json `flows`): its description when declared, and its steps in words. */
export interface RecordedFlow {
  description?: string;
  steps: string;
}

/**
 * The brief line of the given flows (`` `plain`: `tools/list` and one `tools/call`; … ``): each
 * flow's brief, else its recorded description (or steps), else "not described in these results" —
 * never left out.
 * @param flows flow names in the order to show them
 * @param recorded the flows the results record (provenance `flows`)
 */
export function flowBriefLine(flows: readonly string[], recorded: ReadonlyMap<string, RecordedFlow> = new Map()): string {
  return flows
    .map((f) => {
      const r = recorded.get(f);
      const words = FLOW_BRIEF[f] ?? (r ? mdCell(r.description ?? `steps ${r.steps}`) : "not described in these results");
      return `${mdCode(f)}: ${words}`;
    })
    .join("; ");
}

/**
 * The flow definition of a page whose results record their flows (provenance `flows`): each flow
 * with its declared description and its steps, in name order; {@link DEFINITIONS}' `flow` when the
 * results record none (written before flows were recorded).
 */
export function flowDefinition(recorded: ReadonlyMap<string, RecordedFlow>): string {
  if (recorded.size === 0) return DEFINITIONS.flow;
  const each = [...recorded].map(
    ([name, f]) => `${mdCode(name)}: ${f.description ? `${mdCell(f.description)} (steps: ${mdCell(f.steps)})` : `steps ${mdCell(f.steps)}`}`,
  );
  return `what the client does, step by step, as the matrix declares it (open: the session opened the revision's way). ${each.join("; ")}.`;
}

/**
 * The client definition: wirecost's own clients ({@link DEFINITIONS}' `client`), then each client
 * the matrix declared (provenance `clients`), with its label.
 * @param declared declared client name → label
 */
export function clientDefinition(declared: ReadonlyMap<string, string>): string {
  if (declared.size === 0) return DEFINITIONS.client;
  const each = [...declared].map(([name, label]) => `${mdCode(name)}: ${mdCell(label)}, a client declared in the matrix and run as a command`);
  return `${DEFINITIONS.client.replace(/\.$/, "")}; ${each.join("; ")}.`;
}

/**
 * The client of a set of rows in words: `wirecost's raw driver`, `each SDK's own client`,
 * `wirecost's JSON-RPC client`, a declared client's label, else the name.
 * @param declared declared client name → label (provenance)
 */
export function clientWords(client: string, declared: ReadonlyMap<string, string>): string {
  const label = declared.get(client);
  if (label !== undefined) return `${mdCell(label)} (client ${mdCode(client)})`;
  if (client === "raw") return "wirecost's raw driver";
  if (client === "sdk") return "each SDK's own client";
  if (client === "sdk-v1" || client === "sdk-v2") return `the MCP TypeScript SDK's ${client.slice(4)} client`;
  if (client === "jsonrpc") return "wirecost's JSON-RPC client";
  return `client ${mdCode(client)}`;
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
 * @param own definitions (markdown) that replace {@link DEFINITIONS}' for this page: the flows and
 *   clients its results record ({@link flowDefinition}, {@link clientDefinition})
 */
export function definitionItems(terms: readonly Term[], own: Partial<Record<Term, string>> = {}): string[] {
  return terms.map((t) => `**${LABELS[t]}**: ${own[t] ?? DEFINITIONS[t]}`);
}
