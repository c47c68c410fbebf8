/**
 * Why two runs' byte counts differ (README, "What changed?"): the capture logs of one run of each
 * of two configurations (a base and a head: two releases of an SDK, two commits of a target, two
 * results folders) are counted by layer and aligned exchange by exchange, the way the repeats of
 * one configuration are aligned (runner/results/identity.ts: by request line and the method and
 * id of the request's first JSON-RPC message, then by request line and method, then in log
 * order); every byte that changed is then put on a named cause:
 *
 * | kind | name | what changed |
 * | --- | --- | --- |
 * | `header` | lower-case header name | a header (or trailer) line added, removed or resized; bytes are whole lines with their CRLF |
 * | `start line` | `request line`, `status line` | an aligned start line resized |
 * | `framing` | `content-length → chunked`, `json → sse`, `chunk sizes`, `sse fields`, `other head bytes` | how a body was delimited or wrapped; a framing change takes the header lines that carry it (Content-Length, Transfer-Encoding; Content-Type for JSON ↔ SSE) |
 * | `json path` | `result.tools[*].execution` | a member or array item added or removed, or a value resized, inside a JSON-RPC message (arrays as `[*]`); an object's separators (commas, whitespace) go with the members added or removed there |
 * | `json formatting` | the path | same members, other bytes between them |
 * | `exchange` | request line and method | an HTTP exchange (request and its responses) only one run has |
 * | `message` | method (kind) | a JSON-RPC message only one run has inside aligned exchanges, or a stdio line |
 * | `body` | content type | a body that is not JSON or an event stream resized |
 * | `connections` | `N → M` | another number of connections carried bytes (0 bytes: TCP set-up is not in a capture log) |
 *
 * Bytes are head minus base (positive: the head run sent more). The causes' bytes, per layer,
 * sum to the layer's change, except what no cause holds (bytes that are not HTTP/1.1, an
 * unfinished message): that rest is {@link ByteChange.unexplained}, never spread over causes.
 */
import { readCaptureLog, reassemble, type CaptureRecord, type Direction, type Stream } from "../capture/log.js";
import { countLog, type CountRow } from "../count/index.js";
import { COUNT_COLUMNS, type CountColumn } from "../count/count-row.js";
import { skipString, skipValue, skipWs, decodeString } from "../count/json-scan.js";
import { scanJsonRpc, type JsonRpcMessageInfo } from "../count/jsonrpc.js";
import { splitStdioLines } from "../count/stdio.js";
import { Http1StreamParser, headerValue, type HttpMessage } from "../wire/http1.js";
import { parseSseEvents } from "../wire/sse.js";
import { alignInPasses, type RepeatLog } from "../results/identity.js";

/** One run to compare: its capture log (path or records) and how its bytes travelled. */
export interface RunCapture {
  /** The capture log (logs/<config>/<repeat>.jsonl) or its records. */
  log: RepeatLog;
  /** `http` (relay logs) or `stdio` (tap logs). */
  transport: "http" | "stdio";
}

/**
 * The byte layers a cause is split over: the count columns that partition `total_bytes`
 * (runner/count/count-row.ts), plus `stdio_line_bytes`, the content of stdio lines (total minus
 * newline and unattributed bytes of a stdio count).
 */
export type ByteLayer =
  | "request_head_bytes"
  | "request_body_bytes"
  | "response_head_bytes"
  | "response_body_bytes"
  | "chunk_framing_bytes"
  | "newline_bytes"
  | "unattributed_bytes"
  | "stdio_line_bytes";

/** The layers, in the order tables show them. Their sum is `total_bytes`. */
export const BYTE_LAYERS: readonly ByteLayer[] = [
  "request_head_bytes",
  "request_body_bytes",
  "response_head_bytes",
  "response_body_bytes",
  "chunk_framing_bytes",
  "newline_bytes",
  "stdio_line_bytes",
  "unattributed_bytes",
];

/** What kind of thing a cause names (see the module doc's table). */
export type CauseKind = "header" | "start line" | "framing" | "json path" | "json formatting" | "exchange" | "message" | "body" | "connections";

