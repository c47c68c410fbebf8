/**
 * An MCP SDK `Transport` over the runner's tapped stdio pair (StdioChannel), so an SDK client
 * drives a target the runner spawned: messages go out as one compact JSON line each (what both
 * SDKs' own stdio transports write) and come back one line at a time. Structurally typed, so it
 * fits both SDK generations' `Transport` interface.
 */
import type { StdioChannel } from "../../capture/tap.js";
import { ResponseTimeout } from "../../errors.js";

/** A JSON-RPC message as the SDKs hand it over (opaque here). */
export type SdkMessage = Record<string, unknown>;

/** Transport over a StdioChannel. `close()` stops reading; it does not end the target's stdin (the runner does). */
export class ChannelTransport {
  /** Set by the SDK: called with each message read from the target's stdout. */
  onmessage?: (message: never, extra?: never) => void;
  /** Set by the SDK. */
  onclose?: () => void;
  /**
   * Set by the SDK: called when a line is not JSON or reading fails before close(). When the
   * target's stdout ended or failed (not a read that only waited too long), `onclose` follows, so
   * the SDK rejects its pending requests at once and clears their timers instead of waiting for
   * each request's own time limit.
   */
  onerror?: (error: Error) => void;
  private closed = false;

  /**
   * @param channel the tapped stdio pair
   * @param idleMs how long one read waits for a line before reporting an error, milliseconds
   */
  constructor(
    private readonly channel: StdioChannel,
    private readonly idleMs: number,
  ) {}

  /** Start the read loop. */
  async start(): Promise<void> {
    void this.readLoop();
  }

  private async readLoop(): Promise<void> {
    while (!this.closed) {
      let line: Buffer;
      try {
        line = await this.channel.readLine(this.idleMs);
      } catch (e) {
        if (this.closed) return;
        this.onerror?.(e as Error);
        // The stream is gone (end of stdout, a pipe error): nothing more can arrive, so close.
        if (!(e instanceof ResponseTimeout)) await this.close();
        return;
      }
      if (this.closed) return;
      let msg: unknown;
      try {
        msg = JSON.parse(line.toString("utf8"));
      } catch {
        this.onerror?.(new Error(`target stdout line is not JSON: ${line.toString().slice(0, 120)}`));
        continue;
      }
      (this.onmessage as ((m: unknown) => void) | undefined)?.(msg);
    }
  }

  /** Write one message as a JSON line. */
  async send(message: unknown): Promise<void> {
    this.channel.send(Buffer.from(JSON.stringify(message) + "\n"));
  }

  /** Step `end` over stdio: end the target's stdin (MCP "Lifecycle", Shutdown: the client closes the server's input). */
  async terminateSession(): Promise<void> {
    this.channel.end();
  }

  /** Stop reading (a pending read is abandoned). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
