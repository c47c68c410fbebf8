/**
 * The shared raw measuring client: one keep-alive TCP connection (node:net) to 127.0.0.1 that
 * writes a pre-serialized request and ends each response at its HTTP/1.1 framing. The hot path
 * handles `Content-Length` bodies with a lean scan; any other framing (chunked) falls back to the
 * full Http1StreamParser from runner/count for the rest of the connection. Every response is
 * validated by the request's own check.
 */
import { connect, type Socket } from "node:net";
import { Http1StreamParser } from "../count/http1.js";
import type { TimedRequest } from "./request.js";

const CRLFCRLF = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/** Callback with the response's status and body, or the error that ended the exchange. */
type Done = (err: Error | undefined, status: number, body: Buffer) => void;

/** One keep-alive HTTP/1.1 connection that carries one request at a time. */
export class KeepAliveClient {
  private buf: Buffer = Buffer.alloc(0);
  private done: Done | undefined;
  private parser: Http1StreamParser | undefined;
  private closedError: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (d: Buffer) => this.onData(d));
    socket.on("error", (e) => this.fail(e));
    socket.on("close", () => this.fail(new Error("server closed the connection")));
  }

  /**
   * Open a connection to 127.0.0.1:`port`.
   * @throws Error when the connection is refused
   */
  static connect(port: number): Promise<KeepAliveClient> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: "127.0.0.1", port });
      s.once("connect", () => {
        s.off("error", reject);
        resolve(new KeepAliveClient(s));
      });
      s.once("error", reject);
    });
  }

  /**
   * Send `req.bytes` and call `done` once with the response status and body (validated).
   * Errors (connection loss, bad framing, failed validation) come through `done`'s first argument.
   */
  exchange(req: TimedRequest, done: (err: Error | undefined) => void): void {
    if (this.closedError) return done(this.closedError);
    this.done = (err, status, body) => {
      if (err) return done(err);
      try {
        req.validate(status, body);
      } catch (e) {
        return done(e as Error);
      }
      done(undefined);
    };
    this.socket.write(req.bytes);
  }

  /** Send and await one exchange. @throws the exchange's error */
  send(req: TimedRequest): Promise<void> {
    return new Promise((res, rej) => this.exchange(req, (e) => (e ? rej(e) : res())));
  }

  /** Close the connection. */
  close(): void {
    this.closedError = new Error("client closed");
    this.socket.destroy();
  }

  private fail(e: Error): void {
    this.closedError ??= e;
    const d = this.done;
    this.done = undefined;
    d?.(e, 0, Buffer.alloc(0));
  }

  private finish(status: number, body: Buffer): void {
    const d = this.done;
    this.done = undefined;
    if (!d) return this.fail(new Error("response bytes arrived with no request outstanding"));
    d(undefined, status, body);
  }

  private onData(d: Buffer): void {
    if (this.parser) {
      try {
        for (const m of this.parser.push(d)) this.finish(m.status ?? 0, m.body);
      } catch (e) {
        this.fail(e as Error);
      }
      return;
    }
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf(CRLFCRLF);
      if (end < 0) return;
      const head = this.buf.toString("latin1", 0, end);
      const m = CONTENT_LENGTH.exec(head);
      if (!m || /\r\ntransfer-encoding:/i.test(head)) {
        // Not a Content-Length body: hand the connection to the full parser from this response on.
        this.parser = new Http1StreamParser("response", "timed connection");
        const rest = this.buf;
        this.buf = Buffer.alloc(0);
        return this.onData(rest);
      }
      const total = end + 4 + Number(m[1]);
      if (this.buf.length < total) return;
      const status = Number(head.slice(9, 12));
      const body = this.buf.subarray(end + 4, total);
      this.buf = this.buf.subarray(total);
      this.finish(status, body);
      if (this.buf.length === 0) return;
    }
  }
}