/** One named cause of a byte change, summed over every place it happened. */
export interface ByteCause {
  kind: CauseKind;
  /** `added` (only the head run has it), `removed` (only the base run), `resized` or `changed` (framing, connections). */
  change: "added" | "removed" | "resized" | "changed";
  /** Direction of the bytes: `c2s`, `s2c`, or `both` for an exchange. */
  dir: Direction | "both";
  /** The JSON-RPC method of the message or exchange it happened in ("" when none: a GET, a 202). */
  method: string;
  /** The header name, JSON path, framing change, … (see the module doc's table). */
  name: string;
  /** How many times it happened (e.g. once per response), occurrences. */
  count: number;
  /** Head minus base, bytes (negative: fewer). */
  bytes: number;
  /** `bytes` split by layer (layers it does not touch are absent), bytes. */
  layers: Partial<Record<ByteLayer, number>>;
}

/** What changed between two runs, and why. */
export interface ByteChange {
  /** The base run's count. */
  base: CountRow;
  /** The head run's count. */
  head: CountRow;
  /** Head minus base for every count column (messages, round trips, events, bytes). */
  delta: Record<CountColumn, number>;
  /** The named causes, largest |bytes| first. */
  causes: ByteCause[];
  /** Per layer, the change that no cause holds (layers with 0 absent), bytes. */
  unexplained: Partial<Record<ByteLayer, number>>;
  /** `delta.total_bytes` minus the causes' bytes, bytes. */
  unexplainedBytes: number;
}

/**
 * Name the causes of the byte change from `base` to `head` (module doc). Both runs must have the
 * same transport.
 * @returns counts, per-column change, causes and what they leave unexplained; no causes when the
 *   logs' bytes are equal
 * @throws Error when the transports differ; CaptureLogError (or the fs error) when a log cannot be read
 */
export function byteChangeCauses(base: RunCapture, head: RunCapture): ByteChange {
  if (base.transport !== head.transport) throw new Error(`cannot align a ${base.transport} run with a ${head.transport} run`);
  const transport = base.transport;
  const [ra, rb] = [base, head].map((r) => (typeof r.log === "string" ? readCaptureLog(r.log) : r.log)) as [readonly CaptureRecord[], readonly CaptureRecord[]];
  const ca = countLog(ra, { transport }).row;
  const cb = countLog(rb, { transport }).row;
  const delta = Object.fromEntries(COUNT_COLUMNS.map((c) => [c, cb[c] - ca[c]])) as Record<CountColumn, number>;
  const acc = new Causes();
  if (delta.total_bytes !== 0 || !sameStreams(ra, rb)) {
    if (transport === "http") diffHttpRuns(httpRun(ra), httpRun(rb), acc);
    else diffStdioRuns(stdioRun(ra), stdioRun(rb), acc);
  }
  const causes = acc.list();
  const la = layersOf(ca, transport);
  const lb = layersOf(cb, transport);
  const unexplained: Partial<Record<ByteLayer, number>> = {};
  for (const l of BYTE_LAYERS) {
    const rest = lb[l] - la[l] - causes.reduce((s, c) => s + (c.layers[l] ?? 0), 0);
    if (rest !== 0) unexplained[l] = rest;
  }
  const unexplainedBytes = delta.total_bytes - causes.reduce((s, c) => s + c.bytes, 0);
  return { base: ca, head: cb, delta, causes, unexplained, unexplainedBytes };
}

/** A count row's bytes by layer (they sum to `total_bytes`). */
function layersOf(row: CountRow, transport: "http" | "stdio"): Record<ByteLayer, number> {
  return {
    request_head_bytes: row.request_head_bytes,
    request_body_bytes: row.request_body_bytes,
    response_head_bytes: row.response_head_bytes,
    response_body_bytes: row.response_body_bytes,
    chunk_framing_bytes: row.chunk_framing_bytes,
    newline_bytes: row.newline_bytes,
    unattributed_bytes: row.unattributed_bytes,
    stdio_line_bytes: transport === "stdio" ? row.total_bytes - row.newline_bytes - row.unattributed_bytes : 0,
  };
}

