/**
 * A raw HTTP/1.1 client connection on node:net: the driver writes hand-built bytes and reads
 * responses, each ended at its framing (Content-Length or the last chunk) by the same parser the
 * counter uses — or, for an event stream, once the caller has its JSON-RPC response and the
 * stream has not ended within {@link STREAM_END_GRACE_MS} (see {@link HttpConnection.request}).
 */
import { connect, type Socket } from "node:net";
import { Http1StreamParser, type HttpHead, type HttpMessage, type HttpPartialMessage } from "../wire/http1.js";
import { ProtocolError } from "./types.js";
import { ResponseTimeout } from "../errors.js";

/**
 * How long a response stream may stay open after the caller has its answer, milliseconds. MCP
 * 2025-11-25, Streamable HTTP, "Sending Messages to the Server": after the JSON-RPC response the
 * server SHOULD close the SSE stream — SHOULD, not MUST, so a server may keep it open (pings, a
 * late close). A server that does close it ends its last chunk within a millisecond of the event on
 * 127.0.0.1; waiting this long for that end keeps such a server's capture log whole and its
 * keep-alive connection reused (repeats stay byte-identical), and bounds what a server that keeps
 * the stream open costs a run: this much per exchange, not the stream's lifetime.
 */
export const STREAM_END_GRACE_MS = 500;

/**
 * A response as the client read it: the head and the body received. `complete` is false when the
 * response was still open (or cut by the server) after the caller had its answer, and the client
 * closed the connection instead of reading on; the bytes that did arrive are in the capture log.
 */
export type HttpResponse = (HttpMessage & { complete: true }) | (HttpHead & { body: Buffer; complete: false });

/**
 * Called (and awaited) each time more bytes of a still-incomplete response have arrived, with the
 * response so far. Returns true once the caller has what it waited for (e.g. the JSON-RPC response
 * with its request's id came as an SSE event): from then on the response is read for at most
 * {@link STREAM_END_GRACE_MS} more.
 */
export type OnPartial = (partial: HttpPartialMessage) => Promise<boolean> | boolean;

/**
 * After this long without a request on the connection, milliseconds, {@link HttpConnection.request}
 * first lets the event loop read what arrived meanwhile. A server closes an idle keep-alive
 * connection after its own timeout (Node's http server and uvicorn: 5 s); when this process was
 * busy for that long (a blocked event loop under load), the server's FIN is waiting unread, and a
 * request written at once would go to a connection the server has closed ("server closed the
 * connection before a complete response"). Reading it first opens a new connection instead, as an
 * HTTP client's connection pool does. Calls closer together than this (a timing loop) skip the
 * extra turn of the event loop.
 */
const IDLE_READ_FIRST_MS = 1000;

/**
 * Resolve after the event loop has polled for I/O at least once: the first setImmediate may run in
 * this turn's check phase (after the poll that woke us), the second runs in the next turn's, after
 * its poll phase has read what arrived (a FIN: the socket's `end`).
 */
const pollOnce = (): Promise<void> => new Promise((res) => setImmediate(() => setImmediate(res)));

/** One keep-alive connection to 127.0.0.1:port; reconnects when the server (or {@link HttpConnection.request}, on a stream left open) closed it. */
export class HttpConnection {
  private socket?: Socket;
  private parser?: Http1StreamParser;
  private queue: HttpMessage[] = [];
  private failure?: Error;
  private closed = true;
  private wake?: () => void;
  /** When the last request on this connection was sent (Date.now()); 0 before the first. */
  private lastRequestMs = 0;

  constructor(readonly port: number) {}

