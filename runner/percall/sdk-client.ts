/**
 * The per-call engine's SDK client: it starts one target process like the thin client
 * (runner/percall/client.ts, `spawnTarget`) and drives it with the target's own MCP TypeScript SDK
 * client generation (`sdkClient:` of the target: v1 `Client` of `@modelcontextprotocol/sdk` 1.x,
 * v2 `Client` of `@modelcontextprotocol/client`), set up as the wire report's SDK client drivers
 * set it up (runner/drivers/sdk/v1.ts, v2.ts): same client info, capabilities and revision
 * handling. HTTP goes through the SDK's own Streamable HTTP client transport; stdio through
 * {@link ProcessStdioTransport}, one compact JSON line per message, as the SDKs' own stdio
 * transports write (the SDKs' `StdioClientTransport` would spawn the server itself, outside the
 * runner's process groups). The client runs in the measuring process, so its work (building,
 * validating and parsing messages) is inside the timed calls and the measured CPU.
 */
import { setMaxListeners } from "node:events";
import type { Readable, Writable } from "node:stream";
import type { SdkClientName } from "../drivers/declarations.js";
import { newSdkV1Client, sdkV1HttpTransport } from "../drivers/sdk/v1.js";
import { newSdkV2Client, sdkV2HttpTransport } from "../drivers/sdk/v2.js";
import { ProtocolError } from "../drivers/types.js";
import type { RevisionWatch } from "../drivers/mcp/revision.js";
import { watchRevision } from "../drivers/sdk/revision-watch.js";
import { freePort, type TargetProcess } from "../targets/process.js";
import { spawnTarget, stopTarget, type CallClient, type ClientSpec, type SetupTiming } from "./client.js";

/** The SDK package whose `Client` each generation is (its installed version is recorded per row). */
export const SDK_CLIENT_PACKAGES: Record<SdkClientName, string> = {
  v1: "@modelcontextprotocol/sdk",
  v2: "@modelcontextprotocol/client",
};

/** The small surface of both generations' `Client` used here (`callTool`'s options: v1's third argument, v2's second). */
interface SdkClient {
  connect(transport: unknown, options?: { timeout?: number }): Promise<void>;
  listTools(params?: unknown, options?: { timeout?: number }): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }, a?: unknown, b?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * An MCP SDK `Transport` (structurally, for both generations) over a child process's stdin and
 * stdout: each message is written as one compact JSON line; each stdout line is parsed and handed
 * to `onmessage`. The end of stdout calls `onclose`, so the SDK rejects its pending requests.
 */
export class ProcessStdioTransport {
  /** Set by the SDK. */
  onmessage?: (message: never) => void;
  /** Set by the SDK. */
  onclose?: () => void;
  /** Set by the SDK: called with a stdout line that is not JSON. */
  onerror?: (error: Error) => void;
  private closed = false;
  private rest = "";

  constructor(
    private readonly stdin: Writable,
    private readonly stdout: Readable,
  ) {}

  /** Start reading stdout. */
  async start(): Promise<void> {
    this.stdout.setEncoding("utf8");
    this.stdout.on("data", (d: string) => {
      const lines = (this.rest + d).split("\n");
      this.rest = lines.pop()!;
      for (const line of lines) {
        if (this.closed || line.trim() === "") continue;
        let msg: unknown;
        try {
          msg = JSON.parse(line);
        } catch {
          this.onerror?.(new Error(`target stdout line is not JSON: ${line.slice(0, 120)}`));
          continue;
        }
        (this.onmessage as ((m: unknown) => void) | undefined)?.(msg);
      }
    });
    this.stdout.on("end", () => void this.close());
  }

  /** Write one message as a JSON line. */
  async send(message: unknown): Promise<void> {
    this.stdin.write(JSON.stringify(message) + "\n");
  }

