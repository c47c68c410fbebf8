/**
 * Identity of repeats (ARCHITECTURE.md, "Identity of repeats"): are the repeats of one configuration
 * byte-identical (equal {@link streamDigest}s), and where they are not, which fields varied.
 *
 * Repeat k is aligned with repeat 1 exchange by exchange (an HTTP request with the responses to
 * it): by request line and the method and id of the request's first JSON-RPC message, then
 * those left over by request line and method, then the rest in log order, whichever connection
 * carried them, since a client may spread the same requests over its connections differently,
 * and start a concurrent one (an SSE GET) at another moment, from run to run. Within aligned exchanges, the n-th SSE event with the n-th,
 * the n-th JSON-RPC message with the n-th (stdio: the n-th line with the n-th). Connections that
 * carried no bytes are left out, as the stream digest leaves them out. Each difference is named:
 *
 * | name | what differed |
 * | --- | --- |
 * | `date`, `mcp-session-id`, `host` … | an HTTP header (or trailer), lower-case name: value, presence or count |
 * | `request line`, `status line` | the start line of an aligned HTTP message |
 * | `framing: content-length vs chunked` | how a body was delimited (kinds of repeat 1 then repeat k) |
 * | `framing: chunk sizes` | both chunked, same body, different chunk boundaries |
 * | `result._meta.x`, `params.y`, `id` … | a JSON path inside a JSON-RPC message (keys that are not identifiers as `["a.b"]`, array items as `[3]`) |
 * | `json formatting` | same JSON value, different text (whitespace, key order, escapes) |
 * | `sse id`, `sse event`, `sse retry`, `sse framing` | an SSE field, or comments / line ends around the data |
 * | `body` | a body that is not JSON differed |
 * | `header formatting` | same start line and header values, other head bytes (name case, spacing, order) |
 * | `connections` | the number of connections that carried bytes, or which exchanges each one carried |
 * | `exchange order` | the same exchanges on the same connections, in another order |
 * | `http messages`, `sse events`, `jsonrpc messages`, `stdio lines` | counts differ (alignment stops there) |
 * | `stdio partial line` | bytes after the last newline differ |
 * | `unparsable stream` | a stream that the HTTP/1.1 parser rejects differed |
 * | `bytes (unlocated)` | the stream digests differ but no named part does (should not happen: please report it) |
 *
 * Reuses the wire parsers (Http1StreamParser, SseParser) and the counters' (scanJsonRpc,
 * splitStdioLines).
 */
import { existsSync } from "node:fs";
import { readCaptureLog, reassemble, seqAtOffset, type CaptureRecord, type Direction, type Stream } from "../capture/log.js";
import { Http1StreamParser, headerValue, type HttpMessage } from "../wire/http1.js";
import { streamDigest } from "../count/index.js";
import { skipWs } from "../count/json-scan.js";
import { scanJsonRpc } from "../count/jsonrpc.js";
import { parseSseEvents, type SseEvent } from "../wire/sse.js";
import { splitStdioLines } from "../count/stdio.js";

/** A repeat's capture log: a file path, or its records. */
export type RepeatLog = string | readonly CaptureRecord[];

/** What the repeats of one configuration have in common. */
export interface RepeatIdentity {
  /** Repeats compared. */
  repeats: number;
  /** True when every repeat's {@link streamDigest} equals the first's (true for 0 or 1 repeats). */
  bytesIdentical: boolean;
  /** sha256 hex stream digest of each repeat, in the order given. */
  digests: string[];
  /** Names of the fields that differ between repeat 1 and any other repeat: sorted, de-duplicated; empty when bytes are identical. */
  varyingFields: string[];
}

/**
 * Compare the capture logs of one configuration's repeats (ok runs).
 * @param logs each repeat's log (path or records), repeat 1 first
 * @param transport how the bytes travelled: `http` (relay logs) or `stdio` (tap logs)
 * @returns digests, bytes identity and the varying fields (see the module doc for the names)
 * @throws CaptureLogError (or the fs error) when a log path cannot be read or parsed; a stream
 *   that is not HTTP/1.1 does not throw (it is named `unparsable stream` if it differs)
 */
