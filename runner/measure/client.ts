/**
 * The shared raw measuring client: one keep-alive TCP connection (node:net) to 127.0.0.1 that
 * writes a pre-serialized request and ends each exchange at its answer: the response's HTTP/1.1
 * framing, or on an event stream the JSON-RPC response's event (response-framing.ts). Reads land in one static buffer through net's `onread` option (no Buffer
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

/**
 * One keep-alive HTTP/1.1 connection that carries one request at a time. An exchange ends at its
 * answer: a response's framing, or on an event stream the event carrying the JSON-RPC response
 * (response-framing.ts). MCP 2025-11-25, Streamable HTTP, "Sending Messages to the Server": the
 * server SHOULD close the SSE stream after all responses are sent; when it keeps it open, the
 * exchange is done at the event all the same (its time ends there), the connection, which the
 * open stream occupies, is closed at once, and the next exchange opens a new one (that connect is
 * part of the next exchange's time, as it is for any client of such a server).
 */
export class KeepAliveClient {
  private socket!: Socket;
  /** The socket whose reads and events count; undefined once its stream was left open. */
  private live: Socket | undefined;
  private framer!: ResponseFramer;
  private req: TimedRequest | undefined;
  private done: ExchangeDone | undefined;
  private closedError: Error | undefined;
  /** The last response the request `validReq` accepted on this connection: status and a copy of its body. */
  private validReq: TimedRequest | undefined;
  private validStatus = 0;
  private validBody: Buffer = Buffer.alloc(0);
  private opened = 1;

  private constructor(private readonly port: number) {}

  /** Bytes of the answer last accepted (0 before the first): the workload's response size (an event stream's: the JSON-RPC message's). */
  get lastBodyBytes(): number {
    return this.validBody.length;
  }

  /** TCP connections opened so far (more than 1 when a server left event streams open). */
  get connections(): number {
    return this.opened;
  }

  /**
   * Open a connection to 127.0.0.1:`port`.
   * @throws Error when the connection is refused
   */
  static async connect(port: number): Promise<KeepAliveClient> {
    const client = new KeepAliveClient(port);
    await client.open();
    return client;
  }

  /** Open the next TCP connection; resolves once connected. @throws the connect error */
  private open(): Promise<void> {
    const s: Socket = connect({
      host: "127.0.0.1",
      port: this.port,
      noDelay: true,
      onread: { buffer: READ_BUFFER, callback: (n: number): boolean => this.onRead(s, n) },
    });
    this.socket = s;
    this.live = s;
    this.framer = new ResponseFramer((status, data, bodyStart, bodyEnd, open) => this.finish(status, data, bodyStart, bodyEnd, open));
    return new Promise((resolve, reject) => {
      let connected = false;
      s.once("connect", () => {
        connected = true;
        resolve();
      });
      s.on("error", (e: Error) => (connected ? this.live === s && this.fail(e) : reject(e)));
      s.on("close", () =>
        connected
          ? this.live === s && this.fail(new Error("server closed the connection"))
          : reject(this.closedError ?? new Error("connection closed before it opened")),
      );
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
    if (this.live) {
      this.framer.expectId = req.rpcId;
      this.socket.write(req.bytes);
      return;
    }
    this.opened++;
    this.open().then(
      () => {
        if (this.req !== req || this.closedError) return;
        this.framer.expectId = req.rpcId;
        this.socket.write(req.bytes);
      },
      (e: Error) => this.fail(e),
    );
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

  /** net's onread callback: frame the `nread` bytes now in READ_BUFFER. @returns whether to keep reading (not after a failure or a stream left open) */
  private onRead(s: Socket, nread: number): boolean {
    if (this.closedError || this.live !== s) return false;
    try {
      this.framer.push(READ_BUFFER, nread);
    } catch (e) {
      this.fail(e as Error);
      return false;
    }
    return this.live === s;
  }

  private fail(e: Error): void {
    this.closedError ??= e;
    const d = this.done;
    this.req = undefined;
    this.done = undefined;
    d?.(e);
  }

  private finish(status: number, data: Buffer, bodyStart: number, bodyEnd: number, open: boolean): void {
    const req = this.req;
    const done = this.done;
    if (!req || !done) return this.fail(new Error("response bytes arrived with no request outstanding"));
    this.req = undefined;
    this.done = undefined;
    if (open) {
      // The answer came on an event stream still open: stop reading it; the next exchange reconnects.
      this.live = undefined;
      this.socket.destroy();
    }
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
