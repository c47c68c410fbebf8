/**
 * A raw HTTP/1.1 client connection on node:net: the driver writes hand-built bytes and reads
 * responses, each ended at its framing (Content-Length or the last chunk) by the same parser the
 * counter uses — an SSE response may keep the socket open after its last chunk.
 */
import { connect, type Socket } from "node:net";
import { Http1StreamParser, type HttpMessage, type HttpPartialMessage } from "../wire/http1.js";
import { ProtocolError } from "./types.js";
import { ResponseTimeout } from "../errors.js";

/** One keep-alive connection to 127.0.0.1:port; reconnects when the server closed it. */
export class HttpConnection {
  private socket?: Socket;
  private parser?: Http1StreamParser;
  private queue: HttpMessage[] = [];
  private failure?: Error;
  private closed = true;
  private wake?: () => void;

  constructor(readonly port: number) {}

  private async open(): Promise<void> {
    const parser = new Http1StreamParser("response", `driver→127.0.0.1:${this.port}`);
    const socket = connect({ host: "127.0.0.1", port: this.port, noDelay: true });
    await new Promise<void>((res, rej) => socket.once("connect", res).once("error", rej));
    this.socket = socket;
    this.parser = parser;
    this.closed = false;
    this.failure = undefined;
    socket.on("data", (d: Buffer) => {
      try {
        this.queue.push(...parser.push(d));
      } catch (e) {
        this.failure = e as Error;
      }
      this.wake?.();
    });
    const ended = () => {
      if (this.closed) return;
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
      this.failure ??= e;
      ended();
    });
  }

  /**
   * Send one request (head and body bytes as they go on the wire) and wait for its response.
   * @param method the request method (a response to HEAD has no body)
   * @param onPartial called (and awaited) each time more bytes of a still-incomplete response have
   *   arrived, with the response so far — e.g. to answer a server→client request that came as an
   *   SSE event while the stream stays open; its own time counts against `timeoutMs`
   * @throws ResponseTimeout when no complete response came within `timeoutMs`; ProtocolError on a
   *   closed connection or malformed response bytes; whatever `onPartial` throws
   */
  async request(bytes: Buffer, method: string, timeoutMs: number, onPartial?: (partial: HttpPartialMessage) => Promise<void> | void): Promise<HttpMessage> {
    if (this.closed) await this.open();
    this.parser!.expectResponseTo(method);
    this.socket!.write(bytes);
    const deadline = Date.now() + timeoutMs;
    let seen = -1;
    for (;;) {
      const m = this.queue.shift();
      if (m) return m;
      if (onPartial && !this.failure) {
        const p = this.parser!.partial;
        const received = this.parser!.receivedBytes;
        if (p && received !== seen) {
          seen = received;
          await onPartial(p);
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
