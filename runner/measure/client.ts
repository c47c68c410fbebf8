/**
 * The shared raw measuring client: one keep-alive TCP connection (node:net) to 127.0.0.1 that
 * writes a pre-serialized request and ends each response at its HTTP/1.1 framing
 * (response-framing.ts). Reads land in one static buffer through net's `onread` option (no Buffer
 * per read, no stream events), and a request's callback is a field, not a closure per exchange.
 * Every response is validated by the request's own check; since that check is a pure function of
 * status and body (TimedRequest.validate), a response byte-identical to the last one it accepted on
 * this connection is accepted again without re-running it.
 */
import { connect, type Socket } from "node:net";
import { ResponseFramer } from "./response-framing.js";
import type { TimedRequest } from "./request.js";

/**
 * Where every connection's reads land, 64 KiB. One buffer serves all connections: JavaScript runs
 * one read callback at a time, and the framer copies out any bytes it keeps past the callback.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** Callback of one exchange: undefined when the response was valid, else the error that ended it. */
export type ExchangeDone = (err: Error | undefined) => void;

/** One keep-alive HTTP/1.1 connection that carries one request at a time. */
export class KeepAliveClient {
  private socket!: Socket;
  private req: TimedRequest | undefined;
  private done: ExchangeDone | undefined;
  private closedError: Error | undefined;
  private readonly framer = new ResponseFramer((status, data, bodyStart, bodyEnd) => this.finish(status, data, bodyStart, bodyEnd));
  /** The last response the request `validReq` accepted on this connection: status and a copy of its body. */
  private validReq: TimedRequest | undefined;
  private validStatus = 0;
  private validBody: Buffer = Buffer.alloc(0);

  private constructor() {}

  /** Bytes of the body of the last response accepted on this connection (0 before the first): the workload's response size. */
  get lastBodyBytes(): number {
    return this.validBody.length;
  }

  /**
   * Open a connection to 127.0.0.1:`port`.
   * @throws Error when the connection is refused
   */
  static connect(port: number): Promise<KeepAliveClient> {
    const client = new KeepAliveClient();
    return new Promise((resolve, reject) => {
      const s = connect({ host: "127.0.0.1", port, noDelay: true, onread: { buffer: READ_BUFFER, callback: (n: number) => client.onRead(n) } });
      client.socket = s;
      s.once("connect", () => {
        s.off("error", reject);
        s.on("error", (e) => client.fail(e));
        s.on("close", () => client.fail(new Error("server closed the connection")));
        resolve(client);
      });
      s.once("error", reject);
    });
  }

  /**
   * Send `req.bytes` and call `done` once: with undefined when a response arrived and passed
   * `req.validate`, else with the error (connection loss, bad framing, failed validation).
   */
  exchange(req: TimedRequest, done: ExchangeDone): void {
    if (this.closedError) return done(this.closedError);
    this.req = req;
    this.done = done;
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

  /** net's onread callback: frame the `nread` bytes now in READ_BUFFER. @returns whether to keep reading (not after a failure) */
  private onRead(nread: number): boolean {
    if (this.closedError) return false;
    try {
      this.framer.push(READ_BUFFER, nread);
    } catch (e) {
      this.fail(e as Error);
      return false;
    }
    return true;
  }

  private fail(e: Error): void {
    this.closedError ??= e;
    const d = this.done;
    this.req = undefined;
    this.done = undefined;
    d?.(e);
  }

  private finish(status: number, data: Buffer, bodyStart: number, bodyEnd: number): void {
    const req = this.req;
    const done = this.done;
    if (!req || !done) return this.fail(new Error("response bytes arrived with no request outstanding"));
    this.req = undefined;
    this.done = undefined;
    const length = bodyEnd - bodyStart;
    if (req !== this.validReq || status !== this.validStatus || length !== this.validBody.length || this.validBody.compare(data, bodyStart, bodyEnd) !== 0) {
      const body = data.subarray(bodyStart, bodyEnd);
      try {
        req.validate(status, body);
      } catch (e) {
        return done(e as Error);
      }
      this.validReq = req;
      this.validStatus = status;
      this.validBody = Buffer.from(body);
    }
    done(undefined);
  }
}