export function compareRepeats(logs: readonly RepeatLog[], transport: "http" | "stdio"): RepeatIdentity {
  const records = logs.map((l) => (typeof l === "string" ? readCaptureLog(l) : l));
  const digests = records.map((r) => streamDigest(r));
  const bytesIdentical = digests.every((d) => d === digests[0]);
  const fields = new Set<string>();
  if (!bytesIdentical) {
    const views = records.map((r) => (transport === "http" ? httpView(r) : stdioView(r)));
    const base = views[0]!;
    for (let k = 1; k < views.length; k++) if (digests[k] !== digests[0]) diffNodes(base, views[k]!, fields);
    if (fields.size === 0) fields.add("bytes (unlocated)"); // cannot happen when the views cover every byte
  }
  return { repeats: logs.length, bytesIdentical, digests, varyingFields: [...fields].sort() };
}

/** A comparable tree: named leaves (compared as text) and aligned lists of children. */
type Node =
  | { kind: "leaf"; name: string; value: string }
  | { kind: "list"; name: string; items: Node[] }
  | { kind: "group"; items: Node[] }
  | { kind: "exchanges"; conns: number; items: Exchange[] }
  | { kind: "json"; text: Buffer }
  | { kind: "http"; startLineName: string; startLine: string; head: string; framing: string; chunkSizes: string; headers: Map<string, string[]>; body: Node };

/**
 * An HTTP request with the responses to it (interim ones first): `key` (request line and the
 * method of its first JSON-RPC message) and `id` align it across repeats; `conn` is the index of its
 * connection among those that carried bytes, `place` its index on that connection, `order` the
 * log seq of its first byte.
 */
interface Exchange {
  key: string;
  /** The JSON-RPC id of the request's first message (canonical JSON text), or "". */
  id: string;
  conn: number;
  place: number;
  order: number;
  nodes: Node;
}

const leaf = (name: string, value: string): Node => ({ kind: "leaf", name, value });
const list = (name: string, items: Node[]): Node => ({ kind: "list", name, items });
const group = (items: Node[]): Node => ({ kind: "group", items });

/** Add the names of every difference between two views to `out`. */
function diffNodes(a: Node, b: Node, out: Set<string>): void {
  if (a.kind !== b.kind) {
    out.add(a.kind === "leaf" ? a.name : b.kind === "leaf" ? b.name : "body");
    return;
  }
  switch (a.kind) {
    case "leaf":
      if (a.value !== (b as typeof a).value) out.add(a.name);
      return;
    case "json":
      diffJsonText(a.text, (b as typeof a).text, out);
      return;
    case "list": {
      const bi = (b as typeof a).items;
      if (a.items.length !== bi.length) out.add(a.name);
      for (let i = 0; i < Math.min(a.items.length, bi.length); i++) diffNodes(a.items[i]!, bi[i]!, out);
      return;
    }
    case "http":
      diffHttp(a, b as typeof a, out);
      return;
    case "exchanges":
      diffExchanges(a, b as typeof a, out);
      return;
    case "group": {
      const bi = (b as typeof a).items;
      for (let i = 0; i < Math.min(a.items.length, bi.length); i++) diffNodes(a.items[i]!, bi[i]!, out);
      if (a.items.length !== bi.length) out.add("body");
      return;
    }
  }
}

/** Framing headers: named through `framing: … vs …` when the framing kind differs. */
const FRAMING_HEADERS = new Set(["content-length", "transfer-encoding"]);

/** Compare two aligned HTTP messages: start line, framing, headers by name, body. */
function diffHttp(a: Extract<Node, { kind: "http" }>, b: Extract<Node, { kind: "http" }>, out: Set<string>): void {
  let named = a.startLine !== b.startLine;
  if (named) out.add(a.startLineName);
  const framingDiffers = a.framing !== b.framing;
  if (framingDiffers) out.add(`framing: ${a.framing} vs ${b.framing}`);
  for (const name of new Set([...a.headers.keys(), ...b.headers.keys()])) {
    if (framingDiffers && FRAMING_HEADERS.has(name)) continue;
    const va = a.headers.get(name);
    const vb = b.headers.get(name);
    if (va === undefined || vb === undefined || va.length !== vb.length || va.some((v, i) => v !== vb[i])) {
      out.add(name);
      named = true;
    }
  }
  // Same start line and header values, other head bytes: name case, spacing or order.
  if (!named && !framingDiffers && a.head !== b.head) out.add("header formatting");
  if (!framingDiffers && a.chunkSizes !== b.chunkSizes) out.add("framing: chunk sizes");
  diffNodes(a.body, b.body, out);
}

