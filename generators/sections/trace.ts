/**
 * One run's trace: the per-message "where the bytes went" table (from `messages.tsv`) and the
 * decoded, trimmed exchange (message order, protocol header names and content types, all from
 * `messages.tsv`).
 */
import { formatInt } from "../format.js";
import { ENCODINGS } from "../../format/tokens.js";
import { firstLoggedRepeat, readMessages, type MessageRow } from "../results/extra.js";
import type { Results } from "../results/load.js";
import { tableView, type Column, type TableView } from "../table.js";

/** A configuration's trace, ready for a template. */
export interface TraceView {
  /** Repeat the trace was read from. */
  repeat: number;
  /** Per-message table, with a final `total` row. */
  table: TableView;
  /** Exchange lines, plain text (put them in a code block via `mdFence`). */
  exchange: string[];
  /** Raw message rows, for charts. */
  messages: readonly MessageRow[];
  /** True when the table has the tokens column (the results counted tokens per message). */
  tokens: boolean;
}

/** Header names worth showing in an exchange line: the protocol's own headers. */
const PROTOCOL_HEADER = /^(mcp-|last-event-id$|a2a-)/i;

/**
 * Header of the `_meta` bytes column, left out for configurations that do not speak MCP. One
 * definition everywhere: the count's `meta_bytes` (README, "What a byte count means"), `_meta`
 * spans in client → server messages only, so the trace's total equals the metric.
 */
const META_HEADER = "`_meta` bytes C→S";

type TraceRow = MessageRow | { total: true; rows: readonly MessageRow[] };
const sum = (r: TraceRow, f: (m: MessageRow) => number): number => ("total" in r ? r.rows.reduce((s, m) => s + f(m), 0) : f(r));
const COLUMNS: ReadonlyArray<Column<TraceRow>> = [
  { header: "Seq", align: "right", cell: (r) => ("total" in r ? "total" : formatInt(r.seq)) },
  { header: "Conn", align: "right", cell: (r) => ("total" in r ? "" : formatInt(r.conn)) },
  { header: "Dir", align: "left", cell: (r) => ("total" in r ? "" : r.dir === "c2s" ? "C→S" : "S→C") },
  { header: "Part", align: "left", cell: (r) => ("total" in r ? "" : r.kind === "http-only" ? r.startLine : r.kind) },
  { header: "Method", align: "left", cell: (r) => ("total" in r ? "" : r.method) },
  { header: "Head bytes", align: "right", cell: (r) => formatInt(sum(r, (m) => m.headBytes)) },
  { header: "Body bytes", align: "right", cell: (r) => formatInt(sum(r, (m) => m.bodyBytes)) },
  { header: "Chunk bytes", align: "right", cell: (r) => formatInt(sum(r, (m) => m.framingBytes)) },
  { header: "Newline bytes", align: "right", cell: (r) => formatInt(sum(r, (m) => m.newlineBytes)) },
  {
    header: META_HEADER,
    align: "right",
    cell: (r) => ("total" in r || r.dir === "c2s" ? formatInt(sum(r, (m) => (m.dir === "c2s" ? m.metaBytes : 0))) : "—"),
  },
  {
    header: "All bytes",
    align: "right",
    cell: (r) => formatInt(sum(r, (m) => m.headBytes + m.bodyBytes + m.framingBytes + m.newlineBytes + m.unattributedBytes)),
  },
];

/** JSON-RPC rows: the kinds that carry a message's own text (and its tokens). */
const JSONRPC_KINDS: readonly string[] = ["request", "notification", "result", "error"];

/**
 * The tokens column (format/messages.ts `tokens_<encoding>`): per JSON-RPC message its tokens
 * under each encoding, `not counted` where the results do not hold them; the total sums every
 * message's, `—` when one is not counted.
 */
function tokensColumn(): Column<TraceRow> {
  const text = (m: MessageRow): string | undefined => (m.tokens === undefined ? undefined : ENCODINGS.map((e) => formatInt(m.tokens![e])).join(" / "));
  return {
    header: `Tokens (${ENCODINGS.join(" / ")})`,
    align: "right",
    cell: (r) => {
      if (!("total" in r)) return JSONRPC_KINDS.includes(r.kind) ? (text(r) ?? "not counted") : "";
      const messages = r.rows.filter((m) => JSONRPC_KINDS.includes(m.kind));
      if (messages.some((m) => m.tokens === undefined)) return "—";
      return ENCODINGS.map((e) => formatInt(messages.reduce((sum, m) => sum + m.tokens![e], 0))).join(" / ");
    },
  };
}

/** One unit of the exchange: an HTTP message (head and the JSON-RPC messages in its body) or one stdio line. */
interface Unit {
  dir: string;
  head: MessageRow | undefined;
  messages: MessageRow[];
}

/** Group a trace's rows into exchange units: an HTTP message (its head and the JSON-RPC messages in its body) or one stdio line. */
function exchangeUnits(messages: readonly MessageRow[]): Unit[] {
  const units: Unit[] = [];
  const open = new Map<string, Unit>();
  for (const m of [...messages].sort((a, b) => a.seq - b.seq)) {
    const key = `${m.conn}:${m.dir}`;
    if (m.kind === "http-only") {
      const unit: Unit = { dir: m.dir, head: m, messages: [] };
      units.push(unit);
      open.set(key, unit);
      continue;
    }
    const unit = open.get(key);
    if (unit !== undefined) unit.messages.push(m);
    else units.push({ dir: m.dir, head: undefined, messages: [m] });
  }
  return units;
}