  /** Stop handing messages to the SDK (the target's stdin is ended by the runner). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * Lift the listener limit (undici's 1500, set at the first fetch) of an SDK HTTP transport's own
 * abort signal (`_abortController`, created by its `start()` in both generations; nothing when
 * absent). The v2 transport combines that one signal with each request's (`AbortSignal.any`),
 * which leaves a listener on it per request until garbage collection, so a timed session of more
 * than 1500 requests printed a MaxListenersExceededWarning per request: a warning only, the
 * requests are the same.
 */
function unlimitAbortListeners(transport: unknown): void {
  const signal = (transport as { _abortController?: AbortController })._abortController?.signal;
  if (signal) setMaxListeners(0, signal);
}

/** One session of a target's own SDK client over one started target process. Call {@link SdkCallClient.start}, then `callTool`, then `close`. */
export class SdkCallClient implements CallClient {
  private proc?: TargetProcess;
  private client!: SdkClient;
  private watch?: RevisionWatch;

  private constructor(
    private readonly spec: ClientSpec,
    private readonly generation: SdkClientName,
  ) {}

  /**
   * Spawn the target, connect the SDK client (the 2025 era's `initialize` handshake, or what the
   * SDK does for 2026-07-28), list tools and make `firstCall`; returns the client and the
   * start-up timing (the same phases as the thin client's).
   * @param generation the target's `sdkClient:` (v1 speaks 2025-11-25 only)
   * @throws ProtocolError when the target exits, errs or times out during start-up, v1 is asked for
   *   another revision, or the server answers another revision than the one asked for (the one line
   *   of `revisionMismatch`, runner/drivers/mcp/revision.ts)
   */
  static async start(
    spec: ClientSpec,
    generation: SdkClientName,
    firstCall: { name: string; arguments: Record<string, unknown> },
  ): Promise<{ client: SdkCallClient; setup: SetupTiming }> {
    const c = new SdkCallClient(spec, generation);
    c.client = (generation === "v1" ? newSdkV1Client(spec.revision) : newSdkV2Client(spec.revision)) as unknown as SdkClient;
    const port = spec.transport === "http" ? await freePort() : 0;
    const t0 = process.hrtime.bigint();
    const msSince = (): number => Number(process.hrtime.bigint() - t0) / 1e6;
    try {
      const { proc, exited } = await spawnTarget(spec, port);
      c.proc = proc;
      const readyMs = msSince();
      let transport: unknown;
      if (spec.transport === "stdio") {
        const t = new ProcessStdioTransport(proc.child.stdin!, proc.child.stdout!);
        void exited.then(() => t.close());
        transport = t;
      } else {
        transport = generation === "v1" ? sdkV1HttpTransport(port) : sdkV2HttpTransport(port);
      }
      c.watch = watchRevision(transport, spec.revision);
      await c.client.connect(transport, { timeout: spec.timeoutMs });
      c.watch.check();
      const openMs = msSince();
      if (spec.transport === "http") unlimitAbortListeners(transport);
      await c.client.listTools(undefined, { timeout: spec.timeoutMs });
      c.watch.check();
      const listedMs = msSince();
      await c.callTool(firstCall.name, firstCall.arguments);
      return { client: c, setup: { readyMs, openMs, listedMs, firstCallMs: msSince() } };
    } catch (e) {
      await c.close();
      c.watch?.check();
      throw e instanceof Error && !(e instanceof ProtocolError) ? new ProtocolError(`${generation} SDK client: ${e.message}`) : e;
    }
  }

  /**
   * Call a tool through the SDK client and return its result object.
   * @throws ProtocolError on a tool error (`isError`) or a result of another revision than the
   *   configuration's (runner/drivers/mcp/revision.ts, `revisionMismatch`); the SDK's own error on a
   *   JSON-RPC error or a timeout
   */
  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const options = { timeout: this.spec.timeoutMs };
    const params = { name, arguments: args };
    const r = (await (this.generation === "v1" ? this.client.callTool(params, undefined, options) : this.client.callTool(params, options))) as Record<
      string,
      unknown
    >;
    this.watch?.check();
    if (r.isError) throw new ProtocolError(`tool ${name} answered an error: ${JSON.stringify(r.content).slice(0, 200)}`);
    return r;
  }

  /** Pid of the target process (undefined before it started). */
  get serverPid(): number | undefined {
    return this.proc?.pid;
  }

  /** Close the SDK client, then stop the target as the thin client does; resolves when it has exited. */
  async close(): Promise<void> {
    await this.client.close().catch(() => {});
    if (this.proc) await stopTarget(this.proc, this.spec.transport);
  }
}