/**
 * Compare the exchanges of two HTTP logs: aligned by key and JSON-RPC id, then those left over by
 * key alone, then the rest in log order (a changed id, method or request line is then named by
 * what changed), each time the n-th with the n-th in log order. Also names `connections` (another number of connections
 * that carried bytes, or aligned exchanges on connections that do not correspond one to one),
 * `exchange order` (aligned exchanges at other places on their connections) and `http messages`
 * (another number of exchanges).
 */
function diffExchanges(a: Extract<Node, { kind: "exchanges" }>, b: Extract<Node, { kind: "exchanges" }>, out: Set<string>): void {
  // Match by the whole key, then by the key without the JSON-RPC id, then in log order.
  const { pairs, onlyA, onlyB } = alignInPasses(
    [...a.items].sort((p, q) => p.order - q.order),
    [...b.items].sort((p, q) => p.order - q.order),
    [(x) => `${x.key} ${x.id}`, (x) => x.key, () => ""],
  );
  if (onlyA.length > 0 || onlyB.length > 0) out.add("http messages");
  const connOf = new Map<number, number>();
  const taken = new Map<number, number>();
  let connections = a.conns !== b.conns;
  for (const [x, y] of pairs) {
    diffNodes(x.nodes, y.nodes, out);
    if ((connOf.get(x.conn) ?? y.conn) !== y.conn || (taken.get(y.conn) ?? x.conn) !== x.conn) connections = true;
    connOf.set(x.conn, y.conn);
    taken.set(y.conn, x.conn);
  }
  if (connections) out.add("connections");
  else if (pairs.some(([x, y]) => x.place !== y.place)) out.add("exchange order");
}

/**
 * Pair the items of two lists in passes: by each key function in turn (the n-th unpaired item of
 * a key with the n-th), lists in the order given (log order). Exchanges of repeats are aligned with
 * it (below), and so are two runs' exchanges in runner/compare/causes.ts.
 * @returns the pairs, and what is left of each list
 */
export function alignInPasses<T>(a: readonly T[], b: readonly T[], keys: readonly ((x: T) => string)[]): { pairs: [T, T][]; onlyA: T[]; onlyB: T[] } {
  const pairs: [T, T][] = [];
  let restA = [...a];
  let restB = [...b];
  for (const keyOf of keys) {
    const waiting = new Map<string, { item: T; at: number }[]>();
    restB.forEach((y, at) => {
      const k = keyOf(y);
      const q = waiting.get(k);
      if (q) q.push({ item: y, at });
      else waiting.set(k, [{ item: y, at }]);
    });
    const leftA: T[] = [];
    const usedB = new Set<number>();
    for (const x of restA) {
      const y = waiting.get(keyOf(x))?.shift();
      if (y) {
        pairs.push([x, y.item]);
        usedB.add(y.at);
      } else leftA.push(x);
    }
    restA = leftA;
    restB = restB.filter((_, i) => !usedB.has(i));
  }
  return { pairs, onlyA: restA, onlyB: restB };
}

/** Compare two JSON-RPC message texts value by value; name JSON paths, or `json formatting`. */
function diffJsonText(a: Buffer, b: Buffer, out: Set<string>): void {
  if (a.equals(b)) return;
  let va: unknown;
  let vb: unknown;
  try {
    va = JSON.parse(a.toString("utf8"));
    vb = JSON.parse(b.toString("utf8"));
  } catch {
    out.add("body");
    return;
  }
  if (!diffJson(va, vb, "", out)) out.add("json formatting");
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Path of member `key` under `path`: `a.b`, or `a["x.y"]` for a key that is not an identifier. */
function memberPath(path: string, key: string): string {
  if (IDENT.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

/**
 * Name every JSON path where two parsed values differ (a type change names the path itself).
 * @returns whether any value differed
 */
function diffJson(a: unknown, b: unknown, path: string, out: Set<string>): boolean {
  if (a === b) return false;
  const name = path || "(message)";
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.add(name);
      return true;
    }
    let differs = false;
    for (let i = 0; i < a.length; i++) differs = diffJson(a[i], b[i], `${path}[${i}]`, out) || differs;
    return differs;
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    let differs = false;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      if (!(k in ao) || !(k in bo)) {
        out.add(memberPath(path, k));
        differs = true;
      } else differs = diffJson(ao[k], bo[k], memberPath(path, k), out) || differs;
    }
    return differs;
  }
  out.add(name);
  return true;
}