/** Whether two logs carry the same bytes on the same streams. */
function sameStreams(a: readonly CaptureRecord[], b: readonly CaptureRecord[]): boolean {
  const sa = reassemble([...a]);
  const sb = reassemble([...b]);
  return sa.length === sb.length && sa.every((s, i) => s.conn === sb[i]!.conn && s.dir === sb[i]!.dir && s.bytes.equals(sb[i]!.bytes));
}

/** Causes summed by kind, change, direction, method and name. */
class Causes {
  private readonly byKey = new Map<string, ByteCause>();

  add(kind: CauseKind, change: ByteCause["change"], dir: ByteCause["dir"], method: string, name: string, layers: Partial<Record<ByteLayer, number>>): void {
    const bytes = Object.values(layers).reduce((s, n) => s + n, 0);
    if (bytes === 0 && kind !== "connections" && change === "resized") return;
    const key = JSON.stringify([kind, change, dir, method, name]);
    const c = this.byKey.get(key) ?? { kind, change, dir, method, name, count: 0, bytes: 0, layers: {} };
    c.count++;
    c.bytes += bytes;
    for (const [l, n] of Object.entries(layers) as [ByteLayer, number][]) if (n !== 0) c.layers[l] = (c.layers[l] ?? 0) + n;
    this.byKey.set(key, c);
  }

  list(): ByteCause[] {
    return [...this.byKey.values()].sort((a, b) => Math.abs(b.bytes) - Math.abs(a.bytes) || a.name.localeCompare(b.name));
  }
}

// ---------------------------------------------------------------- JSON with byte spans

/** A JSON value with its span [start, end) in its buffer. */
type JsonNode =
  | { t: "object"; start: number; end: number; members: { key: string; start: number; end: number; value: JsonNode }[] }
  | { t: "array"; start: number; end: number; items: JsonNode[] }
  | { t: "scalar"; start: number; end: number };

