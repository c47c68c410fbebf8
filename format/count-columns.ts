/**
 * The count columns, declared once: each column of a counted capture log (runner/count) with its
 * unit, its meaning, the label pages give it and where the bytes report's tables and charts show
 * it. The runner's count row, `runs.tsv`, `medians.tsv`, `wirecost count`, `verify`, `compare`
 * and the pages all take the columns from here, so a new column is the counter's code, an entry
 * here, a test and the README's words (ARCHITECTURE.md, "What a byte count means").
 */

/** The unit a count column is in. */
export type CountUnit = "messages" | "round trips" | "events" | "bytes";

/** One count column's words and places. */
export interface CountColumnWords {
  /** Column name in `runs.tsv`, `medians.tsv` (`metric`) and `wirecost count`'s output. */
  name: CountColumn;
  /** Its unit. */
  unit: CountUnit;
  /** What it counts, one line (markdown). */
  meaning: string;
  /** How a table header or chart legend names it (markdown). */
  label: string;
  /**
   * The bytes report's table that shows it after the key columns (`http`: the HTTP table, `stdio`:
   * the stdio table); absent: the key columns show it, or only the configuration pages do.
   */
  table?: "http" | "stdio";
  /** True for the HTTP layers the bytes report's chart stacks per bar (they partition an HTTP exchange's bytes with the unattributed ones). */
  httpLayer?: true;
}

/** The declarations below, checked for shape (their names make {@link CountColumn}). */
const DECLARED = [
  { name: "jsonrpc_c2s", unit: "messages", label: "JSON-RPC C→S", meaning: "JSON-RPC messages client to server; a batch counts its members" },
  {
    name: "jsonrpc_s2c",
    unit: "messages",
    label: "JSON-RPC S→C",
    meaning: "JSON-RPC messages server to client, server requests on SSE streams included",
  },
  {
    name: "http_round_trips",
    unit: "round trips",
    label: "HTTP round trips",
    table: "http",
    meaning: "HTTP requests that got a final (non-1xx) response, a 202 to a notification included; the response's head is enough",
  },
  {
    name: "request_head_bytes",
    unit: "bytes",
    label: "Request head",
    table: "http",
    httpLayer: true,
    meaning: "HTTP request lines, headers and the blank line ending each head",
  },
  { name: "request_body_bytes", unit: "bytes", label: "Request body", table: "http", httpLayer: true, meaning: "HTTP request bodies, chunk framing excluded" },
  {
    name: "response_head_bytes",
    unit: "bytes",
    label: "Response head",
    table: "http",
    httpLayer: true,
    meaning: "HTTP status lines, headers and the blank line ending each head, 1xx included",
  },
  {
    name: "response_body_bytes",
    unit: "bytes",
    label: "Response body",
    table: "http",
    httpLayer: true,
    meaning: "HTTP response bodies, chunk framing excluded",
  },
  {
    name: "chunk_framing_bytes",
    unit: "bytes",
    label: "Chunk bytes",
    table: "http",
    httpLayer: true,
    meaning: "chunk-size lines, CRLFs after chunk data, last chunk, trailers, both directions",
  },
  { name: "sse_events", unit: "events", label: "SSE events", table: "http", meaning: "server-sent events dispatched (blocks with a data field)" },
  {
    name: "meta_bytes",
    unit: "bytes",
    label: "`_meta` bytes",
    meaning: "`_meta` values (key excluded) in client-to-server params and results, as sent",
  },
  {
    name: "newline_bytes",
    unit: "bytes",
    label: "Newline bytes",
    table: "stdio",
    meaning: "stdio: newline bytes ending complete lines, one per blank or JSON-RPC line; 0 for HTTP",
  },
  {
    name: "unattributed_bytes",
    unit: "bytes",
    label: "Unattributed bytes",
    meaning: "bytes attributed to no layer (not JSON-RPC on stdio, not HTTP/1.1), each run named by an anomaly",
  },
  { name: "c2s_bytes", unit: "bytes", label: "C→S bytes", meaning: "every logged byte client to server" },
  { name: "s2c_bytes", unit: "bytes", label: "S→C bytes", meaning: "every logged byte server to client" },
  { name: "total_bytes", unit: "bytes", label: "Total bytes", meaning: "every logged application byte, both directions" },
] as const satisfies ReadonlyArray<Omit<CountColumnWords, "name"> & { name: string }>;

/** A count column's name. */
export type CountColumn = (typeof DECLARED)[number]["name"];

/** The count columns in the order tables and TSV files show them. */
export const COUNT_COLUMN_WORDS: readonly CountColumnWords[] = DECLARED;

/** The count columns' names, in {@link COUNT_COLUMN_WORDS}' order. */
export const COUNT_COLUMNS: readonly CountColumn[] = COUNT_COLUMN_WORDS.map((c) => c.name);

/** One column's words by name. */
export function countColumnWords(name: CountColumn): CountColumnWords {
  return COUNT_COLUMN_WORDS.find((c) => c.name === name)!;
}

/** True when `name` is a count column. */
export function isCountColumn(name: string): name is CountColumn {
  return COUNT_COLUMNS.includes(name as CountColumn);
}