  private async open(): Promise<void> {
    const parser = new Http1StreamParser("response", `driver→127.0.0.1:${this.port}`);
    const socket = connect({ host: "127.0.0.1", port: this.port, noDelay: true });
    await new Promise<void>((res, rej) => socket.once("connect", res).once("error", rej));
    this.socket = socket;
    this.parser = parser;
    this.closed = false;
    this.failure = undefined;
    this.queue = [];
    // Events of a socket this connection has since closed (a stream left open) are ignored.
    socket.on("data", (d: Buffer) => {
      if (this.socket !== socket) return;
      try {
        this.queue.push(...parser.push(d));
      } catch (e) {
        this.failure = e as Error;
      }
      this.wake?.();
    });
    const ended = () => {
      if (this.closed || this.socket !== socket) return;
      this.closed = true;
      try {
        this.queue.push(...parser.end());
      } catch (e) {
        this.failure ??= e as Error;
      }
      this.wake?.();
    };
    socket.on("end", ended);
    socket.on("close", ended);
    socket.on("error", (e) => {
      if (this.socket !== socket) return;
      this.failure ??= e;
      ended();
    });
  }

  /**
   * Send one request (head and body bytes as they go on the wire) and wait for its response.
   *
   * A response ends at its framing, as the counter frames it. An event stream may instead stay
   * open after the server has sent everything the request needs (MCP 2025-11-25, Streamable HTTP,
   * "Sending Messages to the Server": the server SHOULD close the SSE stream after all responses
   * are sent; it may not). So once `onPartial` says the caller has its answer, the response is
   * read for at most {@link STREAM_END_GRACE_MS} more: if it ends, it is returned complete and the
   * connection stays for the next request; if it does not (or the server cuts it), this connection
   * is closed — an open stream occupies it, so the next request goes on a new one — and the
   * response so far is returned with `complete: false`.
   * @param method the request method (a response to HEAD has no body)
   * @param onPartial see {@link OnPartial}; its own time counts against `timeoutMs`
   * @throws ResponseTimeout when no complete (or answered) response came within `timeoutMs`;
   *   ProtocolError on a closed connection or malformed response bytes before an answer;
   *   whatever `onPartial` throws
   */
  async request(bytes: Buffer, method: string, timeoutMs: number, onPartial?: OnPartial): Promise<HttpResponse> {
    if (!this.closed && Date.now() - this.lastRequestMs > IDLE_READ_FIRST_MS) await pollOnce();
    if (this.closed) await this.open();
    this.lastRequestMs = Date.now();
    const parser = this.parser!;
    parser.expectResponseTo(method);
    this.socket!.write(bytes);
    let deadline = Date.now() + timeoutMs;
    let seen = -1;
    let answered: HttpPartialMessage | undefined;
    for (;;) {
      const m = this.queue.shift();
      if (m) return { ...m, complete: true };
      if (answered && (this.failure || this.closed || Date.now() >= deadline)) {
        this.close();
        return { ...answered.head!, body: answered.body, complete: false };
      }
      if (onPartial && !answered && !this.failure) {
        const p = parser.partial;
        const received = parser.receivedBytes;
        if (p && received !== seen) {
          seen = received;
          if (await onPartial(p)) {
            if (!p.head) throw new Error("onPartial answered a response whose head has not arrived");
            answered = p;
            deadline = Math.min(deadline, Date.now() + STREAM_END_GRACE_MS);
          }
          continue;
        }
      }
      if (this.failure) throw new ProtocolError(`HTTP response unreadable: ${this.failure.message}`);
      if (this.closed) throw new ProtocolError("server closed the connection before a complete response");
      const left = deadline - Date.now();
      if (left <= 0) throw new ResponseTimeout(`no complete HTTP response within ${timeoutMs} ms`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, left);
        this.wake = () => {
          clearTimeout(t);
          this.wake = undefined;
          res();
        };
      });
    }
  }

  /** Close the connection (FIN). */
  close(): void {
    this.closed = true;
    this.socket?.end();
    this.socket?.destroy();
  }
}

/** Value of the first header named `name` (case-insensitive). */
export function header(m: Pick<HttpMessage, "headers">, name: string): string | undefined {
  const n = name.toLowerCase();
  return m.headers.find(([k]) => k.toLowerCase() === n)?.[1];
}