/** Parse the JSON value at `p` (after whitespace) with spans. @throws JsonScanError */
function parseSpans(buf: Buffer, p: number, end: number): JsonNode {
  const s = skipWs(buf, p, end);
  const c = buf[s];
  if (c === 0x7b) {
    const members: { key: string; start: number; end: number; value: JsonNode }[] = [];
    let i = skipWs(buf, s + 1, end);
    if (buf[i] === 0x7d) return { t: "object", start: s, end: i + 1, members };
    for (;;) {
      const ke = skipString(buf, i, end);
      const colon = skipWs(buf, ke, end);
      const value = parseSpans(buf, colon + 1, end);
      members.push({ key: decodeString(buf, i, ke), start: i, end: value.end, value });
      i = skipWs(buf, value.end, end);
      if (buf[i] === 0x7d) return { t: "object", start: s, end: i + 1, members };
      i = skipWs(buf, i + 1, end);
    }
  }
  if (c === 0x5b) {
    const items: JsonNode[] = [];
    let i = skipWs(buf, s + 1, end);
    if (buf[i] === 0x5d) return { t: "array", start: s, end: i + 1, items };
    for (;;) {
      const v = parseSpans(buf, i, end);
      items.push(v);
      i = skipWs(buf, v.end, end);
      if (buf[i] === 0x5d) return { t: "array", start: s, end: i + 1, items };
      i = skipWs(buf, i + 1, end);
    }
  }
  return { t: "scalar", start: s, end: skipValue(buf, s, end) };
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Path of member `key` under `path`: `a.b`, or `a["x.y"]` (identity.ts names paths the same way). */
function memberPath(path: string, key: string): string {
  if (IDENT.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

/** Where JSON path causes go: direction, method and layer of the message. */
interface JsonPlace {
  dir: Direction;
  method: string;
  layer: ByteLayer;
}

/**
 * Put the byte change between two JSON values on JSON paths: members (items) added or removed
 * with the separators their container gained or lost, scalars resized, the rest of a container's
 * change as `json formatting`.
 */
function diffJson(ba: Buffer, a: JsonNode, bb: Buffer, b: JsonNode, path: string, at: JsonPlace, acc: Causes): void {
  const la = a.end - a.start;
  const lb = b.end - b.start;
  if (la === lb && ba.subarray(a.start, a.end).equals(bb.subarray(b.start, b.end))) return;
  const name = path || "(message)";
  const put = (kind: CauseKind, change: ByteCause["change"], p: string, n: number) => acc.add(kind, change, at.dir, at.method, p, { [at.layer]: n });
  if (a.t !== b.t || a.t === "scalar") {
    put("json path", "resized", name, lb - la);
    return;
  }
  // The children's own changes; the container's other bytes (brackets, separators, whitespace) after.
  const structural: { change: "added" | "removed"; path: string; bytes: number }[] = [];
  let inner = 0;
  if (a.t === "object" && b.t === "object") {
    const inB = new Map(b.members.map((m) => [m.key, m]));
    const inA = new Set(a.members.map((m) => m.key));
    for (const m of a.members) {
      const o = inB.get(m.key);
      if (!o) {
        structural.push({ change: "removed", path: memberPath(path, m.key), bytes: -(m.end - m.start) });
        inner -= m.end - m.start;
      } else {
        diffJson(ba, m.value, bb, o.value, memberPath(path, m.key), at, acc);
        inner += o.end - o.start - (m.end - m.start);
      }
    }
    for (const m of b.members)
      if (!inA.has(m.key)) {
        structural.push({ change: "added", path: memberPath(path, m.key), bytes: m.end - m.start });
        inner += m.end - m.start;
      }
  } else if (a.t === "array" && b.t === "array") {
    const n = Math.min(a.items.length, b.items.length);
    for (let i = 0; i < n; i++) {
      diffJson(ba, a.items[i]!, bb, b.items[i]!, `${path}[*]`, at, acc);
      inner += b.items[i]!.end - b.items[i]!.start - (a.items[i]!.end - a.items[i]!.start);
    }
    for (const x of a.items.slice(n)) {
      structural.push({ change: "removed", path: `${path}[*]`, bytes: -(x.end - x.start) });
      inner -= x.end - x.start;
    }
    for (const x of b.items.slice(n)) {
      structural.push({ change: "added", path: `${path}[*]`, bytes: x.end - x.start });
      inner += x.end - x.start;
    }
  }
  let rest = lb - la - inner;
  // Separators go with the members added or removed (the first takes what does not divide).
  if (structural.length > 0 && rest !== 0) {
    const share = Math.trunc(rest / structural.length);
    structural.forEach((s, i) => {
      s.bytes += i === 0 ? rest - share * (structural.length - 1) : share;
    });
    rest = 0;
  }
  for (const s of structural) put("json path", s.change, s.path, s.bytes);
  if (rest !== 0) put("json formatting", "resized", name, rest);
}

/** A JSON-RPC message in a body or a line: its text and what it is. */
interface RpcText {
  buf: Buffer;
  info: JsonRpcMessageInfo;
}

/** The method a message belongs to: its own, or (result, error) its request's by id. */
function methodOf(m: JsonRpcMessageInfo, requests: ReadonlyMap<string, string>): string {
  if (m.method !== undefined) return m.method;
  return (m.id !== undefined ? requests.get(m.id) : undefined) ?? "";
}

/** Compare two aligned JSON-RPC messages path by path. */
function diffRpc(a: RpcText, b: RpcText, at: JsonPlace, acc: Causes): void {
  let na: JsonNode;
  let nb: JsonNode;
  try {
    na = parseSpans(a.buf, a.info.start, a.info.end);
    nb = parseSpans(b.buf, b.info.start, b.info.end);
  } catch {
    acc.add("json formatting", "resized", at.dir, at.method, "(message)", { [at.layer]: b.info.end - b.info.start - (a.info.end - a.info.start) });
    return;
  }
  diffJson(a.buf, na, b.buf, nb, "", at, acc);
}

/** The JSON-RPC messages of a JSON text (none when it is not JSON-RPC). */
function rpcTexts(buf: Buffer): RpcText[] {
  try {
    return scanJsonRpc(buf).messages.map((info) => ({ buf, info }));
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- HTTP runs

/** One HTTP message's bytes, by part. */
interface HttpPart {
  dir: Direction;
  startLine: string;
  startLineBytes: number;
  /** Header and trailer lines by lower-case name: their bytes (CRLF included) and count. */
  headers: Map<string, number>;
  /** Head bytes that are neither the start line nor a header line (the blank line, leading empty lines). */
  headOther: number;
  framing: string;
  framingBytes: number;
  /** `json`, `sse`, `other` or `none`. */
  bodyKind: string;
  contentType: string;
  bodyBytes: number;
  messages: RpcText[];
  /** Body bytes outside the JSON-RPC messages (SSE fields, batch brackets, whitespace). */
  wrapperBytes: number;
}

/** An exchange: a request with its responses; keys as identity.ts aligns them. */
interface HttpExchange {
  key: string;
  id: string;
  method: string;
  conn: number;
  parts: HttpPart[];
}

interface HttpRun {
  conns: number;
  exchanges: HttpExchange[];
  /** id → method of every request message in the run (both directions). */
  requests: Map<string, string>;
}

/** Split a head into start line, header lines by name and the rest, in bytes. */
function headParts(stream: Buffer, m: HttpMessage): Pick<HttpPart, "startLineBytes" | "headers" | "headOther"> {
  const text = stream.toString("latin1", m.startOffset, m.startOffset + m.headBytes);
  const headers = new Map<string, number>();
  let other = 0;
  let startLineBytes = 0;
  let seenStart = false;
  for (const line of text.split(/(?<=\n)/)) {
    const content = line.replace(/\r?\n$/, "");
    if (!seenStart) {
      if (content === "") {
        other += line.length;
        continue;
      }
      seenStart = true;
      startLineBytes = line.length;
      continue;
    }
    const colon = content.indexOf(":");
    if (content === "" || colon <= 0) other += line.length;
    else {
      const name = content.slice(0, colon).toLowerCase();
      headers.set(name, (headers.get(name) ?? 0) + line.length);
    }
  }
  return { startLineBytes, headers, headOther: other };
}

function httpPart(m: HttpMessage, dir: Direction, stream: Buffer): HttpPart {
  const type = (headerValue(m, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const encoded = headerValue(m, "content-encoding") !== undefined;
  let bodyKind = m.bodyBytes === 0 ? "none" : "other";
  let messages: RpcText[] = [];
  if (!encoded && m.bodyBytes > 0 && (type === "application/json" || type.endsWith("+json"))) {
    bodyKind = "json";
    messages = rpcTexts(m.body);
  } else if (!encoded && type === "text/event-stream") {
    bodyKind = "sse";
    for (const ev of parseSseEvents(m.body)) messages.push(...rpcTexts(ev.data));
  }
  const inMessages = messages.reduce((s, x) => s + x.info.end - x.info.start, 0);
  const framing = m.chunked ? "chunked" : m.closeDelimited ? "close-delimited" : headerValue(m, "content-length") !== undefined ? "content-length" : "no body";
  // Trailers are counted in chunk framing by the counter; name them as headers with their framing.
  return {
    dir,
    startLine: m.startLine,
    ...headParts(stream, m),
    framing,
    framingBytes: m.framingBytes,
    bodyKind,
    contentType: type,
    bodyBytes: m.bodyBytes,
    messages,
    wrapperBytes: m.bodyBytes - inMessages,
  };
}

function streamsByConn(records: readonly CaptureRecord[]): Partial<Record<Direction, Stream>>[] {
  const conns = new Map<number, Partial<Record<Direction, Stream>>>();
  for (const s of reassemble([...records])) {
    const pair = conns.get(s.conn) ?? {};
    pair[s.dir] = s;
    conns.set(s.conn, pair);
  }
  return [...conns]
    .sort((a, b) => a[0] - b[0])
    .map(([, p]) => p)
    .filter((p) => (p.c2s?.bytes.length ?? 0) + (p.s2c?.bytes.length ?? 0) > 0);
}

/** The exchanges of an HTTP log; what does not parse is left out (it stays unexplained). */
function httpRun(records: readonly CaptureRecord[]): HttpRun {
  const exchanges: HttpExchange[] = [];
  const requests = new Map<string, string>();
  const conns = streamsByConn(records);
  conns.forEach((pair, conn) => {
    const parse = (s: Stream, methods: string[]): HttpMessage[] => {
      const p = new Http1StreamParser(s.dir === "c2s" ? "request" : "response", `conn ${s.conn} ${s.dir}`);
      for (const m of methods) p.expectResponseTo(m);
      try {
        const msgs = p.push(s.bytes);
        if (s.ended) msgs.push(...p.end());
        return msgs;
      } catch {
        return [];
      }
    };
    const reqs = pair.c2s ? parse(pair.c2s, []) : [];
    const ress = pair.s2c
      ? parse(
          pair.s2c,
          reqs.map((m) => m.method!),
        )
      : [];
    let r = 0;
    for (const req of reqs) {
      const parts = [httpPart(req, "c2s", pair.c2s!.bytes)];
      while (r < ress.length) {
        const res = ress[r++]!;
        parts.push(httpPart(res, "s2c", pair.s2c!.bytes));
        if ((res.status ?? 0) >= 200) break;
      }
      const first = parts[0]!.messages[0]?.info;
      exchanges.push({
        key: `${req.startLine} ${first ? (first.method ?? `(${first.kind})`) : ""}`.trim(),
        id: first?.id ?? "",
        method: first?.method ?? "",
        conn,
        parts,
      });
    }
    if (r < ress.length)
      exchanges.push({ key: "(responses without a request)", id: "", method: "", conn, parts: ress.slice(r).map((m) => httpPart(m, "s2c", pair.s2c!.bytes)) });
  });
  for (const x of exchanges)
    for (const p of x.parts) for (const m of p.messages) if (m.info.kind === "request" && m.info.id !== undefined) requests.set(m.info.id, m.info.method ?? "");
  return { conns: conns.length, exchanges, requests };
}

const headLayer = (dir: Direction): ByteLayer => (dir === "c2s" ? "request_head_bytes" : "response_head_bytes");
const bodyLayer = (dir: Direction): ByteLayer => (dir === "c2s" ? "request_body_bytes" : "response_body_bytes");

/** A part's bytes by layer, signed. */
function partLayers(p: HttpPart, sign: number): Partial<Record<ByteLayer, number>> {
  const head = p.startLineBytes + p.headOther + [...p.headers.values()].reduce((s, n) => s + n, 0);
  return { [headLayer(p.dir)]: sign * head, [bodyLayer(p.dir)]: sign * p.bodyBytes, chunk_framing_bytes: sign * p.framingBytes };
}

function diffHttpRuns(a: HttpRun, b: HttpRun, acc: Causes): void {
  const { pairs, onlyA, onlyB } = alignInPasses(a.exchanges, b.exchanges, [(x) => `${x.key} ${x.id}`, (x) => x.key, () => ""]);
  for (const [x, y] of pairs) {
    // Exchanges aligned only by order (a different request line or method) are named by their parts.
    const method = y.method || x.method;
    const n = Math.min(x.parts.length, y.parts.length);
    for (let i = 0; i < n; i++) diffHttpPart(x.parts[i]!, y.parts[i]!, method, a.requests, b.requests, acc);
    for (const p of x.parts.slice(n)) acc.add("exchange", "removed", p.dir, method, `response ${p.startLine}`, partLayers(p, -1));
    for (const p of y.parts.slice(n)) acc.add("exchange", "added", p.dir, method, `response ${p.startLine}`, partLayers(p, 1));
  }
  const whole = (x: HttpExchange, sign: number) => {
    const layers: Partial<Record<ByteLayer, number>> = {};
    for (const p of x.parts) for (const [l, v] of Object.entries(partLayers(p, sign)) as [ByteLayer, number][]) layers[l] = (layers[l] ?? 0) + v;
    return layers;
  };
  for (const x of onlyA) acc.add("exchange", "removed", "both", x.method, x.key, whole(x, -1));
  for (const x of onlyB) acc.add("exchange", "added", "both", x.method, x.key, whole(x, 1));
  if (a.conns !== b.conns) acc.add("connections", "changed", "both", "", `${a.conns} → ${b.conns}`, {});
}

/** Framing headers: they go with a change of framing. */
const FRAMING_HEADERS = new Set(["content-length", "transfer-encoding"]);

function diffHttpPart(
  a: HttpPart,
  b: HttpPart,
  exchangeMethod: string,
  reqA: ReadonlyMap<string, string>,
  reqB: ReadonlyMap<string, string>,
  acc: Causes,
): void {
  const dir = b.dir;
  const hl = headLayer(dir);
  const bl = bodyLayer(dir);
  if (a.startLineBytes !== b.startLineBytes)
    acc.add("start line", "resized", dir, exchangeMethod, dir === "c2s" ? "request line" : "status line", { [hl]: b.startLineBytes - a.startLineBytes });
  if (a.headOther !== b.headOther) acc.add("framing", "resized", dir, exchangeMethod, "other head bytes", { [hl]: b.headOther - a.headOther });
  const framingChanged = a.framing !== b.framing;
  const bodyKindChanged = a.bodyKind !== b.bodyKind && a.bodyKind !== "none" && b.bodyKind !== "none";
  const headerDelta = (name: string) => (b.headers.get(name) ?? 0) - (a.headers.get(name) ?? 0);
  const claimed = new Set<string>();
  if (framingChanged) {
    let head = 0;
    for (const h of FRAMING_HEADERS) {
      head += headerDelta(h);
      claimed.add(h);
    }
    acc.add("framing", "changed", dir, exchangeMethod, `${a.framing} → ${b.framing}`, { [hl]: head, chunk_framing_bytes: b.framingBytes - a.framingBytes });
  } else if (a.framingBytes !== b.framingBytes)
    acc.add("framing", "resized", dir, exchangeMethod, "chunk sizes", { chunk_framing_bytes: b.framingBytes - a.framingBytes });
  if (bodyKindChanged) {
    claimed.add("content-type");
    acc.add("framing", "changed", dir, exchangeMethod, `${a.bodyKind} → ${b.bodyKind}`, {
      [hl]: headerDelta("content-type"),
      [bl]: b.wrapperBytes - a.wrapperBytes,
    });
  }
  for (const name of new Set([...a.headers.keys(), ...b.headers.keys()])) {
    if (claimed.has(name)) continue;
    const d = headerDelta(name);
    const change = !a.headers.has(name) ? "added" : !b.headers.has(name) ? "removed" : "resized";
    acc.add("header", change, dir, exchangeMethod, name, { [hl]: d });
  }
  // Bodies: JSON-RPC messages n-th with n-th, the bytes around them by body kind.
  if (a.messages.length === 0 && b.messages.length === 0) {
    if (a.bodyBytes !== b.bodyBytes)
      acc.add("body", "resized", dir, exchangeMethod, b.contentType || a.contentType || "(no content type)", { [bl]: b.bodyBytes - a.bodyBytes });
    return;
  }
  if (!bodyKindChanged && a.wrapperBytes !== b.wrapperBytes)
    acc.add(b.bodyKind === "sse" ? "framing" : "json formatting", "resized", dir, exchangeMethod, b.bodyKind === "sse" ? "sse fields" : "(body)", {
      [bl]: b.wrapperBytes - a.wrapperBytes,
    });
  const n = Math.min(a.messages.length, b.messages.length);
  for (let i = 0; i < n; i++) {
    const mb = b.messages[i]!;
    diffRpc(a.messages[i]!, mb, { dir, method: methodOf(mb.info, reqB) || methodOf(a.messages[i]!.info, reqA), layer: bl }, acc);
  }
  for (const m of a.messages.slice(n)) acc.add("message", "removed", dir, methodOf(m.info, reqA), m.info.kind, { [bl]: -(m.info.end - m.info.start) });
  for (const m of b.messages.slice(n)) acc.add("message", "added", dir, methodOf(m.info, reqB), m.info.kind, { [bl]: m.info.end - m.info.start });
}

// ---------------------------------------------------------------- stdio runs

/** One complete stdio line: its direction, content, JSON-RPC message (if it is one) and newline. */
interface StdioLine {
  dir: Direction;
  text: Buffer;
  message?: RpcText;
  key: string;
  id: string;
}

interface StdioRun {
  lines: StdioLine[];
  requests: Map<string, string>;
}

/** The complete lines of a stdio log (partial lines are unattributed, left unexplained). */
function stdioRun(records: readonly CaptureRecord[]): StdioRun {
  const lines: StdioLine[] = [];
  const requests = new Map<string, string>();
  for (const s of reassemble([...records])) {
    for (const [p, q] of splitStdioLines(s.bytes).lines) {
      const text = s.bytes.subarray(p, q);
      const msgs = rpcTexts(text);
      const message = msgs.length === 1 ? msgs[0] : undefined;
      const info = message?.info;
      if (info?.kind === "request" && info.id !== undefined) requests.set(info.id, info.method ?? "");
      lines.push({ dir: s.dir, text, message, key: `${s.dir} ${info ? `${info.kind} ${info.method ?? ""}` : "(not json-rpc)"}`, id: info?.id ?? "" });
    }
  }
  return { lines, requests };
}

function diffStdioRuns(a: StdioRun, b: StdioRun, acc: Causes): void {
  const keyed = (run: StdioRun) => (l: StdioLine) =>
    l.message && l.message.info.method === undefined ? `${l.key} ${methodOf(l.message.info, run.requests)}` : l.key;
  const ka = keyed(a);
  const kb = keyed(b);
  // Key functions see items of both runs: tell them apart by which run holds them.
  const inA = new Set(a.lines);
  const key = (l: StdioLine) => (inA.has(l) ? ka(l) : kb(l));
  const { pairs, onlyA, onlyB } = alignInPasses(a.lines, b.lines, [(l) => `${key(l)} ${l.id}`, key, (l) => l.dir]);
  const lineLayers = (l: StdioLine, sign: number): Partial<Record<ByteLayer, number>> =>
    l.message ? { stdio_line_bytes: sign * l.text.length, newline_bytes: sign } : { unattributed_bytes: sign * (l.text.length + 1) };
  const methodIn = (l: StdioLine, run: StdioRun) => (l.message ? methodOf(l.message.info, run.requests) : "");
  for (const [x, y] of pairs) {
    if (x.message && y.message) diffRpc(x.message, y.message, { dir: y.dir, method: methodIn(y, b) || methodIn(x, a), layer: "stdio_line_bytes" }, acc);
    else if (x.text.length !== y.text.length || !!x.message !== !!y.message) {
      const layers: Partial<Record<ByteLayer, number>> = {};
      for (const [l, v] of [...Object.entries(lineLayers(x, -1)), ...Object.entries(lineLayers(y, 1))] as [ByteLayer, number][])
        layers[l] = (layers[l] ?? 0) + v;
      acc.add("message", "resized", y.dir, methodIn(y, b), "stdio line", layers);
    }
  }
  for (const l of onlyA) acc.add("message", "removed", l.dir, methodIn(l, a), l.message ? l.message.info.kind : "stdio line", lineLayers(l, -1));
  for (const l of onlyB) acc.add("message", "added", l.dir, methodIn(l, b), l.message ? l.message.info.kind : "stdio line", lineLayers(l, 1));
}