/** Decode the exchange lines (`client → POST tools/list [MCP-Protocol-Version, _meta]`, …). */
export function exchangeLines(messages: readonly MessageRow[]): string[] {
  const units = exchangeUnits(messages);
  return units.map((u) => {
    const who = u.dir === "c2s" ? "client →" : "server →";
    const what = u.messages.map((m) => (m.kind === "request" || m.kind === "notification" ? m.method : `${m.method} ${m.kind}`.trim()));
    const meta = u.messages.some((m) => m.dir === "c2s" && m.metaBytes > 0) ? ["_meta"] : [];
    if (u.head === undefined) {
      const tags = meta.length ? ` [${meta.join(", ")}]` : "";
      return `${who} ${what.join(", ") || u.messages.map((m) => m.kind).join(", ")}${tags}`;
    }
    const headerNames = u.head.headerNames.filter((n) => PROTOCOL_HEADER.test(n));
    if (u.dir === "c2s") {
      const verb = u.head.startLine.split(" ")[0] ?? "";
      const tags = [...headerNames, ...meta];
      return `${who} ${verb} ${what.join(", ")}${tags.length ? ` [${tags.join(", ")}]` : ""}`.replace(/ +/g, " ");
    }
    const status = u.head.startLine.replace(/^HTTP\/1\.[01] /, "HTTP ");
    const type = u.head.contentType;
    const body = what.length ? `: ${what.join(", ")}` : "";
    return `${who} ${status}${type ? `, ${type}` : ""}${body}`;
  });
}

/** HTTP's own columns: a stdio session has no connection, head or chunk framing. */
const HTTP_ONLY_HEADERS: readonly string[] = ["Conn", "Head bytes", "Chunk bytes"];

/**
 * The columns for a session's messages: over stdio (no row with head or chunk framing bytes, no
 * HTTP-only part) HTTP's columns are left out and a message's bytes are called that, not body
 * bytes (a stdio message is a line, JSON-RPC text and its newline).
 */
function stdioColumns(messages: readonly MessageRow[], columns: ReadonlyArray<Column<TraceRow>>): ReadonlyArray<Column<TraceRow>> {
  const http = messages.some((m) => m.headBytes > 0 || m.framingBytes > 0 || m.kind === "http-only");
  if (http) return columns;
  return columns.filter((c) => !HTTP_ONLY_HEADERS.includes(c.header)).map((c) => (c.header === "Body bytes" ? { ...c, header: "Message bytes" } : c));
}

/**
 * Build a configuration's trace from its first logged (preferably ok) repeat.
 * @param options.meta show the `_meta` bytes column (an MCP field; default true)
 * @returns undefined when the configuration has no `messages.tsv` in the results
 */
export function traceView(results: Results, config: string, options: { meta?: boolean } = {}): TraceView | undefined {
  const repeat = firstLoggedRepeat(results.dir, config, results.runs);
  if (repeat === undefined) return undefined;
  const messages = readMessages(results.dir, config, repeat);
  if (messages === undefined) return undefined;
  const rows: TraceRow[] = [...messages, { total: true, rows: messages }];
  const shown = stdioColumns(messages, options.meta === false ? COLUMNS.filter((c) => c.header !== META_HEADER) : COLUMNS);
  // Results written before tokens were counted hold none: the column is left out, not shown empty.
  const tokens = messages.some((m) => m.tokens !== undefined);
  const columns = tokens ? [...shown, tokensColumn()] : shown;
  return { repeat, table: tableView(columns, rows), exchange: exchangeLines(messages), messages, tokens };
}

/** One arrow of a sequence diagram: its direction, its label (the exchange line without the lane) and its bytes by layer. */
export interface SequenceStep {
  /** `c2s` (client to server) or `s2c`. */
  dir: string;
  /** What the arrow carries, e.g. `POST tools/call [Mcp-Session-Id]` or `HTTP 200 OK, text/event-stream: tools/call result`. */
  label: string;
  /** Bytes of the unit by layer (head, body, chunk framing, newline), as in `messages.tsv`. */
  head: number;
  body: number;
  /** Of `body`, the bytes outside JSON-RPC messages (SSE event fields and blank lines when `sse`). */
  bodyOutside: number;
  /** True when the unit's messages came as SSE events. */
  sse: boolean;
  framing: number;
  newline: number;
}

/**
 * The steps of a configuration's sequence diagram: one per HTTP message or stdio line, labelled as
 * its exchange line, with the unit's bytes per layer summed from `messages.tsv`.
 */
export function sequenceSteps(messages: readonly MessageRow[]): SequenceStep[] {
  const lines = exchangeLines(messages);
  return exchangeUnits(messages).map((u, i) => {
    const rows = u.head === undefined ? u.messages : [u.head, ...u.messages];
    const add = (f: (m: MessageRow) => number): number => rows.reduce((s, m) => s + f(m), 0);
    return {
      dir: u.dir,
      label: (lines[i] ?? "").replace(/^(client|server) → /, ""),
      head: add((m) => m.headBytes),
      body: add((m) => m.bodyBytes),
      bodyOutside: u.head?.bodyBytes ?? 0,
      sse: u.messages.some((m) => m.sse),
      framing: add((m) => m.framingBytes),
      newline: add((m) => m.newlineBytes),
    };
  });
}
