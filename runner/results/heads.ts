/**
 * The HTTP heads of a run, summarised for its messages.tsv (format/messages.ts): per connection
 * and direction, each message's header names in wire order and its Content-Type media type, so
 * pages name the protocol's headers without reading a capture log.
 */
import type { Stream } from "../capture/log.js";
import { Http1StreamParser, headerValue, type HttpHead } from "../wire/http1.js";

/** What messages.tsv records of one HTTP head. */
export interface HeadSummary {
  /** Header field names as sent, in wire order. */
  headerNames: string[];
  /** Content-Type's media type without parameters, lower-cased as sent (`application/json`); "" when absent. */
  contentType: string;
}

function summarise(head: HttpHead): HeadSummary {
  return { headerNames: head.headers.map(([name]) => name), contentType: headerValue(head, "content-type")?.split(";")[0]?.trim() ?? "" };
}

/**
 * Heads of every HTTP message in `streams`, in stream order, keyed `<conn>:<dir>` (e.g. `1:s2c`),
 * a still-open last message (an SSE stream) included once its head is complete. Responses are
 * paired with their requests' methods so that a response to HEAD has no body. A stream that stops
 * parsing yields the heads before the fault: the counter, not this summary, reports bad bytes.
 */
export function headSummaries(streams: readonly Stream[]): Map<string, HeadSummary[]> {
  const out = new Map<string, HeadSummary[]>();
  const methods = new Map<number, string[]>();
  const ordered = [...streams].sort((a, b) => a.conn - b.conn || (a.dir === "c2s" ? -1 : 1) - (b.dir === "c2s" ? -1 : 1));
  for (const s of ordered) {
    const parser = new Http1StreamParser(s.dir === "c2s" ? "request" : "response");
    if (s.dir === "s2c") for (const m of methods.get(s.conn) ?? []) parser.expectResponseTo(m);
    const heads: HttpHead[] = [];
    try {
      heads.push(...parser.push(s.bytes));
      if (s.ended) heads.push(...parser.end());
    } catch {
      // keep the heads read before the fault
    }
    const open = parser.partial?.head;
    if (open !== undefined) heads.push(open);
    if (s.dir === "c2s")
      methods.set(
        s.conn,
        heads.map((h) => h.method ?? "GET"),
      );
    out.set(`${s.conn}:${s.dir}`, heads.map(summarise));
  }
  return out;
}