/** The JSON-RPC messages of one JSON text as json nodes, plus a leaf for the bytes around them. */
function jsonTextNodes(text: Buffer, outsideName: string): Node[] {
  const i = skipWs(text, 0, text.length);
  if (i === text.length || (text[i] !== 0x7b && text[i] !== 0x5b)) return [leaf(outsideName, text.toString("latin1"))];
  let scan: ReturnType<typeof scanJsonRpc>;
  try {
    scan = scanJsonRpc(text);
  } catch {
    return [leaf(outsideName, text.toString("latin1"))];
  }
  if (scan.messages.length === 0) return [{ kind: "json", text }];
  const outside: string[] = [];
  let p = 0;
  const items: Node[] = [];
  for (const m of scan.messages) {
    outside.push(text.toString("latin1", p, m.start));
    items.push({ kind: "json", text: text.subarray(m.start, m.end) });
    p = m.end;
  }
  outside.push(text.toString("latin1", p));
  return [list("jsonrpc messages", items), leaf("json formatting", outside.join("\u0000"))];
}

/** Body view: JSON-RPC in JSON or SSE bodies, else the bytes as one `body` leaf. */
function bodyNode(m: HttpMessage): Node {
  const type = (headerValue(m, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const encoded = headerValue(m, "content-encoding") !== undefined;
  if (!encoded && (type === "application/json" || type.endsWith("+json"))) return group(jsonTextNodes(m.body, "body"));
  if (!encoded && type === "text/event-stream") {
    const events: SseEvent[] = parseSseEvents(m.body);
    let p = 0;
    const framing: string[] = [];
    const items = events.map((ev) => {
      // Bytes of the block outside the data values (field names, comments, line ends); the
      // id/event/retry values are compared as their own fields.
      let q = ev.start;
      let text = "";
      for (const s of ev.dataSegments) {
        text += m.body.toString("latin1", Math.max(q, p), s.offset) + "\u0000";
        q = s.offset + s.length;
      }
      text += m.body.toString("latin1", q, ev.end);
      framing.push(text.replace(/^(id|event|retry)(:[^\r\n]*)?/gm, "$1"));
      p = ev.end;
      return group([
        leaf("sse id", ev.id ?? "\u0000none"),
        leaf("sse event", ev.type),
        leaf("sse retry", String(ev.retry ?? "")),
        ...jsonTextNodes(ev.data, "sse data"),
      ]);
    });
    framing.push(m.body.toString("latin1", p));
    return group([list("sse events", items), leaf("sse framing", framing.join("\u0000"))]);
  }
  return leaf("body", m.body.toString("latin1"));
}

/** How a message's body was delimited. */
function framingKind(m: HttpMessage): string {
  if (m.chunked) return "chunked";
  if (m.closeDelimited) return "close-delimited";
  if (headerValue(m, "content-length") !== undefined) return "content-length";
  return "no body";
}

/** One HTTP message: start line, framing, each header (and trailer) by lower-case name, body. */
function httpMessageNode(m: HttpMessage, dir: Direction, stream: Buffer): Node {
  const headers = new Map<string, string[]>();
  for (const [n, v] of [...m.headers, ...m.trailers]) {
    const k = n.toLowerCase();
    headers.set(k, [...(headers.get(k) ?? []), v]);
  }
  return {
    kind: "http",
    startLineName: dir === "c2s" ? "request line" : "status line",
    startLine: m.startLine,
    head: stream.toString("latin1", m.startOffset, m.startOffset + m.headBytes),
    framing: framingKind(m),
    chunkSizes: m.chunked ? m.bodySegments.map((s) => s.length).join(",") : "",
    headers,
    body: bodyNode(m),
  };
}

/** Streams of a log grouped by connection, in connection order. */
function connections(records: readonly CaptureRecord[]): Partial<Record<Direction, Stream>>[] {
  const conns = new Map<number, Partial<Record<Direction, Stream>>>();
  for (const s of reassemble([...records])) {
    const pair = conns.get(s.conn) ?? {};
    pair[s.dir] = s;
    conns.set(s.conn, pair);
  }
  return [...conns].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
}

/** Alignment key of a request: its request line and the method of its first JSON-RPC message, and that message's id. */
function exchangeKey(m: HttpMessage): { key: string; id: string } {
  try {
    const first = scanJsonRpc(m.body).messages[0];
    if (first) return { key: `${m.startLine} ${first.method ?? `(${first.kind})`}`, id: first.id ?? "" };
  } catch {
    // not JSON: the request line alone
  }
  return { key: m.startLine, id: "" };
}

/**
 * HTTP view of a log: its exchanges (see {@link diffExchanges}) over the connections that carried
 * bytes (a connection opened and never used carries none, as the stream digest says), and what
 * was left unfinished or unparsable, stream by stream.
 */
function httpView(records: readonly CaptureRecord[]): Node {
  const items: Exchange[] = [];
  const rests: Node[] = [];
  const conns = connections(records).filter((pair) => (pair.c2s?.bytes.length ?? 0) + (pair.s2c?.bytes.length ?? 0) > 0);
  conns.forEach((pair, conn) => {
    const parse = (s: Stream, methods: string[]): HttpMessage[] => {
      const p = new Http1StreamParser(s.dir === "c2s" ? "request" : "response", `conn ${s.conn} ${s.dir}`);
      for (const m of methods) p.expectResponseTo(m);
      const msgs = p.push(s.bytes);
      if (s.ended) msgs.push(...p.end());
      const rest = p.partial;
      if (rest) rests.push(leaf("unfinished http message", s.bytes.toString("latin1", rest.startOffset)));
      return msgs;
    };
    let requests: HttpMessage[] = [];
    let responses: HttpMessage[] = [];
    try {
      if (pair.c2s) requests = parse(pair.c2s, []);
    } catch {
      rests.push(leaf("unparsable stream", pair.c2s!.bytes.toString("latin1")));
    }
    try {
      if (pair.s2c)
        responses = parse(
          pair.s2c,
          requests.map((m) => m.method!),
        );
    } catch {
      rests.push(leaf("unparsable stream", pair.s2c!.bytes.toString("latin1")));
    }
    // HTTP/1.1 answers requests in order; interim (1xx) responses go with the final one after them.
    let r = 0;
    requests.forEach((req, place) => {
      const nodes = [httpMessageNode(req, "c2s", pair.c2s!.bytes)];
      while (r < responses.length) {
        const res = responses[r++]!;
        nodes.push(httpMessageNode(res, "s2c", pair.s2c!.bytes));
        if ((res.status ?? 0) >= 200) break;
      }
      items.push({ ...exchangeKey(req), conn, place, order: seqAtOffset(pair.c2s!, req.startOffset), nodes: list("http messages", nodes) });
    });
    if (r < responses.length) {
      const nodes = responses.slice(r).map((m) => httpMessageNode(m, "s2c", pair.s2c!.bytes));
      items.push({
        key: "(responses without a request)",
        id: "",
        conn,
        place: requests.length,
        order: seqAtOffset(pair.s2c!, responses[r]!.startOffset),
        nodes: list("http messages", nodes),
      });
    }
  });
  return group([{ kind: "exchanges", conns: conns.length, items }, list("unfinished http message", rests)]);
}

/** Stdio view of a log: each direction's complete lines (JSON-RPC messages) and its partial line. */
function stdioView(records: readonly CaptureRecord[]): Node {
  const byDir = new Map<string, Stream>();
  for (const s of reassemble([...records])) byDir.set(`${s.conn}:${s.dir}`, s);
  const keys = [...byDir.keys()].sort();
  return list(
    "stdio streams",
    keys.map((k) => {
      const s = byDir.get(k)!;
      const { lines, partialStart } = splitStdioLines(s.bytes);
      return group([
        list(
          "stdio lines",
          lines.map(([a, b]) => group(jsonTextNodes(s.bytes.subarray(a, b), "stdio line"))),
        ),
        leaf("stdio partial line", s.bytes.toString("latin1", partialStart)),
      ]);
    }),
  );
}

/**
 * The `varying_fields` cell of summary.tsv: {@link compareRepeats}' varying fields joined with
 * ",". Never throws: when a log is missing (e.g. a results folder without its logs/) or cannot be
 * read, the cell says `unknown (log missing: PATH)` or `unknown (…reason)` instead.
 * @param logPaths each ok repeat's capture log, repeat 1 first
 * @param transport `http` or `stdio`
 */
export function varyingFieldsOf(logPaths: readonly string[], transport: "http" | "stdio"): string {
  const missing = logPaths.find((p) => !existsSync(p));
  if (missing !== undefined) return `unknown (log missing: ${missing})`;
  try {
    return compareRepeats(logPaths, transport).varyingFields.join(",");
  } catch (e) {
    return `unknown (${(e as Error).message.split("\n")[0]})`;
  }
}
